import Foundation

/// One transfer of one resource across all its attempts: retries with
/// backoff, resumption of a cut body with a range request, and the rule that
/// bytes of two different versions are never spliced together.
///
/// A value-type state machine in the manner of swift-nio's: the transport
/// reports events (an attempt's response head, a piece of body, its end or
/// failure) and performs the ``Action`` each returns. It has no I/O, clock or
/// randomness of its own, so tests drive it exactly. It also holds the body,
/// so that the bytes of one attempt can only ever continue those of an earlier
/// one through ``ResumableData/isContinued(by:)``.
package struct TransferStateMachine: Sendable {
    /// What the transport must do next.
    package enum Action: Sendable, Equatable {
        /// Go on receiving.
        case proceed
        /// Stop this attempt and call ``send()`` again at once, without waiting
        /// and without counting a retry: the server's answer cannot continue the
        /// stored bytes, so the next attempt asks for the whole body.
        case restart
        /// Stop this attempt, release its slot, and call ``send()`` after the
        /// wait; `attempt` is the number of the attempt that will follow.
        case wait(Duration, attempt: Int)
        /// The whole body has arrived.
        case complete([UInt8])
        /// The transfer has failed for good.
        case fail(ImageDownloadError)
    }

    private enum State: Sendable {
        /// Before an attempt; `attempt` is the next one's number.
        case ready(attempt: Int)
        /// An attempt is out; its response head has not arrived.
        case requesting(attempt: Int, range: ResumableData?)
        /// The head arrived; `body` holds every byte from offset 0.
        case receiving(attempt: Int, body: [UInt8], status: Int, headers: [String: String], resumed: ResumableData?)
        case finished
    }

    private var state = State.ready(attempt: 1)
    package let policy: RetryPolicy
    /// The bytes a later attempt (or a later load) can resume from; kept after
    /// a final failure so that the transport can store it.
    package private(set) var resumable: ResumableData?
    /// Attempts sent so far.
    package private(set) var attempts = 0

    /// Whether the caller's request names a range of its own: then its `206`
    /// is the body it asked for, and attempts never add a range of their own.
    package let callerAskedForRange: Bool
    /// Whether a failed attempt's bytes are kept for the next one.
    package let keepsPartialBodies: Bool

    package init(policy: RetryPolicy, resumingFrom resumable: ResumableData? = nil, resumes: Bool = true,
         callerAskedForRange: Bool = false) {
        self.policy = policy
        self.callerAskedForRange = callerAskedForRange
        keepsPartialBodies = resumes && !callerAskedForRange
        self.resumable = keepsPartialBodies ? resumable : nil
    }

    /// Bytes of the body held so far (resumed ones included).
    package var receivedCount: Int {
        if case .receiving(_, let body, _, _, _) = state { return body.count }
        return 0
    }

    /// Bytes the running attempt itself delivered (resumed ones not counted).
    package var receivedThisAttempt: Int {
        guard case .receiving(_, let body, _, _, let resumed) = state else { return 0 }
        return body.count - (resumed?.body.count ?? 0)
    }

    /// Whether the attempt's body stopped short of the length its response
    /// declared (`Content-Length`, or `Content-Range`'s complete length).
    package var isShortOfDeclaredLength: Bool {
        guard let expected = expectedLength else { return false }
        return Int64(receivedCount) < expected
    }

    /// The body's full length, when the response said.
    package var expectedLength: Int64? {
        guard case .receiving(_, _, let status, let headers, let resumed) = state else { return nil }
        if let resumed { return resumed.totalLength }
        return status == 200 ? headers["content-length"].flatMap { Int64($0.trimmingSpaces()) } : nil
    }

    /// Sends the next attempt: returns the header fields to add to the
    /// request (`Range` and `If-Range` when resuming), or `nil` when no
    /// attempt is due.
    package mutating func send() -> [String: String]? {
        guard case .ready(let attempt) = state else { return nil }
        attempts = attempt
        state = .requesting(attempt: attempt, range: resumable)
        return resumable?.rangeHeaders ?? [:]
    }

    /// The attempt's response head arrived. Called before the transport judges
    /// the status, so that range answers are sorted out first: a `206` that
    /// continues the stored bytes resumes; a `206` that does not, or a `416`,
    /// restarts without a range; any other answer is a whole representation
    /// and replaces whatever was stored.
    package mutating func receivedHead(status: Int, headers: [String: String]) -> Action {
        guard case .requesting(let attempt, let range) = state else { return .proceed }
        if let range {
            if status == 206, range.isContinued(by: headers) {
                state = .receiving(attempt: attempt, body: range.body, status: status, headers: headers, resumed: range)
                return .proceed
            }
            if status == 206 || status == 416 {
                resumable = nil
                state = .ready(attempt: attempt)
                return .restart
            }
        } else if status == 206, !callerAskedForRange {
            // A range nobody asked for: taking it as the whole body would be wrong.
            state = .finished
            return .fail(.badStatus(206))
        }
        resumable = nil
        state = .receiving(attempt: attempt, body: [], status: status, headers: headers, resumed: nil)
        return .proceed
    }

    /// Reserves room for a body of `count` bytes.
    package mutating func reserveCapacity(_ count: Int) {
        guard case .receiving(let attempt, var body, let status, let headers, let resumed) = state else { return }
        state = .finished   // leaves `body` the only reference, so it grows in place
        body.reserveCapacity(count)
        state = .receiving(attempt: attempt, body: body, status: status, headers: headers, resumed: resumed)
    }

    /// A piece of the body arrived; returns the bytes held so far.
    @discardableResult
    package mutating func receivedBody(_ piece: UnsafeRawBufferPointer) -> Int {
        guard case .receiving(let attempt, var body, let status, let headers, let resumed) = state else { return 0 }
        state = .finished   // leaves `body` the only reference, so the append does not copy it
        body.append(contentsOf: piece)
        let count = body.count
        state = .receiving(attempt: attempt, body: body, status: status, headers: headers, resumed: resumed)
        return count
    }

    /// The attempt ended with the whole body.
    package mutating func finished() -> Action {
        guard case .receiving(_, let body, _, _, _) = state else { return .fail(.emptyBody) }
        state = .finished
        resumable = nil
        return .complete(body)
    }

    /// The attempt failed. Keeps what can be resumed, then either waits for
    /// a retry or fails for good.
    package mutating func failed(_ failure: TransferFailure, now: Date, unitRandom: Double) -> Action {
        let attempt: Int
        switch state {
        case .requesting(let number, _):
            attempt = number
        case .receiving(let number, let body, let status, let headers, let resumed):
            attempt = number
            if !keepsPartialBodies {
                resumable = nil
            } else if let resumed {
                // A resumed attempt cut again: the same version, more bytes.
                var longer = resumed
                longer.body = body
                resumable = longer
            } else {
                resumable = ResumableData(body: body, status: status, headers: headers)
            }
        case .ready, .finished:
            return .proceed
        }
        if case .tooLarge = failure { resumable = nil }
        guard let delay = policy.delay(beforeRetry: attempt, after: failure, now: now, unitRandom: unitRandom) else {
            state = .finished
            return .fail(failure.error)
        }
        state = .ready(attempt: attempt + 1)
        return .wait(delay, attempt: attempt + 1)
    }
}

extension TransferFailure {
    /// The error a caller sees when this failure is final.
    package var error: ImageDownloadError {
        switch self {
        case .connection(let code, let message): .transport(code: code, message: message)
        case .timedOut: .timedOut
        case .status(let code, _): .badStatus(code)
        case .cancelled: .cancelled
        case .tooLarge: .tooLarge
        case .other(let error): error
        }
    }
}
