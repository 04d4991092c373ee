import Foundation
import Glimpse
import GlimpseCache
import GlimpseRedis
import LoopbackHTTPServer
import TestSupport
import Testing

/// The code of `GlimpseRedis.docc/RunningAFleet.md`, word for word: two instances of a fleet
/// built as the article builds them, the second served by Redis with what the first fetched.
@Suite("Documentation: the fleet article", .enabled(if: RedisServer.isAvailable))
struct RunningAFleetArticleTests {
    struct Instance {
        let pipeline: ImagePipeline
        let shared: RedisDataTier
        let client: RedisClient
    }

    /// "The tiers"
    static func makeInstance(cacheFolder: URL, redisConfiguration: RedisClient.Configuration) throws -> Instance {
        let disk = try DiskCache(configuration: DiskCache.Configuration(directory: cacheFolder))
        let client = RedisClient(configuration: redisConfiguration)
        let shared = RedisDataTier(client: client, configuration: .init(namespace: "images:"))
        let data = LayeredDataTier(local: DiskDataTier(disk), shared: shared)
        let cache = ImageCache(memory: MemoryCache(configuration: .images()), data: data)
        let pipeline = ImagePipeline(configuration: .init(downloader: ImageDownloader(), cache: cache))
        return Instance(pipeline: pipeline, shared: shared, client: client)
    }

    /// "The tiers", before a process exits.
    static func shutdown(_ instance: Instance) async {
        let pipeline = instance.pipeline, shared = instance.shared, client = instance.client
        await pipeline.configuration.cache.pendingWritesFinished()
        await pipeline.configuration.cache.fetchClaimsReleased()
        await shared.waitForBackgroundWrites()
        await client.shutdown()
    }

    @Test func theArticleCodeRuns() async throws {
        let server = try await RedisServer()
        defer { server.stop() }
        let origin = try LoopbackHTTPServer()
        defer { origin.shutdown() }
        origin.setRoute("/a.png", .fixed(.ok(try Fixtures.bytes("png/ct6-d08-seq.png"), contentType: "image/png")))
        let folders = (0..<2).map { _ in
            FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-fleet-article-\(UUID().uuidString)")
        }
        defer { for folder in folders { try? FileManager.default.removeItem(at: folder) } }
        let first = try Self.makeInstance(cacheFolder: folders[0], redisConfiguration: server.configuration)
        #expect(try await first.pipeline.load(origin.url("/a.png")).tier == .network)
        await Self.shutdown(first)
        let second = try Self.makeInstance(cacheFolder: folders[1], redisConfiguration: server.configuration)
        #expect(try await second.pipeline.load(origin.url("/a.png")).tier == .shared)
        await Self.shutdown(second)
        #expect(origin.requests.count == 1)
    }
}
