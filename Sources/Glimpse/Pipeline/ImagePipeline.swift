import Foundation
import GlimpseCache
import Synchronization

/// Loads images from the fastest tier that has them — memory, then data
/// (disk), then the loader (network) — decodes and processes them on a
/// bounded executor of its own, stores them and returns them.
///
/// ```swift
/// import Glimpse
///
/// let image = try await ImagePipeline.shared.image(for: url)
/// let thumbnail = try await ImagePipeline.shared.image(
///     for: ImageRequest(url: url, processors: [.resize(width: 256)]))
/// ```
///
/// Concurrent loads of one variant share one job (one read, one download, one
/// decode); each caller can cancel alone, and the job stops when its last
/// caller leaves. URLs that failed permanently fail fast for
/// ``Configuration/failedURLTimeToLive`` with the original reason.
public final class ImagePipeline: Sendable {
    public let configuration: Configuration
    let failedURLs: FailedURLCache
    let table = Lock(JobTable())
    /// The decodes of originals in flight (the decode unit's table).
    let decodes = Lock(DecodeTable())
    /// Decodes of originals started (shared ones once), for tests and diagnostics.
    let decodesStarted = Atomic<Int>(0)
    /// The ``data(for:format:)`` calls in flight, one per variant and format.
    let encodings = Lock(EncodingTable())
    /// Decoding, processing and encoding, off the cooperative pool.
    let executor: ProcessingExecutor
    /// Freshness of the memory tier's images under ``HTTPCachePolicy/respect``.
    let memoryFreshness = FreshnessTable()
    /// The configuration's logger, metrics and tracer, with their handles made once.
    let instruments: PipelineInstruments
    /// Set by ``shutdown(deadline:)``: readable without a lock on every load.
    let isShutDown = Atomic<Bool>(false)
    /// The one run of ``shutdown(deadline:)``, which later calls wait for.
    let shutdownRun = Lock<Task<Bool, Never>?>(nil)

    public init(configuration: Configuration) {
        self.configuration = configuration
        instruments = PipelineInstruments(logger: configuration.logger, metrics: configuration.metricsFactory,
                                          tracer: configuration.tracer, clock: configuration.clock)
        failedURLs = FailedURLCache(timeToLive: configuration.failedURLTimeToLive, clock: configuration.clock)
        executor = ProcessingExecutor(width: configuration.processingWidth, niceness: configuration.processingNiceness,
                                      maximumHeldBytes: configuration.maximumProcessingBytes)
    }

    /// The pipeline of ``Configuration/standard(environment:)``: memory sized from
    /// the cgroup limit or physical memory, a disk cache under the XDG cache folder
    /// (memory-only when there is none: see ``Configuration/memoryOnlyReason``) and
    /// an ``ImageDownloader``.
    public static let shared = ImagePipeline(configuration: .standard())

    /// The memory and data tiers.
    public var cache: ImageCache { configuration.cache }

    /// Threads of the processing executor.
    public var processingWidth: Int { executor.width }

    // MARK: Loading

    /// The image at `url`, processed by nothing.
    public func image(for url: URL) async throws(ImageLoadError) -> Image {
        try await load(url).image
    }

    /// The image `request` describes.
    public func image(for request: ImageRequest) async throws(ImageLoadError) -> Image {
        try await load(request).image
    }

    /// Loads the image at `url` and says where it came from. Cancelling the
    /// calling task detaches this caller only.
    public func load(_ url: URL) async throws(ImageLoadError) -> ImageResult {
        // The common memory hit without building a request (a measured third of a hit's cost).
        if configuration.cacheKeyFilter == nil, configuration.httpCachePolicy == .ignore,
           !isShutDown.load(ordering: .relaxed),
           let image = configuration.cache.memory.image(forKey: url.absoluteString) {
            instruments.memoryHit(url, format: image.format)
            return ImageResult(image: image, tier: .memory, url: url)
        }
        return try await load(ImageRequest(url: url))
    }

    /// Loads `request` and says where the image came from. Cancelling the
    /// calling task detaches this caller only; the shared download stops when
    /// no other caller waits.
    public func load(_ request: ImageRequest) async throws(ImageLoadError) -> ImageResult {
        var observation = instruments.beginLoad(request.url)
        let result = await loadResult(request, &observation)
        instruments.endLoad(observation, result)
        return try result.get()
    }

