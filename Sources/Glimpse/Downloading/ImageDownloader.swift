import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GlimpseCache

/// Downloads images over URLSession: a bounded, prioritised queue; concurrent
/// requests for one resource share one transfer; per-caller progress, body
/// pieces and cancellation; typed errors. It moves bytes only: decoding is
/// the pipeline's (one registry, on the pipeline's executor).
///
/// All mutable state — the ``DownloadQueue`` and ``TransferRegistry`` state
/// machines — lives in one `Mutex`. Methods take the lock, let the state
/// machines decide, and perform the resulting actions (start tasks, cancel
/// tasks, call back) after releasing it. Callbacks run on a private serial
/// queue, so that one caller's callbacks never overlap and none follows its
/// completion; callers of the async API are resumed directly.
///
/// Linux notes (swift-corelibs-foundation): invalid TLS certificates cannot be
/// allowed (``ImageDownloadError/invalidCertificatesNotSupported``); the idle
/// timeout is enforced here; requests without cookies use a session without
/// cookie storage; `file` URLs are read directly. See `Downloading.md`.
public final class ImageDownloader: Sendable {
    public let configuration: Configuration
    /// For requests without ``ImageDownloadRequest/Options/handleCookies``: no
    /// cookie storage at all, because corelibs' URLSession ignores a request's
    /// `httpShouldHandleCookies` and would send stored cookies anyway.
    let session: URLSession
    /// For requests with ``ImageDownloadRequest/Options/handleCookies``.
    let cookieSession: URLSession
    let state: Lock<State>
    /// The streams ``events()`` handed out, finished by ``invalidate()``.
    let observers = DownloadEventObservers()
    let callbacks = DispatchQueue(label: "Glimpse.ImageDownloader.callbacks")
    /// URLSession's delegate events, in the order URLSession reports them,
    /// except those ``handlesEventsInline`` lets run where they are reported.
    let eventQueue = DispatchQueue(label: "Glimpse.ImageDownloader.events")
    /// Whether response heads and body pieces are handled on URLSession's own
    /// thread (see ``SessionDelegateQueue``): only when that runs no user code,
    /// that is without a response validator or a notification center.
    let handlesEventsInline: Bool
    /// The URLSession calls that wait for URLSession's work queue: creating a
    /// task, setting its priority, resuming it (corelibs runs each as a
    /// `DispatchQueue.sync` on a queue that every session of the process
    /// shares), and invalidating the sessions after them. While large bodies
    /// arrive that queue is busy with libcurl's callbacks, one per 16 KiB
    /// piece, and a call waited up to 80 ms behind them; made from a caller's
    /// thread — in the pipeline, one of the cooperative pool's few threads —
    /// that stalled every other task of the process (`bench-pipeline`'s
    /// latency-under-load). Serial, so that a task's calls keep their order.
    let sessionCalls = DispatchQueue(label: "Glimpse.ImageDownloader.session-calls")
    /// File reads. Dispatch rather than tasks: synchronous, possibly long work
    /// must not occupy the cooperative pool (and must not wait for it when
    /// other code keeps it busy).
    let processing = DispatchQueue(label: "Glimpse.ImageDownloader.processing", attributes: .concurrent)
    /// Runs the idle-timeout watchdog: ``Configuration/timeout`` is enforced
    /// by the downloader because corelibs' URLSession does not time out a
    /// server that stalls after the response head. A dispatch queue rather
    /// than a task, so that a busy cooperative pool cannot delay it.
    let watchdog = DispatchQueue(label: "Glimpse.ImageDownloader.watchdog")
    /// The configuration's logger and metrics, with their handles made once.
    let instruments: DownloaderInstruments

    struct TaskEntry: Sendable {
        var transfer: TransferRegistry.TransferID
        var url: URL
        /// Why the downloader cancelled the task, for the `stopped` event.
        var failure: ImageDownloadError?
        /// When the attempt was handed to URLSession, for the transfer deadline.
        var started: ContinuousClock.Instant = .now
        /// Redirects followed so far.
        var redirects = 0
    }

