import AsyncHTTPClient
import Dispatch
import Foundation
import Glimpse
import NIOCore
import NIOHTTP1

/// One attempt of a transfer: the AsyncHTTPClient side of `TransferStateMachine`, as
/// `ImageDownloader+SessionEvents` is URLSession's.
extension AsyncHTTPClientImageLoader {
    /// Starts an attempt for each transfer the queue granted a slot, each in a task of
    /// its own that frees the slot when it ends.
    func start(_ ids: [Int]) {
        // Every change of the queue ends here (with the transfers it let start, or none).
        if instruments.reportsQueue {
            let (running, pending) = state.withLock { ($0.queue.running.count, $0.queue.pendingCount) }
            instruments.queue(running: running, pending: pending)
        }
        guard !ids.isEmpty else { return }
        state.withLock { state in
            for id in ids {
                let number = state.nextTask
                state.nextTask += 1
                let task = Task { [self] in
                    await attempt(id)
                    let toStart: [Int] = self.state.withLock { state in
                        state.activeTasks[number] = nil
                        return state.queue.finish(id)
                    }
                    start(toStart)
                }
                state.activeTasks[number] = task
                state.update(id) { $0.task = task }
            }
        }
    }

    /// How an attempt ended, for the transfer's state machine.
    enum Ending {
        case failed(ImageDownloadError)
        case retry(TransferFailure)
        /// The range answer (`status`) cannot continue the stored bytes: again, whole.
        case restart(status: Int)
        case complete(ImageDownloadResponse)
    }

