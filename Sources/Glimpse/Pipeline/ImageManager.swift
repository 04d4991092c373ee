import Foundation
import GlimpseCache
import Synchronization

/// Loads images from the fastest tier that has them: memory, then disk, then
/// the network; decodes, transforms, stores and returns them.
///
/// Concurrent loads of one variant share one job (one disk read, one
/// download, one decode); each caller can cancel alone, and the job stops
/// when its last caller leaves. URLs that failed permanently fail fast for
/// ``Configuration/failedURLTimeToLive``.
public final class ImageManager: Sendable {
    public let configuration: Configuration
    let failedURLs: FailedURLCache
    let table = Mutex(JobTable())

    public init(configuration: Configuration) {
        self.configuration = configuration
        failedURLs = FailedURLCache(timeToLive: configuration.failedURLTimeToLive, clock: configuration.clock)
    }

    /// The memory and disk tiers.
    public var cache: ImageCache { configuration.cache }

    // MARK: Loading

    /// Loads the image at `url`. Cancelling the calling task detaches this
    /// caller only; the shared download stops when no other caller waits.
    public func load(_ url: URL, options: Options = Options()) async throws(ImageLoadError) -> ImageResult {
        // The common memory hit without building a request (a measured third of a hit's cost).
        if options.isPlainLookup, configuration.cacheKeyFilter == nil,
           let image = configuration.cache.memory.value(forKey: url.absoluteString) {
            return ImageResult(image: image, tier: .memory, url: url)
        }
        let request = makeRequest(url, options: options)
        if let early = earlyResult(request) { return try early.get() }
        // A caller cancelled before it got here must not start (or join) a job.
        if Task.isCancelled { throw .cancelled }
        let holder = PendingCancellation<ImageTask> { $0.cancel() }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<ImageResult, ImageLoadError>, Never>) in
                let task = start(request, LoadCallbacks(completion: { continuation.resume(returning: $0) }))
                holder.store(task)
            }
        } onCancel: {
            holder.cancel()
        }
        return try result.get()
    }

    /// Loads the image at `url` and reports through callbacks.
    ///
    /// Progress and partial images (with ``Options/progressive``) arrive on
    /// the downloader's callback queue, all before the completion for callers
    /// waiting when the download starts. A caller that joins a load of the
    /// same image already downloading gets progress only if that download was
    /// started with a progress listener. The completion arrives exactly once,
    /// on the calling thread for a memory hit or an immediate failure,
    /// otherwise on a pipeline task.
    @discardableResult
    public func load(_ url: URL, options: Options = Options(),
                     progress: (@Sendable (_ received: Int64, _ expected: Int64?) -> Void)? = nil,
                     partialImage: (@Sendable (Image) -> Void)? = nil,
                     completion: @escaping @Sendable (Result<ImageResult, ImageLoadError>) -> Void) -> ImageTask {
        let request = makeRequest(url, options: options)
        if let early = earlyResult(request) {
            completion(early)
            return ImageTask(id: 0, manager: nil)
        }
        return start(request, LoadCallbacks(progress: progress, partialImage: partialImage, completion: completion))
    }

    /// Forgets a failed URL so that the next load tries the network again.
    public func removeFailedURL(_ url: URL) {
        failedURLs.remove(url.absoluteString)
    }

    /// Forgets every failed URL.
    public func removeAllFailedURLs() {
        failedURLs.removeAll()
    }

    // MARK: Jobs

    /// A memory hit or a fail-fast answer, without starting a job.
    private func earlyResult(_ request: LoadRequest) -> Result<ImageResult, ImageLoadError>? {
        if let hit = memoryStage(request) { return .success(hit) }
        if !request.options.retryFailed, failedURLs.contains(request.urlKey) { return .failure(.failedRecently) }
        return nil
    }

    private func start(_ request: LoadRequest, _ callbacks: LoadCallbacks) -> ImageTask {
        let key = request.jobKey
        let attached = table.withLock { $0.attach(key, callbacks) }
        if let job = attached.newJob {
            let task = Task(priority: request.options.priority.taskPriority) { [self] in
                let result = await run(request, key: key, job: job)
                let waiters = table.withLock { $0.finish(key, job: job) }
                for waiter in waiters { waiter.completion(result) }
            }
            if !table.withLock({ $0.setTask(task, key: key, job: job) }) { task.cancel() }
        }
        return ImageTask(id: attached.waiter, manager: self)
    }

    func cancel(waiter: UInt64) -> Bool {
        guard let detached = table.withLock({ $0.detach(waiter) }) else { return false }
        detached.orphanedTask?.cancel()
        detached.callbacks.completion(.failure(.cancelled))
        return true
    }

    /// Progress for every waiter of a job.
    func reportProgress(_ key: JobTable.Key, job: UInt64, received: Int64, expected: Int64?) {
        for waiter in table.withLock({ $0.waiters(of: key, job: job) }) { waiter.progress?(received, expected) }
    }

    /// A partial image for every waiter of a job.
    func reportPartialImage(_ key: JobTable.Key, job: UInt64, image: Image) {
        for waiter in table.withLock({ $0.waiters(of: key, job: job) }) { waiter.partialImage?(image) }
    }

    /// Runs the stages and records permanent failures.
    private func run(_ request: LoadRequest, key: JobTable.Key, job: UInt64) async -> Result<ImageResult, ImageLoadError> {
        let result: Result<ImageResult, ImageLoadError>
        do throws(ImageLoadError) {
            result = .success(try await flow(request, key: key, job: job))
        } catch {
            if error.isPermanent { failedURLs.insert(request.urlKey) }
            result = .failure(error)
        }
        return result
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