    struct State: Sendable {
        var queue: DownloadQueue
        var registry = TransferRegistry()
        /// Running URLSession tasks (of either session; task identifiers are
        /// per session, hence object identity); an entry lives until the task
        /// completes, which is when its slot is freed.
        var transferOfTask: [ObjectIdentifier: TaskEntry] = [:]
        var isInvalidated = false
        /// Callers whose completion has not run yet and who did not cancel:
        /// progress and partial images go only to these. Kept apart from the
        /// registry because a caller leaves the registry when its completion is
        /// scheduled, and the progress scheduled before it must still arrive.
        var deliverable: Set<TransferRegistry.CallerID> = []
        /// First parts of failed transfers, for later requests.
        var resumables: ResumableDataStore
    }

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        instruments = DownloaderInstruments(logger: configuration.logger, metrics: configuration.metricsFactory)
        state = Lock(State(queue: DownloadQueue(maximumConcurrent: configuration.maximumConcurrentDownloads,
                                                 order: configuration.executionOrder),
                            resumables: ResumableDataStore(limits: configuration.resumption)))
        handlesEventsInline = configuration.hooks.validateResponse == nil && configuration.notificationCenter == nil
        let bridge = SessionDelegateBridge()
        let delegateQueue = SessionDelegateQueue()
        let cookieFree = configuration.makeSessionConfiguration()
        cookieFree.httpCookieStorage = nil
        cookieFree.httpShouldSetCookies = false
        cookieFree.httpCookieAcceptPolicy = .never
        session = URLSession(configuration: cookieFree, delegate: bridge, delegateQueue: delegateQueue)
        cookieSession = URLSession(configuration: configuration.makeSessionConfiguration(), delegate: bridge,
                                   delegateQueue: delegateQueue)
        bridge.attach(self)
        scheduleWatchdog()
    }

    /// Checks for idle transfers every quarter of the timeout (10 ms…1 s),
    /// until the downloader is invalidated or released.
    private func scheduleWatchdog() {
        let timeout = configuration.timeout
        let tick = min(.seconds(1), max(.milliseconds(10), min(timeout, configuration.transferDeadline ?? timeout) / 4))
        let nanoseconds = Int(tick.components.seconds) * 1_000_000_000 + Int(tick.components.attoseconds / 1_000_000_000)
        watchdog.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [weak self] in
            guard let self, !state.withLock({ $0.isInvalidated }) else { return }
            expireIdleTransfers(olderThan: timeout)
            expireOverdueTransfers()
            scheduleWatchdog()
        }
    }

    deinit {
        // Asynchronously: the last reference may be released on URLSession's
        // own thread (the bridge handles events there), where invalidating,
        // which waits for that thread, would trap.
        let sessions = (session, cookieSession)
        DispatchQueue.global().async {
            sessions.0.invalidateAndCancel()
            sessions.1.invalidateAndCancel()
        }
    }

    // MARK: - Requests

    /// Starts (or joins) a download and reports through callbacks, which run
    /// on the downloader's serial callback queue.
    ///
    /// - Parameters:
    ///   - progress: `(received, expected)` bytes of the transfer.
    ///   - completion: called exactly once (unless the token was cancelled after
    ///     the completion was already scheduled, in which case `cancel()` returns false).
    @discardableResult
    public func download(_ request: ImageDownloadRequest,
                         progress: (@Sendable (_ received: Int64, _ expected: Int64?) -> Void)? = nil,
                         completion: @escaping @Sendable (Result<ImageDownloadResult, ImageDownloadError>) -> Void)
        -> ImageDownloadToken {
        download(request, DownloadCallbacks(progress: progress, completion: completion))
    }

    func download(_ request: ImageDownloadRequest, _ handlers: DownloadCallbacks) -> ImageDownloadToken {
        let completion = handlers.completion
        if let refusal = refusal(of: request) {
            callbacks.async { completion(.failure(refusal)) }
            return ImageDownloadToken(id: .max, downloader: nil)
        }
        let (attached, toStart): ((caller: UInt64, transfer: Int, isNew: Bool)?, [Int]) = state.withLock { state in
            guard !state.isInvalidated else { return (nil, []) }
            let key = request.transferKey
            let resumable = state.registry.isJoinable(key) ? nil : state.resumables.take(key, now: .now)
            let attached = state.registry.attach(request, callbacks: handlers, retryPolicy: configuration.retryPolicy,
                                                 resumes: configuration.resumption.isEnabled, resumable: resumable)
            state.deliverable.insert(attached.caller)
            var toStart: [Int] = []
            if attached.isNew {
                toStart = state.queue.enqueue(attached.transfer, priority: request.priority)
            } else if let priority = state.registry.read(attached.transfer, { $0.priority }) {
                state.queue.setPriority(attached.transfer, priority)
            }
            return (attached, toStart)
        }
        guard let attached else {
            callbacks.async { completion(.failure(.cancelled)) }
            return ImageDownloadToken(id: .max, downloader: nil)
        }
        start(toStart)
        return ImageDownloadToken(id: attached.caller, downloader: self)
    }

    private func refusal(of request: ImageDownloadRequest) -> ImageDownloadError? {
        let url = request.url
        guard configuration.allowedSchemes.allows(url.scheme) else { return .invalidURL }
        if url.scheme?.lowercased() != "file", (url.host ?? "").isEmpty { return .invalidURL }
        if request.options.contains(.allowInvalidCertificates) { return .invalidCertificatesNotSupported }
        return nil
    }

    func cancel(caller: UInt64) -> Bool {
        let outcome: (TransferRegistry.Detached, URLSessionDataTask?, [Int])? = state.withLock { state in
            guard let detached = state.registry.detach(caller) else { return nil }
            // Nothing reaches a cancelled caller but its `.cancelled` completion.
            state.deliverable.remove(caller)
            var task: URLSessionDataTask?
            var toStart: [Int] = []
            if let abandoned = detached.abandoned {
                switch abandoned.phase {
                case .queued:
                    _ = state.queue.removePending(detached.transfer)
                case .preparing:
                    toStart = state.queue.finish(detached.transfer)
                case .running(let running):
                    // The slot is freed when URLSession reports the task complete,
                    // so that the server never sees more connections than the limit.
                    task = running
                    Self.keepResumable(of: abandoned, in: &state)
                case .waiting:
                    // No slot and no task; the retry timer finds the transfer gone.
                    Self.keepResumable(of: abandoned, in: &state)
                case .processing:
                    break
                }
            }
            return (detached, task, toStart)
        }
        guard let (detached, task, toStart) = outcome else { return false }
        let completion = detached.caller.callbacks.completion
        if detached.caller.callbacks.resumesDirectly {
            completion(.failure(.cancelled))
        } else {
            callbacks.async { completion(.failure(.cancelled)) }
        }
        task?.cancel()
        start(toStart)
        return true
    }

    func setPriority(_ priority: ImageDownloadPriority, caller: UInt64) {
        let running: (URLSessionDataTask, ImageDownloadPriority)? = state.withLock { state in
            guard let (transfer, effective) = state.registry.setPriority(priority, of: caller) else { return nil }
            state.queue.setPriority(transfer, effective)
            guard case .running(let task)? = state.registry.read(transfer, { $0.phase }) else { return nil }
            return (task, effective)
        }
        // A running transfer keeps its slot; URLSession may still favour it.
        if let (task, effective) = running {
            sessionCalls.async { task.priority = effective.sessionPriority }
        }
    }

    func isActive(caller: UInt64) -> Bool {
        state.withLock { $0.registry.isActive(caller) }
    }

    // MARK: - Controls

    /// Stops starting queued transfers; running ones continue.
    public func suspend() {
        state.withLock { $0.queue.suspend() }
    }

    /// Starts queued transfers again.
    public func resume() {
        start(state.withLock { $0.queue.resume() })
    }

    /// Whether the queue is suspended.
    public var isSuspended: Bool { state.withLock { $0.queue.isSuspended } }

    /// Transfers holding a slot (running, or preparing their request).
    public var currentDownloadCount: Int { state.withLock { $0.queue.running.count } }

    /// Transfers waiting for a slot.
    public var queuedDownloadCount: Int { state.withLock { $0.queue.pendingCount } }

    /// Callers still waiting for a completion.
    public var waitingCallerCount: Int { state.withLock { $0.registry.callerCount } }

    /// Changes the concurrency limit; more transfers start at once if it grew.
    public func setMaximumConcurrentDownloads(_ limit: Int) {
        start(state.withLock { state in
            state.queue.maximumConcurrent = max(1, limit)
            return state.queue.startReady()
        })
    }

    /// Cancels every caller (each receives ``ImageDownloadError/cancelled``).
    public func cancelAll() {
        // Queued transfers go first and at once, so that freeing a running
        // transfer's slot cannot start one of them meanwhile.
        let (queuedCallers, others) = state.withLock { state in
            let queued = state.queue.removeAllPending().compactMap { state.registry.remove($0) }
            return (queued.flatMap(\.orderedCallers), state.registry.allCallers)
        }
        deliver(.failure(.cancelled), to: queuedCallers)
        for caller in others {
            _ = cancel(caller: caller)
        }
    }

    /// Cancels everything and refuses later requests (they fail with
    /// ``ImageDownloadError/cancelled``); then invalidates the sessions, in the
    /// background (URLSession waits for its work queue to do so).
    public func invalidate() {
        state.withLock { $0.isInvalidated = true }
        // First: the stops of the transfers cancelled here are not reported.
        observers.finish()
        cancelAll()
        // After every launch already queued there: each later one sees `isInvalidated`
        // and creates no task (corelibs traps on a task of an invalidated session).
        sessionCalls.async { [session, cookieSession] in
            session.invalidateAndCancel()
            cookieSession.invalidateAndCancel()
        }
    }

    /// A stream of transfer events, from now until the downloader is invalidated
    /// or the stream is dropped.
    public func events() -> AsyncStream<ImageDownloadEvent> {
        observers.makeStream()
    }

    /// Posts the notification before the stream sees the event, so that an
    /// observer woken by an event finds its notification already delivered.
    func emit(_ event: ImageDownloadEvent) {
        instruments.observe(event)
        if let center = configuration.notificationCenter {
            let (name, url): (Notification.Name, URL) = switch event {
            case .started(let url): (.glimpseDownloadStart, url)
            case .receivedResponse(let url, _): (.glimpseDownloadReceiveResponse, url)
            case .retrying(let url, _, _, _): (.glimpseDownloadRetry, url)
            case .redirected(let url, _, _, _): (.glimpseDownloadRedirect, url)
            case .stopped(let url, _): (.glimpseDownloadStop, url)
            case .finished(let url): (.glimpseDownloadFinish, url)
            }
            center.post(name: name, object: self, userInfo: ["url": url])
        }
        observers.yield(event)
    }
}
