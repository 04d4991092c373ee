import Foundation

/// When a failed download is tried again, and after how long.
///
/// Only failures that another attempt can cure are retried: a refused, reset
/// or lost connection, a timeout, and the statuses that say "later"
/// (408, 429, 502, 503, 504; RFC 9110 §15.5.9, RFC 6585 §4, RFC 9110 §15.6).
/// Never after cancellation, never for other client errors, never for a body
/// over the size limit. The wait before retry *n* (1-based) is drawn
/// uniformly from `0 ..< baseDelay × multiplier^(n−1)` ("full jitter"), so
/// that clients which failed together do not come back together; a
/// `Retry-After` field (RFC 9110 §10.2.3) replaces it when the server sends one.
public struct RetryPolicy: Sendable, Hashable {
    /// Retries after the first attempt; 0 turns retrying off.
    public var maximumRetries: Int
    /// The ceiling of the first wait.
    public var baseDelay: Duration
    /// How much the ceiling grows with each retry.
    public var multiplier: Double
    /// The longest `Retry-After` honoured: a server asking for longer gets no
    /// retry, since waiting less than it asked would only be refused again.
    public var maximumRetryAfter: Duration
    /// Statuses that are retried.
    public var retryableStatusCodes: Set<Int>

    public init(maximumRetries: Int = 2, baseDelay: Duration = .milliseconds(500), multiplier: Double = 2,
                maximumRetryAfter: Duration = .seconds(30),
                retryableStatusCodes: Set<Int> = [408, 429, 502, 503, 504]) {
        self.maximumRetries = maximumRetries
        self.baseDelay = baseDelay
        self.multiplier = multiplier
        self.maximumRetryAfter = maximumRetryAfter
        self.retryableStatusCodes = retryableStatusCodes
    }

    /// Two retries with backoff from half a second: the default.
    public static let standard = RetryPolicy()
    /// Every failure is final.
    public static let never = RetryPolicy(maximumRetries: 0)

    /// The wait before retry number `retry` (1-based) after `failure`, or
    /// `nil` when that failure is not retried or retries are used up.
    /// `unitRandom` is a value in `0..<1` (injected so tests are exact).
    func delay(beforeRetry retry: Int, after failure: TransferFailure, now: Date,
               unitRandom: Double) -> Duration? {
        guard retry >= 1, retry <= maximumRetries else { return nil }
        let retryAfter: String?
        switch failure {
        case .connection, .timedOut:
            retryAfter = nil
        case .status(let code, let field):
            guard retryableStatusCodes.contains(code) else { return nil }
            retryAfter = field
        case .cancelled, .tooLarge, .other:
            return nil
        }
        if let retryAfter, let asked = Self.retryAfter(retryAfter, now: now) {
            return asked <= maximumRetryAfter ? asked : nil
        }
        let ceiling = baseDelay * pow(multiplier, Double(retry - 1))
        return ceiling * min(max(unitRandom, 0), 1)
    }

    /// `Retry-After` as a wait: delay-seconds, or an HTTP-date (a date in the
    /// past means "now"). `nil` when the value is neither.
    static func retryAfter(_ value: String, now: Date) -> Duration? {
        let text = value.trimmingSpaces()
        if let seconds = CacheControl.deltaSeconds(text) { return .seconds(seconds) }
        guard let date = HTTPDate(parsing: text) else { return nil }
        return .seconds(max(0, date.secondsSince1970 - HTTPDate(now).secondsSince1970))
    }
}

/// How one attempt of a transfer ended, as the retry policy sees it.
package enum TransferFailure: Sendable, Hashable {
    /// The connection was refused, reset or lost before the body was complete.
    case connection(code: Int, message: String)
    /// No byte arrived within the timeout.
    case timedOut
    /// The server answered with an unacceptable status; carries `Retry-After`.
    case status(Int, retryAfter: String?)
    /// The caller or the downloader cancelled.
    case cancelled
    /// The body exceeds the size limit.
    case tooLarge
    /// Anything else: not retried.
    case other(ImageDownloadError)
}
