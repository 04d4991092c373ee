import Glimpse
import GlimpseRedis
import Logging
import MetricsTestKit
import Testing
import TestSupport

/// What an operator sees of the shared tier: an outage logged once when it begins and once when
/// it ends, its failed calls counted by operation, and how fetch claims end.
@Suite("Redis data tier logs and metrics", .enabled(if: RedisServer.isAvailable))
struct RedisDataTierObservabilityTests {
    static func entry(_ key: String) -> ImageDataEntry {
        .init(key: key, data: Array(repeating: 7, count: 1_000), metadata: ImageDataMetadata(contentType: "image/png"))
    }

    @Test("An outage: one warning when it begins, one notice when it ends, every failed call counted")
    func outage() async throws {
        let server = try await RedisServer()
        defer { server.stop() }
        let (records, metrics) = (LogRecords(), TestMetrics())
        let client = RedisClient(configuration: server.configuration)
        let tier = RedisDataTier(client: client, logger: records.logger(), metricsFactory: metrics)
        #expect(try await tier.entry(forKey: "a") == nil)
        server.kill()
        for _ in 0..<5 { await #expect(throws: ImageDataTierError.self) { try await tier.entry(forKey: "a") } }
        await #expect(throws: ImageDataTierError.self) { try await tier.containsEntry(forKey: "a") }
        #expect(metrics.counterTotal(label: RedisDataTier.MetricName.errors, dimensions: [("operation", "read")]) == 5)
        #expect(metrics.counterTotal(label: RedisDataTier.MetricName.errors, dimensions: [("operation", "contains")]) >= 1)

        try await server.start()
        var back = false
        for _ in 0..<300 where !back {
            try await Task.sleep(for: .milliseconds(10))
            back = await (try? tier.containsEntry(forKey: "a")) != nil  // an answer, not a failure
        }
        #expect(back, "reads succeed once Redis is back and the breaker has closed")
        let loud = records.all.filter { $0.level >= .notice }
        #expect(loud.map(\.level) == [.warning, .notice], "\(loud.map(\.message))")
        #expect(loud.first?.metadata["glimpse.operation"] == "read")
        #expect(records.all.allSatisfy { !$0.text.contains("glimpse:e:") }, "no key in any record")
        await client.shutdown()
    }

    @Test("Fetch claims are counted by how they end, and a waiter's wait is timed")
    func claims() async throws {
        let server = try await RedisServer()
        defer { server.stop() }
        let metrics = TestMetrics()
        let clients = [RedisClient(configuration: server.configuration), RedisClient(configuration: server.configuration)]
        let configuration = RedisDataTier.Configuration(lockTimeToLive: .seconds(60), lockWait: .seconds(30))
        let holder = RedisDataTier(client: clients[0], configuration: configuration, metricsFactory: metrics)
        let waiter = RedisDataTier(client: clients[1], configuration: configuration, metricsFactory: metrics)

        guard case .claimed(let claim) = await holder.claimFetch(forKey: "k", awaiting: ["k"]) else {
            Issue.record("the first claim is taken")
            return
        }
        async let waited = waiter.claimFetch(forKey: "k", awaiting: ["k"])
        try await Task.sleep(for: .milliseconds(50))
        await holder.store([Self.entry("k")])
        await holder.releaseFetchClaim(claim)
        #expect(await waited == .stored)
        #expect(await holder.claimFetch(forKey: "k", awaiting: ["k"]) == .stored, "the entry is there at once")

        let count = { (result: String) in
            metrics.counterTotal(label: RedisDataTier.MetricName.fetchClaims, dimensions: [("result", result)])
        }
        #expect([count("claimed"), count("waited_stored"), count("stored")] == [1, 1, 1])
        let wait = try metrics.expectTimer(RedisDataTier.MetricName.claimWaitDuration)
        #expect(wait.values.count == 1)
        for client in clients { await client.shutdown() }
    }

    @Test("Entries above the size limit are counted as dropped writes, not sent")
    func droppedWrites() async throws {
        let server = try await RedisServer()
        defer { server.stop() }
        let metrics = TestMetrics()
        let client = RedisClient(configuration: server.configuration)
        let tier = RedisDataTier(client: client, configuration: .init(entrySizeLimit: 100), metricsFactory: metrics)
        await tier.store([Self.entry("big")])
        await tier.waitForBackgroundWrites()
        #expect(metrics.counterTotal(label: RedisDataTier.MetricName.droppedWrites, dimensions: [("reason", "too_large")]) == 1)
        #expect(try await tier.entry(forKey: "big") == nil)
        await client.shutdown()
    }
}
