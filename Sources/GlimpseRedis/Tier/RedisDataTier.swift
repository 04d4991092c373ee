import GlimpseCache
import Synchronization

/// The shared data tier: encoded bytes and metadata by key, in Redis, for every process of a
/// fleet.
///
/// Each entry is one Redis string (header, checksum, metadata, data), so a read is one `GET`,
/// written with `SET … PX` so it expires after ``Configuration/timeToLive``. A value that does
/// not decode for its key — corrupt, truncated, foreign — is a miss. Every failure of Redis
/// (down, slow, refusing the password, breaker open) is a miss or a write left undone, never
/// an error: the caller goes on to the origin. ``entry(forKey:fetchingWith:)`` adds single
/// flight across processes (see `RedisDataTier+SingleFlight.swift`).
public final class RedisDataTier: Sendable {
    public let client: RedisClient
    public let configuration: Configuration
    private let backgroundWrites = Mutex<(next: Int, tasks: [Int: Task<Void, Never>])>((0, [:]))

    public init(client: RedisClient, configuration: Configuration = .init()) {
        self.client = client
        self.configuration = configuration
    }

    /// The Redis key holding the entry for `key`.
    public func entryKey(_ key: String) -> String { configuration.namespace + "e:" + key }
    /// The Redis key holding the fetch lock for `key`.
    public func lockKey(_ key: String) -> String { configuration.namespace + "l:" + key }

    /// The entry stored under `key`, or `nil` (absent, undecodable, or Redis unavailable).
    public func entry(forKey key: String) async -> Entry? {
        guard let reply = try? await client.send(RESP.Command("GET", entryKey(key))) else { return nil }
        return Self.decode(reply, forKey: key)
    }

    static func decode(_ reply: RESP.Value, forKey key: String) -> Entry? {
        guard case .bulkString(let bytes) = reply.withoutAttributes else { return nil }
        return Entry(decoding: bytes, forKey: key)
    }

    /// Stores `entry` under `key` for ``Configuration/timeToLive``; `false` when it is larger
    /// than ``Configuration/entrySizeLimit`` (it stays local) or Redis did not take it.
    @discardableResult
    public func store(_ entry: Entry, forKey key: String) async -> Bool {
        let value = entry.encoded(forKey: key)
        guard value.count <= configuration.entrySizeLimit else { return false }
        let command = RESP.Command("SET", entryKey(key), value, "PX", configuration.timeToLive.redisMilliseconds)
        guard case .simpleString = try? await client.send(command) else { return false }
        return true
    }

    /// Stores `entry` off the caller's path; ``waitForBackgroundWrites()`` awaits it.
    public func storeInBackground(_ entry: Entry, forKey key: String) {
        backgroundWrites.withLock { state in
            let id = state.next
            state.next += 1
            state.tasks[id] = Task {
                await self.store(entry, forKey: key)
                _ = self.backgroundWrites.withLock { $0.tasks.removeValue(forKey: id) }
            }
        }
    }

    /// Returns once every background write started before the call has finished.
    public func waitForBackgroundWrites() async {
        let tasks = backgroundWrites.withLock { Array($0.tasks.values) }
        for task in tasks { await task.value }
    }

    /// Removes the entry under `key` (if Redis is reachable).
    public func remove(forKey key: String) async {
        _ = try? await client.send(RESP.Command("DEL", entryKey(key)))
    }
}