    private func attempt(_ id: Int) async {
        let prepared: (request: ImageDownloadRequest, headers: [String: String])? = state.withLock { state in
            guard !state.isShutDown, let transfer = state.transfers[id], case .queued = transfer.phase else { return nil }
            var headers: [String: String]?
            state.update(id) { transfer in
                headers = transfer.machine.send()
                if headers != nil {
                    transfer.phase = .running
                    transfer.attemptStarted = .now
                    transfer.lastActivity = .now
                }
            }
            return headers.map { (transfer.request, $0) }
        }
        guard let (request, attemptHeaders) = prepared else { return }
        if let range = attemptHeaders.first(where: { $0.key.caseInsensitiveCompare("Range") == .orderedSame }) {
            instruments.resuming(request.url, range: range.value)
        }
        let deadline = request.transferDeadline ?? configuration.transferDeadline ?? .seconds(300)
        // The deadline is the loader's own: AsyncHTTPClient's bounds the request and its
        // head, not a body that stalls after it.
        let ending: Ending = await withTaskGroup(of: Ending?.self) { group in
            group.addTask { [self] in
                do {
                    return try await run(id, request, attemptHeaders: attemptHeaders, deadline: deadline)
                } catch {
                    return Task.isCancelled ? nil : .retry(Self.failure(for: error))
                }
            }
            group.addTask {
                try? await Task.sleep(for: deadline)
                return Task.isCancelled ? nil : .failed(.deadlineExceeded)
            }
            group.addTask { [self] in
                await watch(id, idleTimeout: request.timeout ?? configuration.timeout)
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .failed(.cancelled)
        }
        conclude(id, ending, url: request.url)
    }

    /// Sends the request (following redirects), judges the head, receives the body.
    private func run(_ id: Int, _ request: ImageDownloadRequest, attemptHeaders: [String: String],
                     deadline attemptDeadline: Duration) async throws -> Ending {
        let policy = request.addressPolicy ?? configuration.addressPolicy
        let deadline = NIODeadline.now() + Self.timeAmount(attemptDeadline)
        var url = request.url
        var hops = 0
        var response: HTTPClientResponse
        while true {
            if let refusal = await check(url, under: policy) {
                instruments.refused(url, redirect: hops > 0, refusal)
                return .failed(refusal)
            }
            // As ImageDownloader's: once the address check let the attempt connect.
            if hops == 0 { emit(.started(request.url)) }
            response = try await client.execute(makeRequest(request, url: url, attemptHeaders: attemptHeaders),
                                                deadline: deadline)
            guard Self.redirectStatuses.contains(response.status.code),
                  let location = response.headers.first(name: "location"),
                  let target = URL(string: location, relativeTo: url)?.absoluteURL else { break }
            hops += 1
            if let refusal = configuration.redirectRefusal(from: url, to: target, hop: hops, policy: policy) {
                instruments.refused(target, redirect: true, refusal)
                return .failed(refusal)
            }
            state.withLock { $0.update(id) { $0.lastActivity = .now } }
            // From the transfer's URL, as every event of the transfer (ImageDownloader's too).
            emit(.redirected(request.url, to: target, statusCode: Int(response.status.code), hop: hops))
            url = target
        }
        // A client that followed redirects itself: every hop is checked after the fact.
        for hop in response.history.dropFirst() {
            guard let hopURL = URL(string: hop.request.url) else { return .failed(.invalidURL) }
            hops += 1
            var refusal = configuration.redirectRefusal(from: url, to: hopURL, hop: hops, policy: policy)
            if refusal == nil { refusal = await check(hopURL, under: policy) }
            if let refusal {
                instruments.refused(hopURL, redirect: true, refusal)
                return .failed(refusal)
            }
            url = hopURL
        }
        var head = Self.response(response, url: response.url ?? url)
        // The final head's URL, as URLSession's response has it.
        emit(.receivedResponse(head.url ?? request.url, statusCode: head.statusCode))
        if let ending = receivedHead(id, &head) { return ending }
        let limit = configuration.maximumResponseSize
        for try await piece in response.body {
            enum Step { case gone, tooLarge, deliver(Int64, Int64?, [Caller]) }
            let step: Step = state.withLock { state in
                var step = Step.gone
                state.update(id) { transfer in
                    guard transfer.machine.receivedCount + piece.readableBytes <= limit else {
                        step = .tooLarge
                        return
                    }
                    transfer.lastActivity = .now
                    let received = piece.withUnsafeReadableBytes { transfer.machine.receivedBody($0) }
                    guard received > 0 else { return }
                    step = .deliver(Int64(received), transfer.machine.expectedLength ?? head.expectedContentLength,
                                    transfer.orderedCallers)
                }
                return step
            }
            switch step {
            case .gone:
                return .failed(.cancelled)
            case .tooLarge:
                return .failed(.tooLarge)
            case .deliver(let received, let expected, let callers):
                let bytes = callers.contains { $0.handlers.data != nil } ? Array(piece.readableBytesView) : []
                for caller in callers {
                    caller.gate.deliver {
                        caller.handlers.data?(bytes)
                        caller.handlers.progress?(received, expected)
                    }
                }
            }
        }
        let short: Bool = state.withLock { state in state.transfers[id]?.machine.isShortOfDeclaredLength ?? false }
        if short {
            return .retry(.connection(code: Self.connectionLost, message: "connection closed before the body was complete"))
        }
        return .complete(head)
    }

    /// Sorts out range answers with the state machine, then validates the head as
    /// ``ImageDownloader`` does. Returns how the attempt ends, or `nil` to receive the body.
    private func receivedHead(_ id: Int, _ head: inout ImageDownloadResponse) -> Ending? {
        let action: TransferStateMachine.Action? = state.withLock { state in
            var action: TransferStateMachine.Action?
            let (status, headers) = (head.statusCode, head.headers)
            state.update(id) { transfer in
                transfer.lastActivity = .now
                action = transfer.machine.receivedHead(status: status, headers: headers)
            }
            return action
        }
        switch action {
        case nil: return .failed(.cancelled)
        case .restart?: return .restart(status: head.statusCode)
        case .fail(let error)?: return .failed(error)
        case .proceed?, .wait?, .complete?: break
        }
        if head.statusCode == 304 { return .failed(.notModified(head)) }
        guard configuration.acceptableStatusCodes.contains(head.statusCode) else {
            return .retry(.status(head.statusCode, retryAfter: head.header("Retry-After")))
        }
        guard configuration.accepts(contentType: head.mimeType) else { return .failed(.invalidContentType(head.mimeType)) }
        if let length = head.expectedContentLength, length > Int64(configuration.maximumResponseSize) {
            return .failed(.tooLarge)
        }
        if let validator = configuration.hooks.validateResponse {
            do throws(ImageDownloadError) {
                head = try validator(head)
            } catch {
                return .failed(error)
            }
        }
        let expected = head.expectedContentLength
        state.withLock { state in
            state.update(id) { transfer in
                // Capped: a lying Content-Length must not make us allocate much.
                if let length = transfer.machine.expectedLength ?? expected, length > 0 {
                    transfer.machine.reserveCapacity(Int(min(length, 4 << 20)))
                }
            }
        }
        return nil
    }

    /// Applies an attempt's end: completes, waits for a retry, or fails every caller.
    private func conclude(_ id: Int, _ ending: Ending, url: URL) {
        enum Next {
            /// Every caller left (or shutdown removed the transfer) while the attempt ran.
            case abandoned
            case none, fail([Caller], ImageDownloadError), wait(Duration, attempt: Int, ImageDownloadError)
            case deliver([UInt8], ImageDownloadResponse)
        }
        let next: Next = state.withLock { state in
            guard let transfer = state.transfers[id] else { return .abandoned }
            var action: TransferStateMachine.Action
            switch ending {
            case .failed(let error):
                action = .fail(error)
            case .retry(let failure):
                var result = TransferStateMachine.Action.proceed
                state.update(id) { result = $0.machine.failed(failure, now: Date(), unitRandom: Double.random(in: 0..<1)) }
                action = result
                if case .fail = action, let failed = state.transfers[id] { state.keepResumable(of: failed) }
            case .restart:
                action = .wait(.zero, attempt: transfer.machine.attempts)
            case .complete:
                var result = TransferStateMachine.Action.proceed
                state.update(id) { result = $0.machine.finished() }
                action = result
            }
            switch action {
            case .wait(let delay, let attempt):
                state.update(id) { $0.phase = .waiting }
                let reason: ImageDownloadError
                switch ending {
                case .retry(let failure): reason = failure.error
                case .failed(let error): reason = error
                // What ImageDownloader reports for a restart: the answer that forced it.
                case .restart(let status): reason = .badStatus(status)
                case .complete: reason = .cancelled
                }
                return .wait(delay, attempt: attempt, reason)
            case .complete(let bytes):
                guard case .complete(let head) = ending else { return .none }
                if state.joinable[transfer.key] == id { state.joinable[transfer.key] = nil }
                return .deliver(bytes, head)
            case .fail(let error):
                return .fail(state.remove(id)?.orderedCallers ?? [], error)
            case .proceed, .restart:
                return .fail(state.remove(id)?.orderedCallers ?? [], .cancelled)
            }
        }
        // The events at the steps ImageDownloader reports them: each attempt's end, then
        // what follows it (a retry, the bytes, or nothing more).
        switch next {
        case .none:
            return
        case .abandoned:
            emit(.stopped(url, error: .cancelled))
        case .fail(let callers, let error):
            emit(.stopped(url, error: error))
            for caller in callers { caller.complete(.failure(error)) }
        case .wait(let delay, let attempt, let reason):
            // A restart (the range answer could not continue the bytes) too, as
            // ImageDownloader reports it: a retry at once, with the same attempt number.
            emit(.stopped(url, error: reason))
            emit(.retrying(url, attempt: attempt, delay: delay, error: reason))
            scheduleRetry(id, after: delay)
        case .deliver(let bytes, let head):
            emit(.stopped(url, error: nil))
            guard !bytes.isEmpty else {
                for caller in state.withLock({ $0.remove(id)?.orderedCallers ?? [] }) { caller.complete(.failure(.emptyBody)) }
                return
            }
            guard let transform = configuration.hooks.transformData else {
                finish(id, url: url, bytes: bytes, response: head)
                return
            }
            track { [self] in
                do throws(ImageDownloadError) {
                    finish(id, url: url, bytes: try await transform(bytes, head), response: head)
                } catch {
                    for caller in state.withLock({ $0.remove(id)?.orderedCallers ?? [] }) { caller.complete(.failure(error)) }
                }
            }
        }
    }

    private func finish(_ id: Int, url: URL, bytes: [UInt8], response: ImageDownloadResponse) {
        guard let callers = state.withLock({ $0.remove(id)?.orderedCallers }) else { return }
        guard !bytes.isEmpty else {
            for caller in callers { caller.complete(.failure(.emptyBody)) }
            return
        }
        // Before the completions, so that observers see it before callers move on.
        emit(.finished(url))
        instruments.delivered(url, bytes: bytes.count)
        let result = ImageDownloadResult(bytes: bytes, response: response)
        for caller in callers { caller.complete(.success(result)) }
    }

    /// After the wait, queues the transfer again (unless every caller left). The wait
    /// holds no slot, so a waiting retry never holds up other downloads.
    private func scheduleRetry(_ id: Int, after delay: Duration) {
        track { [self] in
            try? await Task.sleep(for: delay)
            let toStart: [Int] = state.withLock { state in
                guard !state.isShutDown, !Task.isCancelled, let transfer = state.transfers[id],
                      case .waiting = transfer.phase else { return [] }
                state.update(id) { $0.phase = .queued }
                return state.queue.enqueue(id, priority: transfer.priority)
            }
            start(toStart)
        }
    }

    /// Runs `work` in a task that ``shutdown()`` cancels and waits for.
    private func track(_ work: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            guard !state.isShutDown else { return }
            let number = state.nextTask
            state.nextTask += 1
            state.activeTasks[number] = Task { [self] in
                await work()
                _ = self.state.withLock { $0.activeTasks.removeValue(forKey: number) }
            }
        }
    }

