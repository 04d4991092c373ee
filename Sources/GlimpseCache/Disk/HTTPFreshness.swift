import Foundation

/// How long a stored response may be served without asking the origin, and
/// how old it was when it arrived: what RFC 9111 §4.2 asks a cache to keep.
///
/// Kept in a disk entry's ``DiskCache/Metadata`` so that freshness survives a
/// restart; every figure is whole seconds since the Unix epoch.
public struct HTTPFreshness: Sendable, Hashable, Codable {
    /// When the response arrived (`response_time`, §4.2.3).
    public var responseTime: Int64
    /// The response's age when it arrived (`corrected_initial_age`, §4.2.3).
    public var initialAge: Int64
    /// How long it stays fresh from its generation (§4.2.1); 0 when it must be
    /// revalidated every time.
    public var lifetime: Int64
    /// Whether a stale copy must never be served, even when the origin cannot
    /// be reached (`must-revalidate`, §5.2.2.2; `no-cache` always revalidates).
    public var mustRevalidate: Bool

    public init(responseTime: Int64, initialAge: Int64, lifetime: Int64, mustRevalidate: Bool) {
        self.responseTime = responseTime
        self.initialAge = initialAge
        self.lifetime = lifetime
        self.mustRevalidate = mustRevalidate
    }

    /// The response's age at `now` (`current_age`, §4.2.3).
    public func age(at now: Date) -> Int64 {
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        return initialAge.addingReportingOverflow(max(0, seconds &- responseTime)).partialValue
    }

    /// Whether the stored response may be served at `now` without the network (§4.2).
    public func isFresh(at now: Date) -> Bool { lifetime > age(at: now) }

    /// The time left before the response goes stale at `now` (zero or less when stale).
    public func remainingLifetime(at now: Date) -> Int64 { lifetime &- age(at: now) }
}
