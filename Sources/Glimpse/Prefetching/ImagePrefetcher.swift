import Foundation
import Synchronization
import GlimpseCache

/// Loads lists of URLs ahead of need, at low priority and a few at a time,
/// so that later loads hit the cache.
///
/// Each call to ``prefetch(_:progress:)`` is one batch; ``cancel()`` stops
/// every batch in flight (the loads it started detach from shared downloads
/// like any other cancelled caller).
public final class ImagePrefetcher: Sendable {
    /// What a prefetch fills.
    public enum Destination: Sendable, Hashable {
        /// Decode and fill memory and disk, like a load.
        case memoryAndDisk
        /// Download the original bytes into the disk tier without decoding.
        case diskOnly
    }

    public struct Configuration: Sendable {
        /// Loads in flight at once per batch (3).
        public var maximumConcurrentLoads = 3
        /// The loads' priority (low).
        public var priority: ImageDownloadPriority = .low
        /// What a prefetch fills: by default the data tier only, decoding
        /// nothing that would be thrown away.
        public var destination: Destination = .diskOnly
        /// Processors and options for each load (with ``Destination/memoryAndDisk``).
        public var processors: [any ImageTransformer] = []
        public var options: ImageRequest.Options = []

        public init(maximumConcurrentLoads: Int = 3, priority: ImageDownloadPriority = .low,
                    destination: Destination = .diskOnly, processors: [any ImageTransformer] = [],
                    options: ImageRequest.Options = []) {
            self.maximumConcurrentLoads = maximumConcurrentLoads
            self.priority = priority
            self.destination = destination
            self.processors = processors
            self.options = options
        }
    }

    /// One URL's outcome, reported as it happens.
    public struct Progress: Sendable {
        public var url: URL
        /// The tier the image was found in or loaded from, or why it failed.
        public var result: Result<ImageTier, ImageLoadError>
        /// URLs done so far (finished or failed) and of those, failed.
        public var completed: Int
        public var failed: Int
        public var total: Int
    }

    /// How a batch ended.
    public struct Summary: Sendable, Hashable {
        /// URLs now cached (including those that already were).
        public var finished: Int
        /// URLs that failed or were cancelled.
        public var skipped: Int
        /// Each URL's outcome (cancelled ones that never started are absent).
        public var results: [URL: Result<ImageTier, ImageLoadError>]

        public init(finished: Int, skipped: Int, results: [URL: Result<ImageTier, ImageLoadError>] = [:]) {
            self.finished = finished
            self.skipped = skipped
            self.results = results
        }
    }

    public let pipeline: ImagePipeline
    public let configuration: Configuration
    private let batches = Lock<[UInt64: Task<Summary, Never>]>([:])
    private let nextBatch = Atomic<UInt64>(0)

    public init(pipeline: ImagePipeline, configuration: Configuration = Configuration()) {
        self.pipeline = pipeline
        self.configuration = configuration
    }

    /// Prefetches `urls` and returns when all of them finished, failed or were cancelled.
    ///
    /// - Parameter progress: after each URL, finished or failed.
    @discardableResult
    public func prefetch(_ urls: [URL], progress: (@Sendable (Progress) -> Void)? = nil) async -> Summary {
        let id = nextBatch.wrappingAdd(1, ordering: .relaxed).newValue
        let task = Task { [self] in await run(urls, progress: progress) }
        batches.withLock { $0[id] = task }
        let summary = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        _ = batches.withLock { $0.removeValue(forKey: id) }
        return summary
    }

    /// Callback form of ``prefetch(_:progress:)``; `completion` runs once with the summary.
    public func startPrefetching(_ urls: [URL], progress: (@Sendable (Progress) -> Void)? = nil,
                                 completion: (@Sendable (Summary) -> Void)? = nil) {
        Task { [self] in
            let summary = await prefetch(urls, progress: progress)
            completion?(summary)
        }
    }

    /// Cancels every batch in flight; their unfinished URLs count as skipped.
    public func cancel() {
        for task in batches.withLock({ Array($0.values) }) { task.cancel() }
    }

    private func run(_ urls: [URL], progress: (@Sendable (Progress) -> Void)?) async -> Summary {
        let total = urls.count
        let width = max(1, configuration.maximumConcurrentLoads)
        let configuration = configuration
        let pipeline = pipeline
        var finished = 0
        var skipped = 0
        var results: [URL: Result<ImageTier, ImageLoadError>] = [:]
        let load: @Sendable (URL) async -> (URL, Result<ImageTier, ImageLoadError>) = { url in
            if Task.isCancelled { return (url, .failure(.cancelled)) }
            let request = ImageRequest(url: url, processors: configuration.processors, options: configuration.options,
                                       priority: configuration.priority)
            do throws(ImageLoadError) {
                switch configuration.destination {
                case .memoryAndDisk: return (url, .success(try await pipeline.load(request).tier))
                case .diskOnly: return (url, .success(try await pipeline.loadData(request)))
                }
            } catch {
                return (url, .failure(error))
            }
        }
        await withTaskGroup(of: (URL, Result<ImageTier, ImageLoadError>).self) { group in
            var next = 0
            while next < min(width, total) {
                let url = urls[next]
                next += 1
                group.addTask { await load(url) }
            }
            while let (url, result) = await group.next() {
                results[url] = result
                if case .success = result { finished += 1 } else { skipped += 1 }
                progress?(Progress(url: url, result: result, completed: finished + skipped, failed: skipped,
                                   total: total))
                guard next < total else { continue }
                if Task.isCancelled {
                    // What never started is skipped too.
                    skipped += total - next
                    next = total
                } else {
                    let url = urls[next]
                    next += 1
                    group.addTask { await load(url) }
                }
            }
        }
        return Summary(finished: finished, skipped: skipped, results: results)
    }
}
