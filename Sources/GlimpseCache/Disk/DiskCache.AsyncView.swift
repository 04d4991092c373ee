import Dispatch
import Foundation

extension DiskCache {
    /// The asynchronous face of a `DiskCache`: the same operations, each run on the cache's
    /// I/O queue, so no file system call happens on the caller's thread or executor.
    public struct AsyncView: Sendable {
        let cache: DiskCache

        public func data(forKey key: String) async -> Data? {
            await run { $0.data(forKey: key) }
        }

        public func metadata(forKey key: String) async -> Metadata? {
            await run { $0.metadata(forKey: key) }
        }

        public func entry(forKey key: String) async -> (data: Data, metadata: Metadata)? {
            await run { $0.entry(forKey: key) }
        }

        public func contains(_ key: String) async -> Bool {
            await run { $0.contains(key) }
        }

        public func setData(_ data: Data, metadata: Metadata = Metadata(), forKey key: String) async throws(DiskCache.Error) {
            let result: Result<Void, DiskCache.Error> = await run { cache in
                do throws(DiskCache.Error) {
                    try cache.setData(data, metadata: metadata, forKey: key)
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            try result.get()
        }

        public func remove(_ key: String) async {
            await run { $0.remove(key) }
        }

        public func removeAll() async {
            await run { $0.removeAll() }
        }

        public func removeExpired() async {
            await run { $0.removeExpired() }
        }

        public var totalSize: Int {
            get async { await run { $0.totalSize } }
        }

        public var count: Int {
            get async { await run { $0.count } }
        }

        private func run<T: Sendable>(_ body: @escaping @Sendable (DiskCache) -> T) async -> T {
            let cache = self.cache
            return await withCheckedContinuation { continuation in
                cache.ioQueue.async { continuation.resume(returning: body(cache)) }
            }
        }
    }

    /// Asynchronous variants of every operation (`await cache.async.data(forKey:)`).
    public var async: AsyncView { AsyncView(cache: self) }
}