    // MARK: - Requests and responses

    private func makeRequest(_ request: ImageDownloadRequest, url: URL, attemptHeaders: [String: String]) -> HTTPClientRequest {
        var outgoing = HTTPClientRequest(url: url.absoluteString)
        outgoing.method = .GET
        for (name, value) in configuration.defaultHeaders { outgoing.headers.replaceOrAdd(name: name, value: value) }
        if let basic = configuration.credentials?.basicAuthorization { outgoing.headers.replaceOrAdd(name: "Authorization", value: basic) }
        for (name, value) in request.headers { outgoing.headers.replaceOrAdd(name: name, value: value) }
        for (name, value) in attemptHeaders { outgoing.headers.replaceOrAdd(name: name, value: value) }
        return outgoing
    }

    /// The head as the rest of Glimpse sees it: names lowercased, repeated fields joined
    /// with commas (RFC 9110 §5.3), the media type without parameters.
    static func response(_ response: HTTPClientResponse, url: URL) -> ImageDownloadResponse {
        var headers: [String: String] = [:]
        for (name, value) in response.headers {
            let key = name.lowercased()
            headers[key] = headers[key].map { $0 + ", " + value } ?? value
        }
        let mimeType = headers["content-type"].map {
            String($0.split(separator: ";", maxSplits: 1).first ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        }
        let length = headers["content-length"].flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
        return ImageDownloadResponse(url: url, statusCode: Int(response.status.code), headers: headers,
                                     mimeType: mimeType, expectedContentLength: length)
    }

    static let redirectStatuses: Set<UInt> = [301, 302, 303, 307, 308]

    static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        let capped = min(max(seconds, 0), 1 << 32)
        return .nanoseconds(capped * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
