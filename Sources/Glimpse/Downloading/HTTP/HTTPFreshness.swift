import Foundation

/// How long a stored response may be served without asking the origin, and
/// how old it was when it arrived: what RFC 9111 §4.2 asks a cache to keep.
///
/// Kept with the disk entry so that freshness survives a restart; every
/// figure is whole seconds since the Unix epoch.
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
        initialAge + max(0, HTTPDate(now).secondsSince1970 - responseTime)
    }

    /// Whether the stored response may be served at `now` without the network (§4.2).
    public func isFresh(at now: Date) -> Bool { lifetime > age(at: now) }

    /// Freshness of a response received at `responseTime` for a request sent at
    /// `requestTime`, from its `Cache-Control`, `Expires`, `Date`, `Age` and
    /// `Last-Modified` fields (names lowercased).
    ///
    /// The lifetime is `max-age` (§4.2.1), else `Expires − Date`, else the
    /// heuristic of §4.2.2 that browsers use: a tenth of the time since
    /// `Last-Modified`, at most a day; `no-cache` makes it 0. An invalid
    /// `Expires` counts as already expired (§5.3).
    init(headers: [String: String], requestTime: Date, responseTime: Date) {
        let control = CacheControl(parsing: headers["cache-control"] ?? "")
        let received = HTTPDate(responseTime).secondsSince1970
        let sent = min(HTTPDate(requestTime).secondsSince1970, received)
        // A missing or unparsable Date is replaced by the time of receipt (RFC 9110 §6.6.1).
        let date = headers["date"].flatMap { HTTPDate(parsing: $0) }?.secondsSince1970 ?? received
        let ageValue = headers["age"].flatMap { CacheControl.deltaSeconds($0.trimmingSpaces()) } ?? 0
        let apparentAge = max(0, received - date)
        let correctedAgeValue = ageValue + (received - sent)
        initialAge = max(apparentAge, correctedAgeValue)
        self.responseTime = received

        if control.noCache {
            lifetime = 0
        } else if let maxAge = control.maxAge {
            lifetime = maxAge
        } else if let expires = headers["expires"] {
            lifetime = HTTPDate(parsing: expires).map { max(0, $0.secondsSince1970 - date) } ?? 0
        } else if let modified = headers["last-modified"].flatMap({ HTTPDate(parsing: $0) }),
                  modified.secondsSince1970 < date {
            lifetime = min((date - modified.secondsSince1970) / 10, 86_400)
        } else {
            lifetime = 0
        }
        mustRevalidate = control.mustRevalidate || control.noCache
    }
}
