import Glimpse

extension RedisDataTier {
    /// The fleet's claim on fetching `key` from the origin (the pipeline asks after a miss in
    /// every tier): `SET <ns>l:<key> token NX PX` ``Configuration/lockTimeToLive``, pipelined
    /// with an `EXISTS` of the awaited entries, in one round trip.
    ///
    /// - The lock taken and no entry there: ``ImageDataFetchCoordination/claimed(_:)``; the
    ///   lock expires by itself if this process dies holding it.
    /// - An entry there (stored between the pipeline's read and this call): the lock, if taken,
    ///   is given back, and the answer is ``ImageDataFetchCoordination/stored``.
    /// - Another process holds the lock: polls (`EXISTS` of the entries and of the lock,
    ///   pipelined) from ``Configuration/lockPollInterval``, doubling up to
    ///   ``Configuration/maximumLockPollInterval``, for at most ``Configuration/lockWait``:
    ///   ``ImageDataFetchCoordination/stored`` when an entry appears,
    ///   ``ImageDataFetchCoordination/uncoordinated`` (fetch yourself) when the lock goes
    ///   without one (its holder's fetch failed, or was not storable, or it died and the lock
    ///   expired) or the wait runs out.
    /// - Redis unavailable (down, slow, breaker open): ``ImageDataFetchCoordination/uncoordinated``
    ///   at once, after at most one command timeout.
    ///
    /// Every wait suspends (`Task.sleep`, NIO futures); cancelling the caller ends it.
    public func claimFetch(forKey key: String, awaiting keys: [String]) async -> ImageDataFetchCoordination {
        let awaited = keys.isEmpty ? [key] : keys
        let claim = ImageDataFetchClaim(key: lockKey(key), token: Self.lockToken())
        let set = RESP.Command("SET", claim.key, claim.token, "NX", "PX", configuration.lockTimeToLive.redisMilliseconds)
        let exists = existsCommands(awaited)
        guard let replies = try? await send([set] + exists, .claim), replies.count == 1 + exists.count else {
            instruments.claimEnded(.unavailable, waited: nil)
            return .uncoordinated
        }
        let taken: Bool
        switch replies[0].withoutAttributes {
        case .simpleString: taken = true
        case .null: taken = false
        default:  // an error reply (a read-only replica, an ACL): no coordination
            instruments.claimEnded(.unavailable, waited: nil)
            return .uncoordinated
        }
        if Self.anyExists(replies.dropFirst()) {
            if taken { releaseInBackground(claim) }
            instruments.claimEnded(.stored, waited: nil)
            return .stored
        }
        if taken {
            instruments.claimEnded(.claimed, waited: nil)
            return .claimed(claim)
        }
        let clock = ContinuousClock()
        let start = clock.now
        let result = await waitForStored(awaited, lockKey: claim.key)
        instruments.claimEnded(result, waited: clock.now - start)
        return result == .waitedStored ? .stored : .uncoordinated
    }

    /// Queues the compare-and-delete of `claim` after every write queued before it (the holder's
    /// entries), so that a waiter that sees the lock gone finds the entry. Returns at once.
    public func releaseFetchClaim(_ claim: ImageDataFetchClaim) async {
        releaseInBackground(claim)
    }

    private func waitForStored(_ keys: [String], lockKey: String) async -> ClaimResult {
        let clock = ContinuousClock()
        let deadline = clock.now + configuration.lockWait
        let commands = existsCommands(keys) + [RESP.Command("EXISTS", lockKey)]
        var interval = configuration.lockPollInterval
        while clock.now < deadline {
            do {
                try await Task.sleep(for: min(interval, deadline - clock.now))
            } catch {
                return .waitExpired  // cancelled: the caller goes on without coordination
            }
            interval = min(interval * 2, max(configuration.maximumLockPollInterval, configuration.lockPollInterval))
            guard let replies = try? await send(commands, .claim), replies.count == commands.count,
                  let lock = replies.last else {
                return .unavailable
            }
            if Self.anyExists(replies.dropLast()) { return .waitedStored }
            if lock.withoutAttributes == .integer(0) { return .lockReleased }
        }
        return .waitExpired
    }

    /// One `EXISTS` per entry key, pipelined in the same round trip: a multi-key `EXISTS` fails
    /// with CROSSSLOT where keys of different hash slots meet (a cluster behind a proxy).
    private func existsCommands(_ keys: [String]) -> [RESP.Command] {
        keys.map { RESP.Command("EXISTS", entryKey($0)) }
    }

    private static func anyExists(_ replies: some Sequence<RESP.Value>) -> Bool {
        replies.contains { reply in
            if case .integer(let count) = reply.withoutAttributes { return count > 0 }
            return false
        }
    }

    /// A random token (128 bits, hex) that proves a lock is this holder's.
    static func lockToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in String(generator.next() as UInt64, radix: 16) }.joined(separator: "-")
    }

    /// Deletes the lock only if it still holds `token`, atomically (a lock that expired and was
    /// taken by another process is left alone).
    static func releaseCommand(key: String, token: String) -> RESP.Command {
        RESP.Command("EVAL", releaseScript, 1, key, token)
    }

    private static let releaseScript =
        "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end"
}
