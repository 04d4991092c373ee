import Foundation
import Glimpse
import GlimpseCache
import GlimpseRedis
import LoopbackHTTPServer
import TestSupport
import Testing

/// Pipelines of a "fleet": each with its own disk folder, all with one Redis behind, built as
/// `Glimpse.docc/DataTier.md` ("A local tier in front of a shared one") shows.
@Suite("Pipelines sharing a Redis data tier", .enabled(if: RedisServer.isAvailable))
struct SharedTierPipelineTests {
    struct Instance {
        let pipeline: ImagePipeline
        let redis: RedisDataTier
        let directory: URL

        init(redis configuration: RedisClient.Configuration) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-shared-\(UUID().uuidString)")
            let disk = try DiskCache(configuration: DiskCache.Configuration(directory: directory))
            let redisConfiguration = configuration
            let shared = RedisDataTier(client: RedisClient(configuration: redisConfiguration))
            let data = LayeredDataTier(local: DiskDataTier(disk), shared: shared)
            let cache = ImageCache(memory: MemoryCache(configuration: .images()), data: data)
            redis = shared
            pipeline = ImagePipeline(configuration: .init(downloader: ImageDownloader(), cache: cache))
        }

        /// Returns once what the loads fetched is on disk and in Redis.
        func writesFinished() async {
            await pipeline.configuration.cache.pendingWritesFinished()
            await redis.waitForBackgroundWrites()
        }

        func shutdown() async {
            await redis.client.shutdown()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    @Test("A second instance gets the first's image from Redis, with no origin request, and keeps it on its disk")
    func sharedHit() async throws {
        let redisServer = try await RedisServer()
        defer { redisServer.stop() }
        let origin = try LoopbackHTTPServer()
        defer { origin.shutdown() }
        origin.setRoute("/a.png", .fixed(.ok(try Fixtures.bytes("png/ct6-d08-seq.png"), contentType: "image/png")))
        let url = origin.url("/a.png")

        let first = try Instance(redis: redisServer.configuration)
        #expect(try await first.pipeline.load(url).tier == .network)
        await first.writesFinished()
        #expect(origin.requests.count == 1)

        let second = try Instance(redis: redisServer.configuration)
        let shared = try await second.pipeline.load(url)
        #expect(shared.tier == .shared)
        #expect(shared.image.width == 33)
        #expect(origin.requests.count == 1, "the shared tier answered: no origin request")

        // Redis gone: a third instance on the second's folder finds the image on its disk.
        redisServer.kill()
        let disk = try DiskCache(configuration: DiskCache.Configuration(directory: second.directory))
        let restarted = ImagePipeline(configuration: .init(downloader: ImageDownloader(), cache: ImageCache(disk: disk)))
        #expect(try await restarted.load(url).tier == .disk, "a shared hit fills the local tier")
        #expect(origin.requests.count == 1)
        await first.shutdown()
        await second.shutdown()
    }

    @Test("Redis down: every load still succeeds from the origin, and again from the local disk")
    func redisDown() async throws {
        let redisServer = try await RedisServer()
        defer { redisServer.stop() }
        redisServer.kill()
        let origin = try LoopbackHTTPServer()
        defer { origin.shutdown() }
        origin.setRoute("/a.png", .fixed(.ok(try Fixtures.bytes("png/ct6-d08-seq.png"), contentType: "image/png")))
        let instance = try Instance(redis: redisServer.configuration)
        let result = try await instance.pipeline.load(origin.url("/a.png"))
        #expect(result.tier == .network && result.image.width == 33)
        await instance.writesFinished()
        instance.pipeline.configuration.cache.memory.removeAllImages()
        #expect(try await instance.pipeline.load(origin.url("/a.png")).tier == .disk)
        #expect(origin.requests.count == 1)
        await instance.shutdown()
    }

    @Test("ImageCache.Tiers.shared names the shared half: queried, removed and cleared apart from the local disk")
    func sharedTierSelection() async throws {
        let redisServer = try await RedisServer()
        defer { redisServer.stop() }
        let origin = try LoopbackHTTPServer()
        defer { origin.shutdown() }
        origin.setRoute("/a.png", .fixed(.ok(try Fixtures.bytes("png/ct6-d08-seq.png"), contentType: "image/png")))
        let url = origin.url("/a.png")
        let instance = try Instance(redis: redisServer.configuration)
        _ = try await instance.pipeline.load(url)
        await instance.writesFinished()
        let cache = instance.pipeline.configuration.cache
        let key = instance.pipeline.cacheKey(for: ImageRequest(url: url))
        #expect(await cache.query(key, tiers: .shared).tier == .shared)
        #expect(await cache.query(key, tiers: .disk).tier == .disk)

        await cache.clear(.disk)
        #expect(await cache.query(key, tiers: .disk).tier == nil, "the local disk is empty")
        #expect(await cache.query(key, tiers: .shared).tier == .shared, "the fleet's copy is left alone")
        #expect(await cache.query(key, tiers: [.disk, .shared]).tier == .shared, "a shared hit, reported as one")

        await cache.remove(key, from: .shared)
        #expect(await cache.query(key, tiers: .shared).tier == nil)
        #expect(await cache.query(key, tiers: .disk).tier == .disk, "the layered read above filled the disk again")
        await instance.shutdown()
    }
}
