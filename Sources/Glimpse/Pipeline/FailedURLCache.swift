import GlimpseCache
import Synchronization

/// URLs that failed permanently, remembered for a time-to-live so that they
/// fail fast without touching the network (SDWebImage's failed-URL set, with
/// an expiry instead of forever).
final class FailedURLCache: Sendable {
    private let timeToLive: Duration
    private let clock: CacheClock
    private struct Entry {
        var expiry: Duration
        /// Why the URL failed, handed out with each fail-fast answer.
        var reason: ImageLoadError
    }

    /// Expiry time and reason by URL key.
    private let entries = Lock<[String: Entry]>([:])
    /// Above this many entries an insert first drops the expired ones.
    private let purgeThreshold = 4096

    init(timeToLive: Duration, clock: CacheClock) {
        self.timeToLive = timeToLive
        self.clock = clock
    }

    /// Why `key` failed, if it did within the time-to-live; forgets it once expired.
    func failure(_ key: String) -> ImageLoadError? {
        let now = clock.now()
        return entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            if entry.expiry > now { return entry.reason }
            entries[key] = nil
            return nil
        }
    }

    func insert(_ key: String, reason: ImageLoadError) {
        guard timeToLive > .zero else { return }
        let now = clock.now()
        entries.withLock { entries in
            if entries.count >= purgeThreshold { entries = entries.filter { $0.value.expiry > now } }
            entries[key] = Entry(expiry: now + timeToLive, reason: reason)
        }
    }

    /// Forgets `url` and every entry of it kept apart by request header fields.
    func removeAll(for url: String) {
        let prefix = url + ImageCacheKey.separator
        entries.withLock { entries in
            entries[url] = nil
            for key in entries.keys where key.hasPrefix(prefix) { entries[key] = nil }
        }
    }

    func remove(_ key: String) {
        _ = entries.withLock { $0.removeValue(forKey: key) }
    }

    func removeAll() {
        entries.withLock { $0.removeAll() }
    }
}
