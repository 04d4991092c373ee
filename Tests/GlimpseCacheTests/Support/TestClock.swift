import GlimpseCache
import Synchronization

/// A clock that only moves when a test says so.
final class TestClock: Sendable {
    private let time: Lock<Duration>

    init(start: Duration = .seconds(1_000_000)) {
        time = Lock(start)
    }

    func advance(by duration: Duration) {
        time.withLock { $0 += duration }
    }

    var cacheClock: CacheClock {
        CacheClock { [self] in time.withLock { $0 } }
    }
}
