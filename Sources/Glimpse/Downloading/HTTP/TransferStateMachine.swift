import Foundation

/// One transfer of one resource across all its attempts: retries with
/// backoff, resumption of a cut body with a range request, and the rule that
/// bytes of two different versions are never spliced together.
///
/// A value-type state machine in the manner of swift-nio's: the transport
/// reports events (an attempt's response head, a piece of body, its end or
/// failure, the retry timer) and performs the ``Action`` each returns. It has
/// no I/O, clock or randomness of its own, so tests drive it exactly.
struct TransferStateMachine: Sendable {
    /// What the transport must do next.
    enum Action: Sendable, Equatable {
        /// Send the request, adding these header fields (a range request when resuming).
        case send(headers: [String: String])
        /// Go on receiving.
        case proceed
        /// Stop this attempt and send the request again at once without a
        /// range: the server's answer cannot continue the stored bytes.
        case restart
        /// Release the attempt's slot, wait, then call ``retryTimerFired()``;
        /// `attempt` is the number of the attempt that will follow (2 for the first retry).
        case wait(Duration, attempt: Int)
        /// The whole body has arrived.
        case complete(Data)
        /// The transfer has failed for good.
        case fail(ImageDownloadError)
    }

    private enum State: Sendable {
        case idle
        /// An attempt is out; its response head has not arrived.
        case requesting(attempt: Int, range: ResumableData?)
        /// The head arrived; `body` holds every byte from offset 0.
        case receiving(attempt: Int, body: Data, status: Int, headers: [String: String], resumed: ResumableData?)
        /// Between attempts; `attempt` is the next one's number.
        case waiting(attempt: Int)
        case finished
    }

    private var state = State.idle
    let policy: RetryPolicy
    /// The largest body accepted, resumed parts included.
    let maximumBodySize: Int64?
    /// The bytes a later attempt (or a later load) can resume from; kept after
    /// a final failure so the caller can store it.
    private(set) var resumable: ResumableData?
    /// Attempts sent so far.
    private(set) var attempts = 0

    init(policy: RetryPolicy, maximumBodySize: Int64? = nil, resumingFrom resumable: ResumableData? = nil) {
        self.policy = policy
        self.maximumBodySize = maximumBodySize
        self.resumable = resumable
    }

    /// Sends the first attempt.
    mutating func start() -> Action {
        guard case .idle = state else { return .proceed }
        return send(attempt: 1)
    }

    private mutating func send(attempt: Int) -> Action {
        attempts = attempt
        state = .requesting(attempt: attempt, range: resumable)
        return .send(headers: resumable?.rangeHeaders ?? [:])
    }

    /// The attempt's response head arrived. Called before the transport judges
    /// the status, so that range answers are sorted out first: a `206` that
    /// continues the stored bytes resumes; a `206` that does not, or a `416`,
    /// restarts without a range; any other answer is a whole representation
    /// and replaces whatever was stored.
    mutating func receivedHead(status: Int, headers: [String: String]) -> Action {
        guard case .requesting(let attempt, let range) = state else { return .proceed }
        if let range {
            if status == 206, range.isContinued(by: headers) {
                state = .receiving(attempt: attempt, body: range.body, status: status, headers: headers, resumed: range)
                return .proceed
            }
            if status == 206 || status == 416 {
                resumable = nil
                state = .requesting(attempt: attempt, range: nil)
                return .restart
            }
        } else if status == 206 {
            // A range nobody asked for: taking it as the whole body would be wrong.
            state = .finished
            return .fail(.badStatus(206))
        }
        resumable = nil
        state = .receiving(attempt: attempt, body: Data(), status: status, headers: headers, resumed: nil)
        return .proceed
    }

    /// A piece of the body arrived.
    mutating func receivedBody(_ piece: some DataProtocol) -> Action {
        guard case .receiving(let attempt, var body, let status, let headers, let resumed) = state else { return .proceed }
        state = .finished   // lets `body` be appended to without a copy
        body.append(contentsOf: piece)
        if let maximumBodySize, Int64(body.count) > maximumBodySize {
            resumable = nil
            return .fail(.tooLarge)
        }
        state = .receiving(attempt: attempt, body: body, status: status, headers: headers, resumed: resumed)
        return .proceed
    }

    /// The attempt ended with the whole body.
    mutating func finished() -> Action {
        guard case .receiving(_, let body, _, _, _) = state else { return .proceed }
        state = .finished
        resumable = nil
        return .complete(body)
    }

    /// The attempt failed. Keeps what can be resumed, then either waits for
    /// a retry or fails for good.
    mutating func failed(_ failure: TransferFailure, now: Date, unitRandom: Double) -> Action {
        let attempt: Int
        switch state {
        case .requesting(let number, _):
            attempt = number
        case .receiving(let number, let body, let status, let headers, let resumed):
            attempt = number
            if let resumed {
                // A resumed attempt cut again: same version, more bytes.
                var longer = resumed
                longer.body = body
                resumable = longer
            } else {
                resumable = ResumableData(body: body, status: status, headers: headers)
            }
        case .idle, .waiting, .finished:
            return .proceed
        }
        if case .tooLarge = failure { resumable = nil }
        guard let delay = policy.delay(beforeRetry: attempt, after: failure, now: now, unitRandom: unitRandom) else {
            state = .finished
            return .fail(failure.error)
        }
        state = .waiting(attempt: attempt + 1)
        return .wait(delay, attempt: attempt + 1)
    }

    /// The wait before a retry is over: sends the next attempt.
    mutating func retryTimerFired() -> Action {
        guard case .waiting(let attempt) = state else { return .proceed }
        return send(attempt: attempt)
    }

    /// The caller gave up; whatever is running stops.
    mutating func cancel() -> Action {
        if case .finished = state { return .proceed }
        state = .finished
        return .fail(.cancelled)
    }
}

extension TransferFailure {
    /// The error a caller sees when this failure is final.
    var error: ImageDownloadError {
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
