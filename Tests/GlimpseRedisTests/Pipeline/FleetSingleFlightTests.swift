import Foundation
import Glimpse
import GlimpseCache
import GlimpseRedis
import LoopbackHTTPServer
import TestSupport
import Testing

/// The pipeline's fetch claim (single flight across processes) against a real redis-server:
/// instances with separate disk folders, sharing one Redis, asking for the same cold URL.
@Suite("Single flight across a fleet's pipelines", .enabled(if: RedisServer.isAvailable))
struct FleetSingleFlightTests {
    struct Instance {
        let pipeline: ImagePipeline
        let redis: RedisDataTier
        let directory: URL

        init(redis configuration: RedisClient.Configuration, tier: RedisDataTier.Configuration) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-fleet-\(UUID().uuidString)")
            let disk = try DiskCache(configuration: DiskCache.Configuration(directory: directory))
            redis = RedisDataTier(client: RedisClient(configuration: configuration), configuration: tier)
            let cache = ImageCache(memory: MemoryCache(configuration: .images()),
                                   data: LayeredDataTier(local: DiskDataTier(disk), shared: redis))
            pipeline = ImagePipeline(configuration: .init(downloader: ImageDownloader(), cache: cache))
        }

        func shutdown() async {
            await pipeline.configuration.cache.fetchClaimsReleased()
            await redis.waitForBackgroundWrites()
            await redis.client.shutdown()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// A PNG whose body arrives in two chunks `delay` apart: the first load still holds the
    /// claim when the second asks.
    static func slowRoute(_ delay: Duration) throws -> LoopbackHTTPServer.Route {
        let bytes = try Fixtures.bytes("png/ct6-d08-seq.png")
        let half = bytes.count / 2
        return .fixed(.init(headers: [("Content-Type", "image/png")],
                            body: .chunked([Array(bytes[..<half]), Array(bytes[half...])], delay: delay)))
    }

    @Test("Two pipelines with separate disks load one cold URL at once: one origin request, the other served from Redis")
    func twoPipelinesOneRequest() async throws {
        let server = try await RedisServer()
        defer { server.stop() }
        let origin = try LoopbackHTTPServer()
        defer { origin.shutdown() }
        origin.setRoute("/a.png", try Self.slowRoute(.milliseconds(300)))
        let url = origin.url("/a.png")
        // A long wait: the count must be exact however long a loaded machine stalls the holder;
        // the waiter returns as soon as the holder's entry is in Redis.
        let tier = RedisDataTier.Configuration(lockTimeToLive: .seconds(120), lockWait: .seconds(60))
        let instances = try (0..<2).map { _ in try Instance(redis: server.configuration, tier: tier) }
        let results = try await withThrowingTaskGroup(of: ImageResult.self) { group in
            for instance in instances { group.addTask { try await instance.pipeline.load(url) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(origin.requests.count == 1, "one origin request for the fleet")
        #expect(results.map(\.tier).sorted { $0.rawValue < $1.rawValue } == [.network, .shared])
        #expect(results.allSatisfy { $0.image.width == 33 })
        for instance in instances { await instance.shutdown() }
        let locks = try await RedisClient(configuration: server.configuration).send(RESP.Command("KEYS", "glimpse:l:*"))
        #expect(locks == .array([]), "the holder released its lock")
    }

    @Test("A lock whose holder never writes: the waiter fetches itself after the bound, or once the lock expires")
    func abandonedLock() async throws {
        let server = try await RedisServer()
        defer { server.stop() }
        let origin = try LoopbackHTTPServer()
        defer { origin.shutdown() }
        let image = try Fixtures.bytes("png/ct6-d08-seq.png")
        origin.setRoute("/held.png", .fixed(.ok(image, contentType: "image/png")))
        origin.setRoute("/expiring.png", .fixed(.ok(image, contentType: "image/png")))
        let client = RedisClient(configuration: server.configuration)

        // A "dead" holder whose lock outlives the wait: the waiter gives up after lockWait.
        let waitsShortly = RedisDataTier(client: client, configuration: .init(lockTimeToLive: .seconds(120), lockWait: .milliseconds(200)))
        let held = try #require(await waitsShortly.lock(forKey: origin.url("/held.png").absoluteString))
        let instance = try Instance(redis: server.configuration, tier: waitsShortly.configuration)
        let first = try await instance.pipeline.load(origin.url("/held.png"))
        #expect(first.tier == .network && first.image.width == 33)
        #expect(origin.requests.count == 1)
        #expect(try await client.send(RESP.Command("GET", held.key)) == .bulkString(Array(held.token.utf8)),
                "the waiter never releases a lock that is not its own")

        // A dead holder's lock that expires first (PX): the waiter sees it go and fetches.
        let expires = RedisDataTier(client: client, configuration: .init(lockTimeToLive: .milliseconds(300), lockWait: .seconds(60)))
        let abandoned = try #require(await expires.lock(forKey: origin.url("/expiring.png").absoluteString))
        guard case .integer(let milliseconds) = try await client.send(RESP.Command("PTTL", abandoned.key)) else {
            Issue.record("the lock has no expiry")
            return
        }
        #expect(milliseconds <= 300, "PX set (-2 when a loaded machine let it expire already)")
        let patient = try Instance(redis: server.configuration, tier: expires.configuration)
        let second = try await patient.pipeline.load(origin.url("/expiring.png"))
        #expect(second.tier == .network && second.image.width == 33)
        #expect(origin.requests.count == 2)
        await instance.shutdown()
        await patient.shutdown()
        await client.shutdown()
    }

    @Test("A waiter gets the holder's entry: loadData (the prefetcher's) answers shared, with no origin request")
    func waiterGetsTheHoldersEntry() async throws {
        let server = try await RedisServer()
        defer { server.stop() }
        let origin = try LoopbackHTTPServer()
        defer { origin.shutdown() }
        let image = try Fixtures.bytes("png/ct6-d08-seq.png")
        origin.setRoute("/a.png", .fixed(.ok(image, contentType: "image/png")))
        let url = origin.url("/a.png")
        let configuration = RedisDataTier.Configuration(lockTimeToLive: .seconds(120), lockWait: .seconds(60))
        let instance = try Instance(redis: server.configuration, tier: configuration)
        // Another process holds the claim…
        let holder = RedisDataTier(client: RedisClient(configuration: server.configuration), configuration: configuration)
        let held = try #require(await holder.lock(forKey: url.absoluteString))
        let waiter = Task { try await instance.pipeline.loadData(url) }
        // …until its entry is written and its lock released (the waiter may not have asked yet:
        // then it finds the entry at once).
        try await Task.sleep(for: .milliseconds(200))
        #expect(await holder.write(ImageDataEntry(key: url.absoluteString, data: image,
                                                  metadata: ImageDataMetadata(contentType: "image/png"))))
        await holder.release(held)
        let tier = try await waiter.value
        #expect(tier == .shared || tier == .disk, "served by the holder's entry, not the origin: \(tier)")
        #expect(origin.requests.isEmpty)
        #expect(try await instance.pipeline.load(url).tier == .shared, "the entry is in Redis for loads too")
        await instance.shutdown()
        await holder.client.shutdown()
    }

