import CoreMetrics
import Glimpse
import GlimpseCache
import Logging

/// The shared data tier: encoded bytes and metadata by key, in Redis, for every process of a
/// fleet; an ``ImageDataCaching`` tier, usually behind the local disk in a ``LayeredDataTier``.
///
/// Each entry is one Redis string (header, checksum, metadata, data), so a read is one `GET`,
/// written with `SET … PX` so it expires after ``Configuration/timeToLive``. A value that does
/// not decode for its key — corrupt, truncated, foreign — is a miss. A failure of Redis (down,
/// slow, refusing the password, breaker open) is an ``ImageDataTierError`` from a read, which
/// the pipeline counts (`glimpse_cache_errors_total`) and answers as a miss, going on to the
/// origin; a write left undone costs only a later origin request. ``store(_:)`` (the pipeline's writes) only
/// queues: one background task sends the queued entries in order, pipelined, so Redis latency
/// is never on a caller's path. ``claimFetch(forKey:awaiting:)`` gives the pipeline single
/// flight across processes (a `SET … NX PX` lock; `RedisDataTier+FetchClaims.swift`), and
/// ``entry(forKey:fetchingWith:)`` the same to code that fetches by itself.
public final class RedisDataTier: ImageDataCaching {
    public let client: RedisClient
    public let configuration: Configuration

    /// One background write: an entry to store, or a fetch claim to release after the
    /// entries queued before it.
    private enum Write {
        case store(ImageDataEntry)
        case release(ImageDataFetchClaim)
    }

    private struct WriteQueue {
        var writes: [Write] = []
        var bytes = 0
        /// The writer task, while one runs.
        var writer: Task<Void, Never>?
    }

    private let writes = GlimpseCache.Lock(WriteQueue())
    let instruments: Instruments

    /// A tier on `client`.
    ///
    /// - Parameters:
    ///   - logger: where the tier says that Redis went away and came back (a warning and a
    ///     notice, once per outage), and traces its calls; a no-op logger labelled
    ///     `glimpse.redis` by default.
    ///   - metricsFactory: where the tier's own metrics go (``MetricName``); the global
    ///     `MetricsSystem.factory` as it is when the tier is made, by default.
    public init(client: RedisClient, configuration: Configuration = .init(),
                logger: Logger = Logger(label: "glimpse.redis", factory: { _ in SwiftLogNoOpLogHandler() }),
                metricsFactory: any MetricsFactory = MetricsSystem.factory) {
        self.client = client
        self.configuration = configuration
        instruments = Instruments(logger: logger, factory: metricsFactory)
    }

    /// The Redis key holding the entry for `key`.
    public func entryKey(_ key: String) -> String { configuration.namespace + "e:" + key }
    /// The Redis key holding the fetch lock for `key`.
    public func lockKey(_ key: String) -> String { configuration.namespace + "l:" + key }

    // MARK: ImageDataCaching

    /// The entry stored under `key`, or `nil` (absent, or a value that does not decode for
    /// `key`); throws when Redis does not answer.
    public func entry(forKey key: String) async throws(ImageDataTierError) -> ImageDataEntry? {
        Self.decode(try await send(RESP.Command("GET", entryKey(key)), .read), forKey: key)
    }

    /// Whether Redis holds a value under `key` (`EXISTS`); throws when Redis does not answer.
    public func containsEntry(forKey key: String) async throws(ImageDataTierError) -> Bool {
        try await send(RESP.Command("EXISTS", entryKey(key)), .contains) == .integer(1)
    }

    /// Queues `entries` for the background writer and returns at once: the pipeline never
    /// waits for Redis. Entries beyond ``Configuration/maximumPendingWriteBytes`` queued
    /// are dropped (a write left undone only costs a later origin request).
    public func store(_ entries: [ImageDataEntry]) async {
        for entry in entries { storeInBackground(entry) }
    }

    /// Removes the entry under `key`; throws when Redis does not answer.
    public func removeEntry(forKey key: String) async throws(ImageDataTierError) {
        _ = try await send(RESP.Command("DEL", entryKey(key)), .remove)
    }

    /// Removes every entry and lock under ``Configuration/namespace`` (`SCAN … MATCH` then
    /// `UNLINK`), leaving other users' keys alone; throws when Redis stops answering part-way.
    public func removeAllEntries() async throws(ImageDataTierError) {
        let pattern = Self.globEscaped(configuration.namespace) + "*"
        var cursor = "0"
        repeat {
            let scan = RESP.Command("SCAN", cursor, "MATCH", pattern, "COUNT", 1000)
            guard case .array(let reply) = try await send(scan, .remove).withoutAttributes,
                  reply.count == 2, let next = reply[0].bytes, case .array(let keys) = reply[1].withoutAttributes else { return }
            cursor = String(decoding: next, as: UTF8.self)
            let names = keys.compactMap(\.bytes)
            if !names.isEmpty { _ = try await send(RESP.Command(arguments: [Array("UNLINK".utf8)] + names), .remove) }
        } while cursor != "0"
    }

