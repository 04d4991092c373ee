import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// URLSession's delegate events, forwarded by ``SessionDelegateBridge``: on the
/// serial ``ImageDownloader/eventQueue``, or (response heads and body pieces,
/// when ``ImageDownloader/handlesEventsInline``) on URLSession's own thread,
/// where nothing may call URLSession synchronously or run user code.
extension ImageDownloader {
    private func transfer(of task: URLSessionTask) -> TransferID? {
        state.withLock { $0.transferOfTask[ObjectIdentifier(task)]?.transfer }
    }

    /// The response head: sorts out range answers, then validates it.
    /// Returns whether to go on receiving the body.
    func taskReceived(_ urlResponse: URLResponse, task: URLSessionDataTask) -> Bool {
        guard let id = transfer(of: task) else { return false }
        var response = ImageDownloadResponse(urlResponse)
        if let url = response.url ?? task.originalRequest?.url {
            emit(.receivedResponse(url, statusCode: response.statusCode))
        }
        let ranged: TransferStateMachine.Action? = state.withLock { state in
            var action: TransferStateMachine.Action?
            state.registry.update(id) { transfer in
                let result = transfer.machine.receivedHead(status: response.statusCode, headers: response.headers)
                action = result
                if case .restart = result {
                    transfer.pendingRetry = (.zero, transfer.machine.attempts, .badStatus(response.statusCode))
                }
            }
            return action
        }
        switch ranged {
        case nil:
            return false
        case .restart?:
            // The slot is given back when URLSession reports the cancelled task complete.
            return false
        case .fail(let error)?:
            fail(id, with: error, task: task)
            return false
        case .proceed?, .wait?, .complete?:
            break
        }
        do throws(ImageDownloadError) {
            try validate(response)
            if let validator = configuration.hooks.validateResponse {
                response = try validator(response)
            }
        } catch {
            if case .badStatus(let code) = error, retryLater(id, after: .status(code, retryAfter: response.header("Retry-After"))) {
                return false
            }
            // The slot stays taken until URLSession reports the cancelled task complete.
            fail(id, with: error, task: task)
            return false
        }
        let active: Bool = state.withLock { state in
            guard state.registry.contains(id) else { return false }
            state.registry.update(id) { transfer in
                transfer.response = response
                transfer.lastActivity = .now
                // Capped: a lying Content-Length must not make us allocate much.
                if let length = transfer.machine.expectedLength ?? response.expectedContentLength, length > 0 {
                    transfer.machine.reserveCapacity(Int(min(length, 4 << 20)))
                }
            }
            return true
        }
        return active
    }

    /// Asks the transfer's state machine whether the running attempt's
    /// `failure` is worth another attempt; if so, marks the transfer to wait
    /// once its task has stopped, and returns true.
    private func retryLater(_ id: TransferID, after failure: TransferFailure) -> Bool {
        state.withLock { state in
            var waits = false
            state.registry.update(id) { transfer in
                guard case .wait(let delay, let attempt) = transfer.machine.failed(failure, now: Date(), unitRandom: Self.unitRandom())
                else { return }
                transfer.pendingRetry = (delay, attempt, failure.error)
                waits = true
            }
            return waits
        }
    }

    private func validate(_ response: ImageDownloadResponse) throws(ImageDownloadError) {
        if response.statusCode == 304 { throw .notModified(response) }
        guard configuration.acceptableStatusCodes.contains(response.statusCode) else {
            throw .badStatus(response.statusCode)
        }
        guard configuration.accepts(contentType: response.mimeType) else {
            throw .invalidContentType(response.mimeType)
        }
        if let length = response.expectedContentLength, length > Int64(configuration.maximumResponseSize) {
            throw .tooLarge
        }
    }

