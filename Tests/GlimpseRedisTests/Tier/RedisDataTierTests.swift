import Glimpse
import GlimpseCache
import GlimpseRedis
import Synchronization
import Testing

@Suite("Redis data tier against redis-server", .enabled(if: RedisServer.isAvailable))
struct RedisDataTierTests {
    static let metadata = ImageDataMetadata(etag: "\"v1\"", contentType: "image/jpeg", originalURL: "https://example.invalid/a.jpg",
                                            sourceFormat: .webp)

    static func entry(_ count: Int, seed: Int = 1, key: String = "a") -> ImageDataEntry {
        .init(key: key, data: (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ seed) }, metadata: metadata)
    }

    @Test("An entry and its metadata round-trip in one key, with the default 7-day TTL")
    func roundTripAndTTL() async throws {
        let server = try await RedisServer()
        defer { server.stop() }
        let client = RedisClient(configuration: server.configuration)
        let tier = RedisDataTier(client: client)
        let entry = Self.entry(50_000)
        #expect(try await tier.entry(forKey: "a") == nil)
        #expect(await tier.write(entry))
        #expect(try await tier.entry(forKey: "a")?.unstamped == entry)
        #expect(try await tier.entry(forKey: "a")?.tier == .shared)
        #expect(try await tier.entry(forKey: "a")?.metadata.storedDate != nil)
        guard case .integer(let milliseconds) = try await client.send(RESP.Command("PTTL", tier.entryKey("a"))) else {
            Issue.record("no TTL")
            return
        }
        #expect(milliseconds > 7 * 86_400_000 - 60_000 && milliseconds <= 7 * 86_400_000)
        #expect(try await client.send(RESP.Command("KEYS", "*")) == .array([.bulkString(Array("glimpse:e:a".utf8))]))
        tier.storeInBackground(Self.entry(10, seed: 2, key: "b"))
        await tier.waitForBackgroundWrites()
        #expect(try await tier.entry(forKey: "b")?.unstamped == Self.entry(10, seed: 2, key: "b"))
        try await tier.removeEntry(forKey: "a")
        #expect(try await tier.entry(forKey: "a") == nil)
        await client.shutdown()
    }

    @Test("Values corrupted, truncated or moved by hand are misses")
    func corruption() async throws {
        let server = try await RedisServer()
        defer { server.stop() }
        let client = RedisClient(configuration: server.configuration)
        let tier = RedisDataTier(client: client)
        let entry = Self.entry(20_000, key: "k")
        #expect(await tier.write(entry))
        let stored = try #require(try await client.send(RESP.Command("GET", tier.entryKey("k"))).bytes)

        _ = try await client.send(RESP.Command("SET", tier.entryKey("garbage"), "not an entry at all"))
        #expect(try await tier.entry(forKey: "garbage") == nil)
        _ = try await client.send(RESP.Command("SET", tier.entryKey("truncated"), Array(stored.prefix(stored.count / 2))))
        #expect(try await tier.entry(forKey: "truncated") == nil)
        var flipped = stored
        flipped[stored.count - 5_000] ^= 0x10
        _ = try await client.send(RESP.Command("SET", tier.entryKey("flipped"), flipped))
        #expect(try await tier.entry(forKey: "flipped") == nil)
        _ = try await client.send(RESP.Command("SET", tier.entryKey("moved"), stored))
        #expect(try await tier.entry(forKey: "moved") == nil, "the key is in the checksum")
        _ = try await client.send(RESP.Command("RPUSH", tier.entryKey("list"), "x"))
        #expect(try await tier.entry(forKey: "list") == nil, "a WRONGTYPE error is a miss")
        #expect(try await tier.entry(forKey: "k")?.unstamped == entry)
        await client.shutdown()
    }

    @Test("An entry above the size limit (4 MiB) is not stored")
    func sizeLimit() async throws {
        let server = try await RedisServer()
        defer { server.stop() }
        let client = RedisClient(configuration: server.configuration)
        let tier = RedisDataTier(client: client)
        #expect(tier.configuration.entrySizeLimit == 4 << 20)
        #expect(await !tier.write(Self.entry(4 << 20, key: "big")))
        #expect(try await client.send(RESP.Command("EXISTS", tier.entryKey("big"))) == .integer(0))
        let justUnder = Self.entry((4 << 20) - 1024, key: "under")
        #expect(await tier.write(justUnder))
        #expect(try await tier.entry(forKey: "under")?.unstamped == justUnder)
        await client.shutdown()
    }

    @Test("A wrong password skips the tier: reads fail as the tier's errors, no stores, the origin still serves")
    func wrongPassword() async throws {
        let server = try await RedisServer(arguments: ["--requirepass", "right"])
        defer { server.stop() }
        var configuration = server.configuration
        configuration.password = "wrong"
        let client = RedisClient(configuration: configuration)
        let tier = RedisDataTier(client: client)
        await #expect(throws: ImageDataTierError.self) { try await tier.entry(forKey: "a") }
        #expect(await !tier.write(Self.entry(10, key: "a")))
        let (entry, source) = try await tier.entry(forKey: "a") { Self.entry(10) }
        #expect(entry == Self.entry(10) && source == .fetched)
        #expect(client.breakerState == .open)
        await client.shutdown()
    }

    @Test("Redis killed mid-run: reads fail at once, the breaker opens, and closes when Redis is back")
    func outageAndRecovery() async throws {
        let server = try await RedisServer()
        defer { server.stop() }
        // Timeouts far longer than the test: a miss that waited for one would show.
        var configuration = server.configuration
        configuration.commandTimeout = .seconds(30)
        configuration.connectTimeout = .seconds(30)
        let client = RedisClient(configuration: configuration)
        let tier = RedisDataTier(client: client)
        #expect(await tier.write(Self.entry(100, key: "a")))
        server.kill()
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<10 { await #expect(throws: ImageDataTierError.self) { try await tier.entry(forKey: "a") } }
        // Refused connects, then the open breaker: not one timeout waited for (even on a loaded
        // machine whose cooperative pool is busy with other suites).
        #expect(clock.now - start < .seconds(30), "ten misses with Redis down: \(clock.now - start)")
        #expect(client.breakerState == .open)
        let (entry, source) = try await tier.entry(forKey: "a") { Self.entry(100) }
        #expect(entry == Self.entry(100) && source == .fetched)

        try await server.start()  // empty again: no persistence
        var closed = false
        for _ in 0..<300 where !closed {
            try await Task.sleep(for: .milliseconds(10))
            closed = client.breakerState == .closed(failures: 0)
        }
        #expect(closed, "the background probe closes the breaker")
        #expect(await tier.write(Self.entry(100, key: "a")))
        #expect(try await tier.entry(forKey: "a")?.unstamped == Self.entry(100))
        await client.shutdown()
    }

    @Test("Single flight across clients: four clients, sixteen keys, sixteen fetches")
    func singleFlight() async throws {
        let server = try await RedisServer()
        defer { server.stop() }
        let clients = (0..<4).map { _ in RedisClient(configuration: server.configuration) }
        // Long lock and wait, so that the count is exact even when other suites stall these
        // tasks for seconds; waiters return as soon as the value is stored.
        let tiers = clients.map { RedisDataTier(client: $0, configuration: .init(lockTimeToLive: .seconds(120), lockWait: .seconds(60))) }
        let fetches = Tally<String>()
        let sources = Tally<RedisDataTier.Source>()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for tier in tiers {
                for index in 0..<16 {
                    group.addTask {
                        let key = "image-\(index)"
                        let (entry, source) = try await tier.entry(forKey: key) {
                            fetches.add(key)
                            try await Task.sleep(for: .milliseconds(100))  // the origin is slow
                            return Self.entry(2_000, seed: index, key: key)
                        }
                        #expect(entry.unstamped == Self.entry(2_000, seed: index, key: key))
                        sources.add(source)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(fetches.counts == Dictionary(uniqueKeysWithValues: (0..<16).map { ("image-\($0)", 1) }))
        #expect(sources.counts == [.fetched: 16, .shared: 48])
        #expect(try await clients[0].send(RESP.Command("KEYS", "glimpse:l:*")) == .array([]), "every lock released")
        for client in clients { await client.shutdown() }
    }

    @Test("A lock whose holder died expires; a lock is released only by its own token")
    func lockExpiry() async throws {
        let server = try await RedisServer()
        defer { server.stop() }
        let client = RedisClient(configuration: server.configuration)
        // A long lock: other suites can stall this task for seconds on a loaded machine.
        let tier = RedisDataTier(client: client, configuration: .init(lockTimeToLive: .seconds(120), lockWait: .milliseconds(50)))
        let held = try #require(await tier.lock(forKey: "x"))
        #expect(await tier.lock(forKey: "x") == nil)
        await tier.release(RedisDataTier.Lock(key: held.key, token: "someone-else"))
        #expect(await tier.lock(forKey: "x") == nil, "another token does not release it")
        // The holder "dies": waiters give up after lockWait and fetch themselves.
        let (_, source) = try await tier.entry(forKey: "x") { Self.entry(5, key: "x") }
        #expect(source == .fetched)
        await tier.release(held)
        #expect(try await client.send(RESP.Command("EXISTS", held.key)) == .integer(0))

        let short = RedisDataTier(client: client, configuration: .init(lockTimeToLive: .milliseconds(300)))
        let abandoned = try #require(await short.lock(forKey: "y"))
        guard case .integer(let milliseconds) = try await client.send(RESP.Command("PTTL", abandoned.key)) else {
            Issue.record("no PTTL")
            return
        }
        #expect(milliseconds <= 300, "PX set (-2 when a loaded machine let it expire already)")
        var expired = false
        for _ in 0..<200 where !expired {
            try await Task.sleep(for: .milliseconds(20))
            expired = try await client.send(RESP.Command("EXISTS", abandoned.key)) == .integer(0)
        }
        #expect(expired, "the lock expires by itself")
        #expect(await short.lock(forKey: "y") != nil)
        await client.shutdown()
    }
}

/// Counts events from concurrent tasks.
final class Tally<Key: Hashable & Sendable>: Sendable {
    private let state = Mutex<[Key: Int]>([:])
    func add(_ key: Key) { state.withLock { $0[key, default: 0] += 1 } }
    var counts: [Key: Int] { state.withLock { $0 } }
}

extension ImageDataEntry {
    /// The entry as it was stored: without the stored date and tier (`.shared`) a read adds.
    var unstamped: ImageDataEntry {
        var entry = self
        entry.metadata.storedDate = nil
        entry.tier = .disk
        return entry
    }
}
