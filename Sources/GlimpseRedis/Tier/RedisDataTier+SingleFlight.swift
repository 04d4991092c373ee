import Glimpse

extension RedisDataTier {
    /// A fetch lock held in Redis: its key and the random token that proves it is ours; the
    /// same value the pipeline's claims carry (``claimFetch(forKey:awaiting:)``).
    public typealias Lock = ImageDataFetchClaim

    /// Where ``entry(forKey:fetchingWith:)``'s entry came from.
    public enum Source: String, Sendable, Equatable {
        /// Another process had stored it (before the call or while this one waited).
        case shared
        /// This process fetched it (holding the lock, or after waiting in vain, or with Redis down).
        case fetched
    }

    /// Takes the fetch lock for `key` (`SET lock token NX PX ttl`): `nil` when another process
    /// holds it, or Redis is unavailable. It expires after ``Configuration/lockTimeToLive``
    /// even if this process dies holding it.
    public func lock(forKey key: String) async -> Lock? {
        let lock = Lock(key: lockKey(key), token: Self.lockToken())
        let command = RESP.Command("SET", lock.key, lock.token, "NX", "PX", configuration.lockTimeToLive.redisMilliseconds)
        guard case .simpleString = try? await send(command, .claim) else { return nil }
        return lock
    }

    /// Deletes `lock` only if it still holds our token, in one atomic script (a lock that
    /// expired and was taken by another process is left alone).
    public func release(_ lock: Lock) async {
        _ = try? await send(Self.releaseCommand(key: lock.key, token: lock.token), .claim)
    }

    /// Polls for the entry while another process holds the lock: the entry when it appears,
    /// `nil` when the lock is released or expires without one, or ``Configuration/lockWait`` passes.
    public func waitForEntry(forKey key: String) async -> ImageDataEntry? {
        let clock = ContinuousClock()
        let deadline = clock.now + configuration.lockWait
        while clock.now < deadline {
            try? await Task.sleep(for: configuration.lockPollInterval)
            let commands = [RESP.Command("GET", entryKey(key)), RESP.Command("EXISTS", lockKey(key))]
            guard let replies = try? await send(commands, .claim) else { return nil }
            if let entry = Self.decode(replies[0], forKey: key) { return entry }
            if replies[1] == .integer(0) { return nil }
        }
        return nil
    }

    /// The entry under `key`, fetched at most once across processes: a hit is returned; on a
    /// miss the process that takes the lock runs `fetch`, stores the result and releases the
    /// lock, while the others wait for the stored value (up to ``Configuration/lockWait``) and
    /// run `fetch` themselves only if it does not come. `fetch` returns the entry for `key`. With Redis unavailable every caller
    /// fetches. Entries above the size limit are returned but not stored.
    public func entry(
        forKey key: String, fetchingWith fetch: @Sendable () async throws -> ImageDataEntry
    ) async throws -> (entry: ImageDataEntry, source: Source) {
        if let entry = try? await entry(forKey: key) { return (entry, .shared) }
        if let lock = await lock(forKey: key) {
            do {
                let entry = try await fetch()
                // Stored before the lock goes, so that waiters find it.
                await write(entry)
                await release(lock)
                return (entry, .fetched)
            } catch {
                await release(lock)
                throw error
            }
        }
        if let entry = await waitForEntry(forKey: key) { return (entry, .shared) }
        return (try await fetch(), .fetched)
    }
}
