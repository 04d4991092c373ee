import Foundation

/// The time source the caches consult for expiry, injected so tests can move time by hand.
///
/// `now` returns a point in time as a `Duration` since the clock's own epoch; only
/// differences and comparisons between readings of the same clock matter.
public struct CacheClock: Sendable {
    public var now: @Sendable () -> Duration

    public init(now: @escaping @Sendable () -> Duration) {
        self.now = now
    }

    /// Monotonic time (never jumps with wall-clock changes): the memory cache's default.
    public static let monotonic: CacheClock = {
        let epoch = ContinuousClock.now
        return CacheClock { ContinuousClock.now - epoch }
    }()

    /// Wall-clock time since 1970: the disk cache's default, because its timestamps outlive
    /// the process and are compared across processes.
    public static let wall = CacheClock {
        let seconds = Date().timeIntervalSince1970
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }
}
