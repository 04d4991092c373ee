import Foundation
import Glimpse
import GlimpseCache
import TestSupport
import Testing
extension PipelineTests {
    @Suite(.timeLimit(.minutes(1)))
    struct ImageCacheTests {
        private func makeCache() throws -> (ImageCache, URL) {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("glimpse-imagecache-\(UUID().uuidString)", isDirectory: true)
            let disk = try DiskCache(configuration: DiskCache.Configuration(directory: directory))
            return (ImageCache(memory: MemoryCache(costLimit: 16 << 20), disk: disk), directory)
        }

        @Test func queriesReportTheTierAndChargePixelBytes() async throws {
            let (cache, directory) = try makeCache()
            defer { try? FileManager.default.removeItem(at: directory) }
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            let image = try DecoderRegistry.standard.decode(png)
            let key = ImageCacheKey(base: "https://example.com/a.png")
            #expect(await cache.query(key).tier == .none)

            cache.store(image, forKey: key)
            await cache.storeData(png, metadata: ImageDataMetadata(etag: "\"x\""), forDataKey: key.base, waits: true)
            #expect(cache.memory.totalCost == 33 * 7 * 4)
            let memory = await cache.query(key)
            #expect(memory.tier == .memory && memory.image == image && memory.data == nil)

            await cache.clear(.memory)
            let disk = await cache.query(key)
            // The cache moves bytes: decoding is the pipeline's.
            #expect(disk.tier == .disk && disk.image == nil && disk.data == png && disk.metadata?.etag == "\"x\"")
            #expect(await cache.query(key, tiers: .memory).tier == .none)

            // A variant shares the original bytes but not the memory entry.
            let variant = ImageCacheKey(base: key.base, variant: "resize")
            cache.store(image, forKey: variant)
            await cache.remove(key)
            #expect(await cache.query(key).tier == .none)
            #expect(await cache.query(variant).tier == .memory)
            await cache.clear()
            let statistics = cache.statistics
            #expect(statistics.memory.count == 0 && statistics.diskCount == 0)
            #expect(statistics.diskHits == 1)
        }

        @Test func concurrentDiskQueriesAllAnswer() async throws {
            let (cache, directory) = try makeCache()
            defer { try? FileManager.default.removeItem(at: directory) }
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            let key = ImageCacheKey(base: "k")
            await cache.storeData(png, forDataKey: key.base, waits: true)
            let lookups = await withTaskGroup(of: ImageCache.Lookup.self) { group in
                for _ in 0..<16 { group.addTask { await cache.query(key) } }
                var lookups: [ImageCache.Lookup] = []
                for await lookup in group { lookups.append(lookup) }
                return lookups
            }
            #expect(lookups.allSatisfy { $0.tier == .disk && $0.data == png })
            let statistics = cache.statistics
            // Each query either read the disk itself or joined a read in flight.
            #expect(statistics.diskHits == 16)
            #expect(statistics.coalescedDiskReads <= 15)
        }

        /// Queued writes hold at most `maximumPendingWriteBytes`; stores beyond it wait for
        /// their own batch (back-pressure), and every store ends up on disk either way.
        @Test func backgroundWritesAreBoundedAndAllHappen() async throws {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("glimpse-imagecache-\(UUID().uuidString)", isDirectory: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let disk = try DiskCache(configuration: DiskCache.Configuration(directory: directory))
            let bound = 3 * (4096 + 1024)
            let cache = ImageCache(disk: disk, maximumPendingWriteBytes: bound)
            #expect(cache.maximumPendingWriteBytes == bound)
            let payload = [UInt8](repeating: 7, count: 4096)
            var largest = 0
            for index in 0..<40 {
                let key = ImageCacheKey(base: "k\(index)")
                await cache.storeData(payload, forDataKey: key.base, waits: false)
                largest = max(largest, cache.pendingWriteBytes)
                #expect(cache.pendingWriteBytes <= bound)
            }
            // One entry larger than the bound is still queued when nothing else is.
            await cache.pendingWritesFinished()
            let large = [UInt8](repeating: 9, count: 4 * bound)
            await cache.storeData(large, forDataKey: "large", waits: false)
            await cache.pendingWritesFinished()
            #expect(cache.pendingWriteCount == 0 && cache.pendingWriteBytes == 0)
            #expect(largest > 0)
            #expect((0..<40).allSatisfy { disk.data(forKey: "k\($0)") == Data(payload) })
            #expect(disk.data(forKey: "large") == Data(large))
        }

        /// Writes queued when the last reference to the cache goes still happen: the writer
        /// task holds the cache until its queue is written.
        @Test func queuedWritesSurviveTheCachesRelease() async throws {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("glimpse-imagecache-\(UUID().uuidString)", isDirectory: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let disk = try DiskCache(configuration: DiskCache.Configuration(directory: directory))
            let payload = [UInt8](repeating: 3, count: 2048)
            do {
                let cache = ImageCache(disk: disk)
                for index in 0..<20 { await cache.storeData(payload, forDataKey: "r\(index)", waits: false) }
            }
            let deadline = ContinuousClock.now + .seconds(20)
            while !(0..<20).allSatisfy({ disk.contains("r\($0)") }), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect((0..<20).allSatisfy { disk.data(forKey: "r\($0)") == Data(payload) })
        }

        /// Queued writes reach the disk in batches whose small entries share a file, and for one
        /// key the last store wins, an awaited one in between included.
        @Test func queuedWritesShareFilesAndKeepTheirOrder() async throws {
            let (cache, directory) = try makeCache()
            defer { try? FileManager.default.removeItem(at: directory) }
            let disk = try #require(cache.disk)
            for index in 0..<10 {
                await cache.storeData([UInt8](repeating: UInt8(index), count: 500), forDataKey: "b\(index)", waits: false)
            }
            await cache.storeData([1, 1], forDataKey: "order", waits: false)
            await cache.storeData([2, 2], forDataKey: "order", waits: true)
            #expect(disk.data(forKey: "order") == Data([2, 2]))
            await cache.storeData([3, 3], forDataKey: "order", waits: false)
            await cache.pendingWritesFinished()
            #expect(disk.data(forKey: "order") == Data([3, 3]))
            #expect((0..<10).allSatisfy { disk.data(forKey: "b\($0)") == Data(repeating: UInt8($0), count: 500) })
            let inodes = try (0..<10).map { try FileManager.default.attributesOfItem(atPath: disk.filePath(forKey: "b\($0)"))[.systemFileNumber] as? Int }
            #expect(Set(inodes).count < 10)
        }

        /// An awaited `storeData` returns only once the bytes are on disk (what `waitForDiskStore` uses).
        @Test func awaitedStoreIsOnDiskWhenItReturns() async throws {
            let (cache, directory) = try makeCache()
            defer { try? FileManager.default.removeItem(at: directory) }
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            await cache.storeData(png, metadata: ImageDataMetadata(etag: "\"e\""), forDataKey: "w", waits: true)
            #expect(cache.disk?.entry(forKey: "w")?.data == Data(png))
            #expect(cache.disk?.metadata(forKey: "w")?.etag == "\"e\"")
        }
    }
}
