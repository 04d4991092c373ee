import GlimpseCache
import Synchronization

/// URLs that failed permanently, remembered for a time-to-live so that they
/// fail fast without touching the network (SDWebImage's failed-URL set, with
/// an expiry instead of forever).
final class FailedURLCache: Sendable {
    private let timeToLive: Duration
    private let clock: CacheClock
    /// Expiry time by URL key.
    private let entries = Mutex<[String: Duration]>([:])
    /// Above this many entries an insert first drops the expired ones.
    private let purgeThreshold = 4096

    init(timeToLive: Duration, clock: CacheClock) {
        self.timeToLive = timeToLive
        self.clock = clock
    }

    /// Whether `key` failed within the time-to-live; forgets it once expired.
    func contains(_ key: String) -> Bool {
        let now = clock.now()
        return entries.withLock { entries in
            guard let expiry = entries[key] else { return false }
            if expiry > now { return true }
            entries[key] = nil
            return false
        }
    }

    func insert(_ key: String) {
        guard timeToLive > .zero else { return }
        let now = clock.now()
        entries.withLock { entries in
            if entries.count >= purgeThreshold { entries = entries.filter { $0.value > now } }
            entries[key] = now + timeToLive
        }
    }

    func remove(_ key: String) {
        _ = entries.withLock { $0.removeValue(forKey: key) }
    }

    func removeAll() {
        entries.withLock { $0.removeAll() }
    }
}
