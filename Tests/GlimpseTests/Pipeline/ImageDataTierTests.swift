import Foundation
import Glimpse
import Synchronization
import TestSupport
import Testing

extension PipelineTests {
    /// The data tier's contract as the pipeline keeps it: reads go through the cache (and count),
    /// a tier that fails is a miss, never a failed load.
    @Suite(.timeLimit(.minutes(1)))
    struct ImageDataTierTests {
        /// A tier whose every call fails, as an unreachable Redis would.
        final class UnreachableTier: ImageDataCaching {
            let calls = Atomic<Int>(0)
            private func fail() -> ImageDataTierError {
                calls.add(1, ordering: .relaxed)
                return ImageDataTierError("connection refused")
            }
            func entry(forKey key: String) async throws(ImageDataTierError) -> ImageDataEntry? { throw fail() }
            func containsEntry(forKey key: String) async throws(ImageDataTierError) -> Bool { throw fail() }
            func store(_ entries: [ImageDataEntry]) async throws(ImageDataTierError) { throw fail() }
            func removeEntry(forKey key: String) async throws(ImageDataTierError) { throw fail() }
            func removeAllEntries() async throws(ImageDataTierError) { throw fail() }
            var entryCount: Int { 0 }
            var totalSize: Int { 0 }
        }

        @Test func aFailingTierIsAMissAndTheLoadStillSucceeds() async throws {
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            let tier = UnreachableTier()
            let loader = DictionaryLoader(files: ["/a.png": png])
            let cache = ImageCache(memory: DictionaryMemoryTier(), data: tier)
            let pipeline = ImagePipeline(configuration: ImagePipeline.Configuration(dataLoader: loader, cache: cache))
            let url = try #require(URL(string: "https://images.example/a.png"))
            let result = try await pipeline.load(ImageRequest(url: url, options: .waitForDiskStore))
            #expect(result.tier == .network && result.image.width == 33)
            await cache.clear(.memory)
            #expect(try await pipeline.load(ImageRequest(url: url, options: .waitForDiskStore)).tier == .network)
            let statistics = cache.statistics
            // Two reads and two writes, each failed and counted; no hit.
            #expect(statistics.dataErrors == 4 && tier.calls.load(ordering: .relaxed) == 4)
            #expect(statistics.diskHits == 0 && loader.requestCount == 2)
        }

        @Test func pipelineReadsCountInTheCachesStatistics() async throws {
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            let tier = DictionaryDataTier()
            let cache = ImageCache(memory: DictionaryMemoryTier(), data: tier)
            let pipeline = ImagePipeline(configuration: ImagePipeline.Configuration(
                dataLoader: DictionaryLoader(files: ["/a.png": png]), cache: cache))
            let url = try #require(URL(string: "https://images.example/a.png"))
            _ = try await pipeline.load(ImageRequest(url: url, options: .waitForDiskStore))
            await cache.clear(.memory)
            #expect(try await pipeline.load(url).tier == .disk)
            let statistics = cache.statistics
            #expect(statistics.diskHits == 1 && statistics.misses == 1 && statistics.dataErrors == 0)
            let entry = try #require(await cache.entry(forDataKey: url.absoluteString))
            #expect(entry.data == png && entry.metadata.originalURL == url.absoluteString)
        }
    }
}
