import Foundation
@testable import Glimpse
import Testing

@Suite("Retry policy")
struct RetryPolicyTests {
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    let policy = RetryPolicy.standard
    let reset = TransferFailure.connection(code: -1005, message: "reset")

    @Test func transientFailuresBackOffWithFullJitter() {
        #expect(policy.delay(beforeRetry: 1, after: reset, now: now, unitRandom: 0.999) == .milliseconds(499.5))
        #expect(policy.delay(beforeRetry: 2, after: .timedOut, now: now, unitRandom: 0.5) == .milliseconds(500))
        #expect(policy.delay(beforeRetry: 2, after: .timedOut, now: now, unitRandom: 0) == .zero)
        #expect(policy.delay(beforeRetry: 3, after: reset, now: now, unitRandom: 0.5) == nil, "two retries by default")
        #expect(RetryPolicy.never.delay(beforeRetry: 1, after: reset, now: now, unitRandom: 0.5) == nil)
    }

    @Test(arguments: [408, 429, 502, 503, 504])
    func statusesThatSayLaterAreRetried(_ code: Int) {
        #expect(policy.delay(beforeRetry: 1, after: .status(code, retryAfter: nil), now: now, unitRandom: 0.5) != nil)
    }

    @Test(arguments: [400, 401, 403, 404, 410, 500, 501])
    func otherStatusesAreFinal(_ code: Int) {
        #expect(policy.delay(beforeRetry: 1, after: .status(code, retryAfter: "1"), now: now, unitRandom: 0.5) == nil)
    }

    @Test func cancellationAndOversizedBodiesAreNeverRetried() {
        #expect(policy.delay(beforeRetry: 1, after: .cancelled, now: now, unitRandom: 0.5) == nil)
        #expect(policy.delay(beforeRetry: 1, after: .tooLarge, now: now, unitRandom: 0.5) == nil)
        #expect(policy.delay(beforeRetry: 1, after: .other(.emptyBody), now: now, unitRandom: 0.5) == nil)
    }

    @Test func retryAfterInSecondsOrAsADateReplacesTheBackoffUpToTheCap() {
        let seconds = TransferFailure.status(503, retryAfter: " 7 ")
        #expect(policy.delay(beforeRetry: 1, after: seconds, now: now, unitRandom: 0.1) == .seconds(7))
        let date = TransferFailure.status(429, retryAfter: HTTPDate(now.addingTimeInterval(12)).imfFixdate)
        #expect(policy.delay(beforeRetry: 1, after: date, now: now, unitRandom: 0.1) == .seconds(12))
        let past = TransferFailure.status(429, retryAfter: HTTPDate(now.addingTimeInterval(-12)).imfFixdate)
        #expect(policy.delay(beforeRetry: 1, after: past, now: now, unitRandom: 0.1) == .zero)
        let tooLong = TransferFailure.status(503, retryAfter: "31")
        #expect(policy.delay(beforeRetry: 1, after: tooLong, now: now, unitRandom: 0.1) == nil)
        let garbage = TransferFailure.status(503, retryAfter: "soon")
        #expect(policy.delay(beforeRetry: 1, after: garbage, now: now, unitRandom: 0.5) == .milliseconds(250),
                "an unreadable Retry-After falls back to the backoff")
    }
}
