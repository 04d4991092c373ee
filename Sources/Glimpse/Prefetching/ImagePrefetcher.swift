import Foundation
import Synchronization

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
        /// The downloads' priority (low).
        public var priority: ImageDownloadPriority = .low
        public var destination: Destination = .memoryAndDisk
        /// Options for each load (the priority above replaces theirs).
        public var options = ImageManager.Options()

        public init(maximumConcurrentLoads: Int = 3, priority: ImageDownloadPriority = .low,
                    destination: Destination = .memoryAndDisk, options: ImageManager.Options = ImageManager.Options()) {
            self.maximumConcurrentLoads = maximumConcurrentLoads
            self.priority = priority
            self.destination = destination
            self.options = options
        }
    }

    /// How a batch ended.
    public struct Summary: Sendable, Hashable {
        /// URLs now cached (including those that already were).
        public var finished: Int
        /// URLs that failed or were cancelled.
        public var skipped: Int

        public init(finished: Int, skipped: Int) {
            self.finished = finished
            self.skipped = skipped
        }
    }

    public let manager: ImageManager
    public let configuration: Configuration
    private let batches = Mutex<[UInt64: Task<Summary, Never>]>([:])
    private let nextBatch = Atomic<UInt64>(0)

    public init(manager: ImageManager, configuration: Configuration = Configuration()) {
        self.manager = manager
        self.configuration = configuration
    }

    /// Prefetches `urls` and returns when all of them finished, failed or were cancelled.
    ///
    /// - Parameter progress: `(finished, total)` after each URL that finished
    ///   (failures count towards the summary's `skipped` only).
    @discardableResult
    public func prefetch(_ urls: [URL],
                         progress: (@Sendable (_ finished: Int, _ total: Int) -> Void)? = nil) async -> Summary {
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
    public func startPrefetching(_ urls: [URL], progress: (@Sendable (_ finished: Int, _ total: Int) -> Void)? = nil,
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

    private func run(_ urls: [URL], progress: (@Sendable (Int, Int) -> Void)?) async -> Summary {
        let total = urls.count
        let width = max(1, configuration.maximumConcurrentLoads)
        var options = configuration.options
        options.priority = configuration.priority
        let destination = configuration.destination
        let manager = manager
        var finished = 0
        var skipped = 0
        let loadOptions = options
        let load: @Sendable (URL) async -> Bool = { url in
            if Task.isCancelled { return false }
            do throws(ImageLoadError) {
                switch destination {
                case .memoryAndDisk: _ = try await manager.load(url, options: loadOptions)
                case .diskOnly: try await manager.loadData(url, options: loadOptions)
                }
                return true
            } catch {
                return false
            }
        }
        await withTaskGroup(of: Bool.self) { group in
            var next = 0
            while next < min(width, total) {
                let url = urls[next]
                next += 1
                group.addTask { await load(url) }
            }
            while let succeeded = await group.next() {
                if succeeded {
                    finished += 1
                    progress?(finished, total)
                } else {
                    skipped += 1
                }
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
        return Summary(finished: finished, skipped: skipped)
    }
}
