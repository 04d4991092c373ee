import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ImageDownloader {
    typealias TransferID = TransferRegistry.TransferID

    /// Starts transfers the queue granted a slot: builds each request, runs the
    /// request modifier, then hands the task to URLSession (on ``sessionCalls``).
    func start(_ ids: [TransferID]) {
        // Every change of the queue ends here (with the transfers it let start, or none).
        if instruments.reportsQueue {
            let (running, pending) = state.withLock { ($0.queue.running.count, $0.queue.pendingCount) }
            instruments.queue(running: running, pending: pending)
        }
        for id in ids {
            let prepared = state.withLock { $0.registry.beginPreparing(id) }
            guard let (request, attemptHeaders) = prepared else { continue }
            if let range = attemptHeaders.first(where: { $0.0.caseInsensitiveCompare("Range") == .orderedSame }) {
                instruments.resuming(request.url, range: range.1)
            }
            var urlRequest = makeURLRequest(request)
            for (name, value) in attemptHeaders { urlRequest.setValue(value, forHTTPHeaderField: name) }
            if let modify = configuration.hooks.modifyRequest {
                Task { [self] in launch(id, await modify(urlRequest)) }
            } else {
                launch(id, urlRequest)
            }
        }
    }

    func makeURLRequest(_ request: ImageDownloadRequest) -> URLRequest {
        // URLSession's own timer is only a backstop for the connection phase
        // (the watchdog enforces the idle timeout); whole seconds, at least one.
        let timeout = request.timeout ?? configuration.timeout
        let seconds = max(1, (Double(timeout.components.seconds)
            + Double(timeout.components.attoseconds) / 1e18).rounded(.up))
        var urlRequest = URLRequest(url: request.url,
                                    cachePolicy: request.options.contains(.useURLCache) ? .useProtocolCachePolicy
                                                                                        : .reloadIgnoringLocalCacheData,
                                    timeoutInterval: seconds)
        urlRequest.httpShouldHandleCookies = request.options.contains(.handleCookies)
        for (name, value) in configuration.defaultHeaders { urlRequest.setValue(value, forHTTPHeaderField: name) }
        if let basic = configuration.credentials?.basicAuthorization { urlRequest.setValue(basic, forHTTPHeaderField: "Authorization") }
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        return urlRequest
    }

    /// Hands a prepared request to URLSession, unless every caller left meanwhile.
    private func launch(_ id: TransferID, _ request: URLRequest?) {
        guard let request, let url = request.url else {
            abandonPrepared(id, with: .cancelled)
            return
        }
        // Checked again: the request modifier may have changed the URL.
        guard configuration.allowedSchemes.allows(url.scheme) else {
            abandonPrepared(id, with: .invalidURL)
            return
        }
        if url.isFileURL {
            // corelibs' URLSession has no `file` data tasks ("unsupported URL").
            processing.async { [self] in loadFile(id, url: url) }
            return
        }
        screen(id, request, url: url)
    }

    /// Creates, prioritises and resumes the task of a prepared request, on
    /// ``sessionCalls``: each of the three waits for URLSession's work queue.
    func resumeTask(_ id: TransferID, _ request: URLRequest, url: URL) {
        // Every caller may have left while this waited its turn (their cancellation
        // freed the slot), and the sessions are invalidated on this queue after the flag
        // is set: checked here, no task is created for nobody or on an invalidated
        // session (which traps).
        let priority: ImageDownloadPriority? = state.withLock { state in
            guard !state.isInvalidated else { return nil }
            return state.registry.read(id) { transfer -> ImageDownloadPriority? in
                guard case .preparing = transfer.phase else { return nil }
                return transfer.priority
            } ?? nil
        }
        guard let priority else { return }
        // Created outside the lock; it cannot report anything before `resume()`.
        let task = (request.httpShouldHandleCookies ? cookieSession : session).dataTask(with: request)
        // Outside the state lock: the setter synchronises with URLSession's own queue, whose
        // thread may be waiting for that lock to report another task's events.
        task.priority = priority.sessionPriority
        let launched: Bool = state.withLock { state in
            guard state.registry.beginRunning(id, task: task) else { return false }
            state.transferOfTask[ObjectIdentifier(task)] = TaskEntry(transfer: id, url: url)
            return true
        }
        guard launched else { return }
        emit(.started(url))
        task.resume()
    }

    /// Fails a transfer that holds a slot but has no task.
    func abandonPrepared(_ id: TransferID, with error: ImageDownloadError) {
        let (transfer, toStart) = state.withLock { state in
            (state.registry.remove(id), state.queue.finish(id))
        }
        start(toStart)
        if let transfer { deliver(.failure(error), to: transfer.orderedCallers) }
    }

    /// Ends a transfer with `error` for every caller still waiting.
    func fail(_ id: TransferID, with error: ImageDownloadError, task: URLSessionTask? = nil) {
        let transfer = state.withLock { state in
            if let task { state.transferOfTask[ObjectIdentifier(task)]?.failure = error }
            return state.registry.remove(id)
        }
        guard let transfer else { return }
        deliver(.failure(error), to: transfer.orderedCallers)
    }

    func deliver(_ result: Result<ImageDownloadResult, ImageDownloadError>,
                 to callers: [(id: TransferRegistry.CallerID, caller: TransferRegistry.Caller)]) {
        complete(callers) { _ in result }
    }

    /// Completes callers with their results: on the callback queue (after the
    /// progress already scheduled for them), or at once for continuations.
    func complete(_ callers: [(id: TransferRegistry.CallerID, caller: TransferRegistry.Caller)],
                  _ result: @escaping @Sendable (TransferRegistry.Caller) -> Result<ImageDownloadResult, ImageDownloadError>) {
        let direct = callers.filter { $0.caller.callbacks.resumesDirectly }
        let queued = direct.count == callers.count ? [] : callers.filter { !$0.caller.callbacks.resumesDirectly }
        if !direct.isEmpty {
            retire(direct.map(\.id))
            for (_, caller) in direct { caller.callbacks.completion(result(caller)) }
        }
        guard !queued.isEmpty else { return }
        callbacks.async { [self] in
            retire(queued.map(\.id))
            for (_, caller) in queued { caller.callbacks.completion(result(caller)) }
        }
    }

    /// Marks callers whose completion runs now: later progress is dropped.
    /// Called on the callback queue, so progress scheduled earlier still arrives.
    func retire(_ callers: [TransferRegistry.CallerID]) {
        state.withLock { state in
            for caller in callers { state.deliverable.remove(caller) }
        }
    }

    /// Runs `body` on the callback queue unless `caller` completed or cancelled by then.
    func deliverIfActive(_ caller: TransferRegistry.CallerID, _ body: @escaping @Sendable () -> Void) {
        callbacks.async { [self] in
            if state.withLock({ $0.deliverable.contains(caller) }) { body() }
        }
    }

    /// The data transform off the delegate queue: in a task (the hook is async).
    func postProcess(_ id: TransferID, url: URL, body: [UInt8], response: ImageDownloadResponse) {
        Task { [self] in
            await process(id, url: url, body: body, response: response)
        }
    }

    /// After the body is complete: the data transform, then the completions.
    func process(_ id: TransferID, url: URL, body: [UInt8], response: ImageDownloadResponse) async {
        guard !body.isEmpty else {
            fail(id, with: .emptyBody)
            return
        }
        var bytes = body
        if let transform = configuration.hooks.transformData {
            do throws(ImageDownloadError) {
                bytes = try await transform(body, response)
            } catch {
                fail(id, with: error)
                return
            }
        }
        finish(id, url: url, bytes: bytes, response: response)
    }

    /// Whether finishing a transfer needs more than handing out its bytes (a
    /// transform), and so belongs off the delegate queue.
    var needsProcessing: Bool { configuration.hooks.transformData != nil }

    /// Completes every caller with the bytes.
    func finish(_ id: TransferID, url: URL, bytes: [UInt8], response: ImageDownloadResponse) {
        guard !bytes.isEmpty else {
            fail(id, with: .emptyBody)
            return
        }
        guard let transfer = state.withLock({ $0.registry.remove(id) }) else { return }
        // Before the completions, so that observers see it before callers move on.
        emit(.finished(url))
        instruments.delivered(url, bytes: bytes.count)
        let result = ImageDownloadResult(bytes: bytes, response: response)
        complete(transfer.orderedCallers) { _ in .success(result) }
    }
}