    /// A piece of the body: progress and the piece for every caller that listens.
    ///
    /// - Parameter onSessionThread: called on URLSession's own thread: a
    ///   transfer whose pieces already went to the events queue is left alone
    ///   (its pieces must reach listeners in order) and a cancellation is sent
    ///   from the events queue.
    /// - Returns: false when the piece was left alone and must be handed in
    ///   again from the events queue.
    @discardableResult
    func taskReceived(_ data: Data, task: URLSessionDataTask, onSessionThread: Bool = false) -> Bool {
        let limit = configuration.maximumResponseSize
        enum Step {
            case gone
            case deferred
            case tooLarge(TransferID)
            case progress(TransferID, received: Int64, expected: Int64?,
                          listeners: [(TransferRegistry.CallerID, @Sendable (Int64, Int64?) -> Void)],
                          pieceListeners: [(TransferRegistry.CallerID, @Sendable ([UInt8]) -> Void)])
        }
        let step: Step = state.withLock { state in
            guard let id = state.transferOfTask[ObjectIdentifier(task)]?.transfer else { return .gone }
            var step = Step.gone
            // In place: a copy of the transfer held across the append would make
            // the append copy the whole body.
            state.registry.update(id) { transfer in
                if onSessionThread, transfer.piecesOnEventQueue {
                    transfer.piecesOnEventQueue = true
                    step = .deferred
                    return
                }
                guard transfer.machine.receivedCount + data.count <= limit else {
                    step = .tooLarge(id)
                    return
                }
                // 0: the machine dropped a late piece of an attempt it already stopped
                // (for a restart or a retry); nobody may count or decode it.
                let received = data.withUnsafeBytes { transfer.machine.receivedBody($0) }
                guard received > 0 else { return }
                transfer.lastActivity = .now
                var listeners: [(TransferRegistry.CallerID, @Sendable (Int64, Int64?) -> Void)] = []
                var pieceListeners: [(TransferRegistry.CallerID, @Sendable ([UInt8]) -> Void)] = []
                for (caller, entry) in transfer.callers {
                    if let progress = entry.callbacks.progress { listeners.append((caller, progress)) }
                    if let piece = entry.callbacks.data { pieceListeners.append((caller, piece)) }
                }
                step = .progress(id, received: Int64(received),
                                 expected: transfer.machine.expectedLength ?? transfer.response?.expectedContentLength,
                                 listeners: listeners, pieceListeners: pieceListeners)
            }
            return step
        }
        switch step {
        case .gone:
            return true
        case .deferred:
            return false
        case .tooLarge(let id):
            fail(id, with: .tooLarge, task: task)
            if onSessionThread {
                eventQueue.async { task.cancel() }
            } else {
                task.cancel()
            }
            return true
        case .progress(_, let received, let expected, let listeners, let pieceListeners):
            if !pieceListeners.isEmpty {
                let piece = [UInt8](data)
                for (caller, listener) in pieceListeners {
                    deliverIfActive(caller) { listener(piece) }
                }
            }
            for (caller, listener) in listeners {
                deliverIfActive(caller) { listener(received, expected) }
            }
            return true
        }
    }

