import Foundation
import GlimpseCache

extension HTTPFreshness {
    /// Freshness of a response received at `responseTime` for a request sent at
    /// `requestTime`, from its `Cache-Control`, `Expires`, `Date`, `Age` and
    /// `Last-Modified` fields (names lowercased).
    ///
    /// The lifetime is `max-age` (§4.2.1), else `Expires − Date`, else the
    /// heuristic of §4.2.2 that browsers use: a tenth of the time since
    /// `Last-Modified`, at most a day; `no-cache` makes it 0. An invalid
    /// `Expires` counts as already expired (§5.3).
    init(headers: [String: String], requestTime: Date, responseTime: Date) {
        let initialAge: Int64
        let lifetime: Int64
        let control = CacheControl(parsing: headers["cache-control"] ?? "")
        let received = HTTPDate(responseTime).secondsSince1970
        let sent = min(HTTPDate(requestTime).secondsSince1970, received)
        // A missing or unparsable Date is replaced by the time of receipt (RFC 9110 §6.6.1).
        let date = headers["date"].flatMap { HTTPDate(parsing: $0) }?.secondsSince1970 ?? received
        let ageValue = headers["age"].flatMap { CacheControl.deltaSeconds($0.trimmingSpaces()) } ?? 0
        let apparentAge = max(0, received - date)
        let correctedAgeValue = ageValue + (received - sent)
        initialAge = max(apparentAge, correctedAgeValue)

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
        self.init(responseTime: received, initialAge: initialAge, lifetime: lifetime,
                  mustRevalidate: control.mustRevalidate || control.noCache)
    }

    /// The freshness of a stored response after a 304 (RFC 9111 §4.3.4): the
    /// 304's fields replace the stored ones. A 304 that repeats neither
    /// `Cache-Control` nor `Expires` keeps the stored lifetime and
    /// `must-revalidate`, with the age its `Date` and `Age` give.
    init(refreshing stored: HTTPFreshness?, headers: [String: String], requestTime: Date, responseTime: Date) {
        let fresh = HTTPFreshness(headers: headers, requestTime: requestTime, responseTime: responseTime)
        guard let stored, headers["cache-control"] == nil, headers["expires"] == nil else {
            self = fresh
            return
        }
        self.init(responseTime: fresh.responseTime, initialAge: fresh.initialAge, lifetime: stored.lifetime,
                  mustRevalidate: stored.mustRevalidate)
    }
}