    /// `commands` pipelined, their replies in order; a failure is counted, logged and thrown
    /// as the tier's error.
    func send(_ commands: [RESP.Command], _ operation: Operation) async throws(ImageDataTierError) -> [RESP.Value] {
        do {
            let replies = try await client.send(commands)
            instruments.reached()
            return replies
        } catch {
            instruments.failed(operation, error)
            throw ImageDataTierError("redis: \(error.reason)")
        }
    }

    func send(_ command: RESP.Command, _ operation: Operation) async throws(ImageDataTierError) -> RESP.Value {
        try await send([command], operation)[0]
    }

    /// Redis keeps no per-process count of the tier's entries.
    public var entryCount: Int { 0 }
    public var totalSize: Int { 0 }

    // MARK: Direct writes

    /// Stores `entry` now, for ``Configuration/timeToLive``; `false` when it is larger than
    /// ``Configuration/entrySizeLimit`` (it stays local) or Redis did not take it.
    @discardableResult
    public func write(_ entry: ImageDataEntry) async -> Bool {
        guard let command = setCommand(entry) else { return false }
        guard case .simpleString = try? await send(command, .write) else { return false }
        return true
    }

    /// Queues `entry` for the background writer, after every entry queued before it;
    /// ``waitForBackgroundWrites()`` awaits it.
    public func storeInBackground(_ entry: ImageDataEntry) {
        let size = entry.data.count + entry.key.utf8.count
        let pending = writes.withLock { queue -> Int? in
            guard queue.bytes == 0 || queue.bytes + size <= configuration.maximumPendingWriteBytes else { return nil }
            queue.writes.append(.store(entry))
            queue.bytes += size
            startWriter(&queue)
            return queue.bytes
        }
        if let pending {
            instruments.pendingWrites(bytes: pending)
        } else {
            instruments.dropped(.queueFull, bytes: size)
        }
    }

    /// Queues the release of `claim` after every write queued before it; never dropped (it is
    /// small, and a lock left behind makes other processes wait it out).
    func releaseInBackground(_ claim: ImageDataFetchClaim) {
        writes.withLock { queue in
            queue.writes.append(.release(claim))
            startWriter(&queue)
        }
    }

    private func startWriter(_ queue: inout WriteQueue) {
        guard queue.writer == nil else { return }
        queue.writer = Task { await self.writeQueued() }
    }

    /// Returns once every background write queued before the call has been sent (or failed).
    public func waitForBackgroundWrites() async {
        while let writer = writes.withLock({ $0.writer }) { await writer.value }
    }

    /// The writer task: takes everything queued and sends it in one pipelined batch, in order
    /// (so a claim's release follows its holder's entries), until the queue is empty.
    private func writeQueued() async {
        while true {
            let batch = writes.withLock { queue -> [Write] in
                defer { queue.writes = []; queue.bytes = 0 }
                if queue.writes.isEmpty { queue.writer = nil }
                return queue.writes
            }
            instruments.pendingWrites(bytes: 0)
            if batch.isEmpty { return }
            let commands = batch.compactMap { write -> RESP.Command? in
                switch write {
                case .store(let entry): setCommand(entry)
                case .release(let claim): Self.releaseCommand(key: claim.key, token: claim.token)
                }
            }
            // A failed batch is counted and logged by `send`; its entries only cost later
            // origin requests, and its locks expire by themselves.
            if !commands.isEmpty { _ = try? await send(commands, .write) }
        }
    }

    private func setCommand(_ entry: ImageDataEntry) -> RESP.Command? {
        let value = entry.redisValue()
        guard value.count <= configuration.entrySizeLimit else {
            instruments.dropped(.tooLarge, bytes: value.count)
            return nil
        }
        return RESP.Command("SET", entryKey(entry.key), value, "PX", configuration.timeToLive.redisMilliseconds)
    }

    static func decode(_ reply: RESP.Value, forKey key: String) -> ImageDataEntry? {
        guard case .bulkString(let bytes) = reply.withoutAttributes else { return nil }
        return ImageDataEntry(redisValue: bytes, forKey: key)
    }

    /// `pattern` with Redis glob's special characters (`* ? [ ] \`) escaped.
    private static func globEscaped(_ pattern: String) -> String {
        var escaped = ""
        for character in pattern {
            if "*?[]\\".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