    private func loadResult(_ request: ImageRequest,
                            _ observation: inout PipelineInstruments.LoadObservation) async -> Result<ImageResult, ImageLoadError> {
        let resolved: LoadRequest
        switch resolve(request) {
        case .success(let loadRequest): resolved = loadRequest
        case .failure(let error): return .failure(error)
        }
        if let early = earlyResult(resolved) { return early }
        // A caller cancelled before it got here must not start (or join) a job.
        if Task.isCancelled { return .failure(.cancelled) }
        observation.start = instruments.now()
        let started = observation
        let holder = PendingCancellation<UInt64> { [self] waiter in _ = cancel(waiter: waiter) }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<ImageResult, ImageLoadError>, Never>) in
                let waiter = instruments.withLoadContext(started) {
                    start(resolved, LoadCallbacks(completion: { continuation.resume(returning: $0) }))
                }
                holder.store(waiter)
            }
        } onCancel: {
            holder.cancel()
        }
    }

    /// Starts loading `request` and returns its task: events (progress,
    /// previews, the result) as an `AsyncStream`, a changeable priority, cancel.
    public func imageTask(for request: ImageRequest) -> ImageTask {
        let task = ImageTask(request: request, pipeline: self)
        let callbacks = LoadCallbacks(
            progress: { [task] received, expected in task.report(.progress(received: received, expected: expected)) },
            partialImage: { [task] image in task.report(.preview(image)) },
            completion: { [task] result in task.finish(result) })
        begin(request, callbacks, task: task)
        return task
    }

    /// Starts loading the image at `url` and returns its task.
    public func imageTask(for url: URL) -> ImageTask {
        imageTask(for: ImageRequest(url: url))
    }

    /// Loads `request` and reports through callbacks.
    ///
    /// Progress and partial images (with ``ImageRequest/Options/progressive``)
    /// arrive before the completion for callers waiting when the download
    /// starts. A caller that joins a load of the same image already
    /// downloading gets progress only if that download was started with a
    /// progress listener. The completion arrives exactly once, on the calling
    /// thread for a memory hit or an immediate failure, otherwise on a
    /// pipeline thread.
    @discardableResult
    public func load(_ request: ImageRequest,
                     progress: (@Sendable (_ received: Int64, _ expected: Int64?) -> Void)? = nil,
                     partialImage: (@Sendable (Image) -> Void)? = nil,
                     completion: @escaping @Sendable (Result<ImageResult, ImageLoadError>) -> Void) -> ImageTask {
        let task = ImageTask(request: request, pipeline: self)
        var onProgress: (@Sendable (Int64, Int64?) -> Void)?
        if let progress {
            onProgress = { [task] received, expected in
                task.report(.progress(received: received, expected: expected))
                progress(received, expected)
            }
        }
        var onPartialImage: (@Sendable (Image) -> Void)?
        if let partialImage {
            onPartialImage = { [task] image in
                task.report(.preview(image))
                partialImage(image)
            }
        }
        let callbacks = LoadCallbacks(progress: onProgress, partialImage: onPartialImage, completion: { [task] result in
            task.finish(result)
            completion(result)
        })
        begin(request, callbacks, task: task)
        return task
    }

    /// Loads the image at `url` and reports through callbacks (see ``load(_:progress:partialImage:completion:)-(ImageRequest,_,_,_)``).
    @discardableResult
    public func load(_ url: URL,
                     progress: (@Sendable (_ received: Int64, _ expected: Int64?) -> Void)? = nil,
                     partialImage: (@Sendable (Image) -> Void)? = nil,
                     completion: @escaping @Sendable (Result<ImageResult, ImageLoadError>) -> Void) -> ImageTask {
        load(ImageRequest(url: url), progress: progress, partialImage: partialImage, completion: completion)
    }

    /// The cache key `request` is stored under: ``ImageCacheKey/base`` for its
    /// original bytes, ``ImageCacheKey/memoryKey`` for the decoded (and
    /// processed) image and its encoded copy in the data tier.
    ///
    /// Requests that send their own `Authorization`, `Cookie` or `Accept` get a
    /// base of their own (the resource, then a digest of those fields), so that
    /// one user's or one format's response is never served for another's; a
    /// request's own ``ImageRequest/cacheKey`` is taken as it is.
    public func cacheKey(for request: ImageRequest) -> ImageCacheKey {
        var variant = request.variant
        if let suffix = configuration.variantSuffix(for: request) { variant += "|" + suffix }
        if let key = request.cacheKey { return ImageCacheKey(base: key, variant: variant) }
        let resource = request.url.map { configuration.cacheKeyFilter?($0) ?? $0.absoluteString } ?? ""
        return ImageCacheKey(base: Self.separated(resource, request), variant: variant)
    }

    /// `key`, with the digest of the request's distinguishing header fields when it has any.
    static func separated(_ key: String, _ request: ImageRequest) -> String {
        guard let digest = request.distinguishingDigest else { return key }
        return key + ImageCacheKey.separator + "h=" + digest
    }

    /// Cancels every load in flight; each caller's result is ``ImageLoadError/cancelled``.
    public func cancelAll() {
        for waiter in table.withLock({ $0.allWaiters }) { _ = cancel(waiter: waiter) }
    }

    /// Forgets a failed URL (for every set of credentials it was asked with)
    /// so that the next load tries the network again.
    public func removeFailedURL(_ url: URL) {
        failedURLs.removeAll(for: url.absoluteString)
    }

    /// Forgets every failed URL.
    public func removeAllFailedURLs() {
        failedURLs.removeAll()
    }

    // MARK: Jobs

    private func begin(_ request: ImageRequest, _ callbacks: LoadCallbacks, task: ImageTask) {
        var observation = instruments.beginLoad(request.url)
        let resolved: LoadRequest
        switch resolve(request) {
        case .success(let loadRequest): resolved = loadRequest
        case .failure(let error):
            instruments.endLoad(observation, .failure(error))
            callbacks.completion(.failure(error))
            return
        }
        if let early = earlyResult(resolved) {
            instruments.endLoad(observation, early)
            callbacks.completion(early)
            return
        }
        observation.start = instruments.now()
        var observed = callbacks
        observed.completion = { [instruments, observation] result in
            instruments.endLoad(observation, result)
            callbacks.completion(result)
        }
        task.attach(waiter: instruments.withLoadContext(observation) { start(resolved, observed) })
    }

    /// Stage 1: the URL and cache keys.
    func resolve(_ request: ImageRequest) -> Result<LoadRequest, ImageLoadError> {
        if isShutDown.load(ordering: .acquiring) { return .failure(.shutDown) }
        guard let url = request.url else { return .failure(.download(.invalidURL)) }
        return .success(LoadRequest(request: request, url: url, urlKey: Self.separated(url.absoluteString, request),
                                    key: cacheKey(for: request), policy: configuration.dataCachePolicy))
    }

    /// A memory hit or a fail-fast answer, without starting a job.
    private func earlyResult(_ request: LoadRequest) -> Result<ImageResult, ImageLoadError>? {
        let hit = memoryStage(request)
        if request.readsCache { instruments.memoryLookup(hit: hit != nil) }
        if let hit { return .success(hit) }
        if !request.options.contains(.retryFailed), let reason = failedURLs.failure(request.urlKey) {
            return .failure(.failedRecently(reason))
        }
        return nil
    }

    /// Attaches a waiter to the job of `request`, starting the job if needed.
    private func start(_ request: LoadRequest, _ callbacks: LoadCallbacks) -> UInt64 {
        let key = request.jobKey
        let attached = table.withLock { $0.attach(key, callbacks, priority: request.request.priority) }
        if let job = attached.newWork {
            let task = Task(priority: request.request.priority.taskPriority) { [self] in
                let result = await measured { await run(request, key: key, job: job) }
                if instruments.samples { instruments.sample(configuration.cache, queued: executor.queuedCount) }
                let waiters = table.withLock { $0.finish(key, work: job) }
                for waiter in waiters { waiter.completion(result) }
            }
            let kept = table.withLock { table in
                table.updateHandle(key, work: job) { handle in
                    handle = JobHandle(task: task, loading: handle?.loading)
                }
            }
            if !kept { task.cancel() }
        }
        return attached.waiter
    }

    func cancel(waiter: UInt64) -> Bool {
        guard let detached = table.withLock({ $0.detach(waiter) }) else { return false }
        detached.orphaned?.task?.cancel()
        detached.waiter.completion(.failure(.cancelled))
        return true
    }

    func setPriority(_ priority: ImageDownloadPriority, waiter: UInt64) {
        if let changed = table.withLock({ $0.setPriority(priority, of: waiter) }), let loading = changed.handle?.loading {
            loading.setPriority(changed.priority)
        }
    }

    /// Progress for every waiter of a job.
    func reportProgress(_ key: JobKey, job: UInt64, received: Int64, expected: Int64?) {
        for waiter in table.withLock({ $0.waiters(of: key, work: job) }) { waiter.progress?(received, expected) }
    }

    /// A partial image for every waiter of a job.
    func reportPartialImage(_ key: JobKey, job: UInt64, image: Image) {
        for waiter in table.withLock({ $0.waiters(of: key, work: job) }) { waiter.partialImage?(image) }
    }

    /// Runs the stages; records permanent failures, and forgets the URL's
    /// failure once it loads again.
    private func run(_ request: LoadRequest, key: JobKey, job: UInt64) async -> Result<ImageResult, ImageLoadError> {
        do throws(ImageLoadError) {
            let result = try await flow(request, key: key, job: job)
            if request.options.contains(.retryFailed) || result.tier == .network { failedURLs.remove(request.urlKey) }
            return .success(result)
        } catch {
            if error.isPermanent { failedURLs.insert(request.urlKey, reason: error) }
            return .failure(error)
        }
    }
}

extension ImageDownloadPriority {
    var taskPriority: TaskPriority {
        switch self {
        case .veryLow, .low: .low
        case .normal: .medium
        case .high, .veryHigh: .high
        }
    }
}