    @Test("A claim taken after the entry appeared is given back and the entry read: no second origin request")
    func claimAfterStore() async throws {
        let server = try await RedisServer()
        defer { server.stop() }
        let client = RedisClient(configuration: server.configuration)
        let tier = RedisDataTier(client: client)
        #expect(await tier.claimFetch(forKey: "k", awaiting: ["k"]) != .stored)
        #expect(await tier.write(ImageDataEntry(key: "k", data: [1, 2, 3])))
        #expect(await tier.claimFetch(forKey: "k", awaiting: ["variant", "k"]) == .stored, "awaited entry present")
        await tier.waitForBackgroundWrites()
        guard case .claimed(let claim) = await tier.claimFetch(forKey: "other", awaiting: ["other"]) else {
            Issue.record("a cold key is claimed")
            return
        }
        #expect(try await client.send(RESP.Command("EXISTS", claim.key)) == .integer(1))
        await tier.releaseFetchClaim(claim)
        await tier.waitForBackgroundWrites()
        #expect(try await client.send(RESP.Command("EXISTS", claim.key)) == .integer(0))
        await client.shutdown()

        // Redis gone: no coordination, at once.
        server.kill()
        let down = RedisDataTier(client: RedisClient(configuration: server.configuration))
        #expect(await down.claimFetch(forKey: "k", awaiting: ["k"]) == .uncoordinated)
        await down.client.shutdown()
    }
}