    /// The task ended: frees its slot, then fails or processes the transfer.
    func taskCompleted(_ task: URLSessionTask, error: (any Error)?) {
        enum Outcome {
            case unknown
            case abandoned(URL, ImageDownloadError?)
            case failed(URL, TransferID, ImageDownloadError)
            case retrying(URL, TransferID, delay: Duration, attempt: Int, error: ImageDownloadError)
            case succeeded(URL, TransferID, [UInt8], ImageDownloadResponse?)
            /// Bytes only: the transfer is already removed and its callers claimed.
            case delivered(URL, [UInt8], ImageDownloadResponse?, [(id: TransferRegistry.CallerID, caller: TransferRegistry.Caller)])
        }
        let transforms = configuration.hooks.transformData != nil
        let (outcome, toStart): (Outcome, [TransferID]) = state.withLock { state in
            guard let entry = state.transferOfTask.removeValue(forKey: ObjectIdentifier(task)) else { return (.unknown, []) }
            let (id, url) = (entry.transfer, entry.url)
            let toStart = state.queue.finish(id)
            guard state.registry.contains(id) else { return (.abandoned(url, entry.failure), toStart) }
            // An attempt stopped to be tried again, or one that failed on its own.
            var retry: (delay: Duration, attempt: Int, error: ImageDownloadError)?
            var failure: ImageDownloadError?
            state.registry.update(id) { transfer in
                if let pending = transfer.pendingRetry {
                    retry = pending
                    transfer.pendingRetry = nil
                } else if let attemptFailure = Self.attemptFailure(error, machine: transfer.machine) {
                    let action = transfer.machine.failed(attemptFailure, now: Date(), unitRandom: Self.unitRandom())
                    switch action {
                    case .wait(let delay, let attempt): retry = (delay, attempt, attemptFailure.error)
                    case .fail(let final): failure = final
                    default: failure = attemptFailure.error
                    }
                }
                if retry != nil {
                    transfer.phase = .waiting
                    transfer.response = nil
                }
            }
            if let retry { return (.retrying(url, id, delay: retry.delay, attempt: retry.attempt, error: retry.error), toStart) }
            if let failure {
                if let transfer = state.registry.read(id, { $0 }) { Self.keepResumable(of: transfer, in: &state) }
                return (.failed(url, id, failure), toStart)
            }
            state.registry.closeToJoiners(id)
            var body: [UInt8] = []
            var response: ImageDownloadResponse?
            state.registry.update(id) { transfer in
                transfer.phase = .processing
                if case .complete(let bytes) = transfer.machine.finished() { body = bytes }
                response = transfer.response
            }
            // Nothing to transform: the callers are claimed here, in the same
            // critical section, instead of in three more.
            if !body.isEmpty, !transforms, let transfer = state.registry.remove(id) {
                return (.delivered(url, body, response, transfer.orderedCallers), toStart)
            }
            return (.succeeded(url, id, body, response), toStart)
        }
        start(toStart)
        let mapped = error.map(Self.map)
        switch outcome {
        case .unknown:
            return
        case .abandoned(let url, let failure):
            emit(.stopped(url, error: failure ?? mapped ?? .cancelled))
        case .failed(let url, let id, let failure):
            fail(id, with: failure)
            emit(.stopped(url, error: mapped ?? failure))
        case .retrying(let url, let id, let delay, let attempt, let failure):
            emit(.stopped(url, error: failure))
            scheduleRetry(id, url: url, delay: delay, attempt: attempt, error: failure)
        case .delivered(let url, let body, let response, let callers):
            emit(.stopped(url, error: nil))
            // Before the completions, so that observers see it before callers move on.
            emit(.finished(url))
            instruments.delivered(url, bytes: body.count)
            let result = ImageDownloadResult(bytes: body, response: response ?? Self.placeholderResponse(url))
            complete(callers) { _ in .success(result) }
        case .succeeded(let url, let id, let body, let response):
            emit(.stopped(url, error: nil))
            let response = response ?? Self.placeholderResponse(url)
            if needsProcessing {
                postProcess(id, url: url, body: body, response: response)
            } else {
                // Bytes only: no reason to hop to another thread.
                finish(id, url: url, bytes: body, response: response)
            }
        }
    }

    /// For a transfer that completed without a response head (not expected
    /// from URLSession, but not worth a crash).
    static func placeholderResponse(_ url: URL) -> ImageDownloadResponse {
        ImageDownloadResponse(url: url, statusCode: 200, headers: [:], mimeType: nil, expectedContentLength: nil)
    }

    /// Fails running transfers that received nothing for `timeout`.
    func expireIdleTransfers(olderThan timeout: Duration) {
        let now = ContinuousClock.now
        let (expired, retried): ([(TransferRegistry.Transfer, URLSessionDataTask)], [URLSessionDataTask]) = state.withLock { state in
            var expired: [(TransferRegistry.Transfer, URLSessionDataTask)] = []
            var retried: [URLSessionDataTask] = []
            for (id, transfer) in state.registry.transfers {
                guard case .running(let task) = transfer.phase, transfer.pendingRetry == nil,
                      now - transfer.lastActivity >= (transfer.request.timeout ?? timeout) else { continue }
                var waits = false
                state.registry.update(id) { transfer in
                    if case .wait(let delay, let attempt) = transfer.machine.failed(.timedOut, now: Date(), unitRandom: Self.unitRandom()) {
                        transfer.pendingRetry = (delay, attempt, .timedOut)
                        waits = true
                    }
                }
                if waits {
                    retried.append(task)
                    continue
                }
                guard let removed = state.registry.remove(id) else { continue }
                Self.keepResumable(of: removed, in: &state)
                state.transferOfTask[ObjectIdentifier(task)]?.failure = .timedOut
                expired.append((removed, task))
            }
            return (expired, retried)
        }
        for (transfer, task) in expired {
            deliver(.failure(.timedOut), to: transfer.orderedCallers)
            // The slot is freed when URLSession reports the cancelled task complete.
            task.cancel()
        }
        // These wait for a retry once URLSession reports the cancelled task complete.
        for task in retried { task.cancel() }
    }

    static func map(_ error: any Error) -> ImageDownloadError {
        let code: Int
        if let urlError = error as? URLError {
            code = urlError.code.rawValue
        } else {
            code = (error as NSError).code
        }
        switch code {
        case NSURLErrorTimedOut: return .timedOut
        case NSURLErrorCancelled: return .cancelled
        default: return .transport(code: code, message: error.localizedDescription)
        }
    }
}
