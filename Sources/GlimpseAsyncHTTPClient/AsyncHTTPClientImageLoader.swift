import AsyncHTTPClient
import Foundation
import Glimpse
import GlimpseCache

/// An ``ImageDataLoading`` on a caller-given AsyncHTTPClient `HTTPClient`: for a
/// server that already runs one (Vapor's, Hummingbird's), so that image downloads
/// share its event loops and connection pools, speak HTTP/2, and do not go through libcurl
/// (a program still links libcurl, through `Glimpse`'s URLSession downloader).
///
/// ```swift
/// import AsyncHTTPClient
/// import Glimpse
/// import GlimpseAsyncHTTPClient
///
/// let client = HTTPClient(eventLoopGroupProvider: .singleton,
///                         configuration: .init(redirectConfiguration: .disallow))
/// var configuration = ImagePipeline.Configuration.standard()
/// configuration.dataLoader = AsyncHTTPClientImageLoader(client: client)
/// let pipeline = ImagePipeline(configuration: configuration)
/// ```
///
/// It behaves as ``ImageDownloader`` does, from the same value-type core: a bounded
/// queue ordered by priority (`DownloadQueue`), one transfer for identical requests
/// (coalescing; each caller cancels alone), retries with backoff and `Retry-After`
/// (``RetryPolicy``), resumption of a cut body with `Range`/`If-Range` (RFC 9110 §14.2,
/// §13.1.5) within one load and across loads (`TransferStateMachine`,
/// `ResumableDataStore`), the size cap and content-type checks, and the
/// ``AddressPolicy``: a host is resolved and checked before any connection is made.
/// Progress and body pieces reach callers as the streamed body arrives. The contract
/// it keeps is ``ImageDataLoading``'s.
///
/// It reads these fields of its ``ImageDownloader/Configuration``:
/// `maximumConcurrentDownloads`, `executionOrder`, `defaultHeaders`, `credentials`,
/// `acceptableStatusCodes`, `acceptableContentTypes`, `rejectedContentTypes`,
/// `retryPolicy`, `resumption`, `maximumResponseSize`, `allowedSchemes` (`http`,
/// `https`), `addressPolicy`, `hostResolver`, `maximumRedirects`, `transferDeadline`
/// (the deadline of each attempt, 5 minutes when `nil`), `timeout` (the idle timeout,
/// or the request's), `minimumTransferRate`, `hooks.validateResponse` and
/// `hooks.transformData`, `logger` and `metricsFactory` (the same log records and metrics
/// as ``ImageDownloader``'s: ``GlimpseObservability/MetricName``). The loader keeps the idle timeout and the minimum rate
/// itself, per request, as ``ImageDownloader`` does: the client's `timeout.read` is one
/// value for every request, and a trickling origin never trips it. The URLSession-only
/// fields (session configuration, `hooks.modifyRequest`, cookies, the notification
/// center) do not apply.
///
/// **Redirects.** Create the client with `redirectConfiguration: .disallow`: the
/// loader then follows redirects itself (up to `maximumRedirects`), checking every
/// target's scheme and address before connecting to it. A client that follows
/// redirects itself has connected to each target before the loader sees it; the
/// loader still checks every hop of the response's history and fails the load on a
/// refused one, but cannot prevent that connection.
///
/// **Events.** ``events()`` streams ``ImageDownloadEvent``s as ``ImageDownloader/events()``
/// does, one sequence per HTTP transfer (coalesced callers share it) and the same at each
/// step: `started` when an attempt connects (after its address check), `redirected` for
/// each hop the loader follows, `receivedResponse` with the final head's status, `stopped`
/// when an attempt ends (with its error, `nil` for a whole body), `retrying` after the
/// `stopped` of an attempt that will be tried again (a resumed attempt is one whose
/// `receivedResponse` says `206`), and `finished` before the callers are completed with
/// the bytes. Any number of observers; ``shutdown()`` finishes every stream.
///
/// **Shutdown.** ``shutdown()`` cancels every load, refuses later ones and returns
/// once every transfer has stopped. The client is the caller's: shut it down after
/// the loader (and after the pipeline: ``ImagePipeline/shutdown(deadline:)``).
public final class AsyncHTTPClientImageLoader: ImageDataLoading {
    /// The client every request goes through (the caller's; never shut down here).
    public let client: HTTPClient
    public let configuration: ImageDownloader.Configuration
    let state: Lock<State>
    /// The configuration's logger and metrics factory, fed as ``ImageDownloader`` feeds
    /// them: the same records and metric names, so a dashboard does not care which loader ran.
    let instruments: DownloaderInstruments
    /// The streams ``events()`` handed out, finished by ``shutdown()``.
    let observers = DownloadEventObservers()

    /// - Parameters:
    ///   - client: the client to send requests with; see the type's notes on redirects.
    ///   - configuration: limits, checks and retries, as for ``ImageDownloader``.
    public init(client: HTTPClient, configuration: ImageDownloader.Configuration = ImageDownloader.Configuration()) {
        self.client = client
        self.configuration = configuration
        instruments = DownloaderInstruments(logger: configuration.logger, metrics: configuration.metricsFactory)
        state = Lock(State(queue: DownloadQueue(maximumConcurrent: configuration.maximumConcurrentDownloads,
                                                 order: configuration.executionOrder),
                            resumables: ResumableDataStore(limits: configuration.resumption)))
    }

    // MARK: - ImageDataLoading

    public func loadData(for request: ImageDownloadRequest, handlers: ImageDataLoadingHandlers) -> any ImageDataLoadingTask {
        let gate = CallerGate()
        if let refusal = refusal(of: request) {
            instruments.refused(request.url, redirect: false, refusal)
            Self.completeSoon(gate, handlers, .failure(refusal))
            return LoadTask(caller: nil, loader: self)
        }
        let attached: (caller: UInt64, toStart: [Int])? = state.withLock { state in
            guard !state.isShutDown else { return nil }
            let caller = state.attach(request, Caller(priority: request.priority, handlers: handlers, gate: gate),
                                      retryPolicy: configuration.retryPolicy, resumes: configuration.resumption.isEnabled)
            return (caller.id, caller.toStart)
        }
        guard let attached else {
            Self.completeSoon(gate, handlers, .failure(.cancelled))
            return LoadTask(caller: nil, loader: self)
        }
        start(attached.toStart)
        return LoadTask(caller: attached.caller, loader: self)
    }

    /// Cancels every load (each completes with ``ImageDownloadError/cancelled``), refuses
    /// later ones and returns once every attempt and retry wait has ended. Idempotent.
    public func shutdown() async {
        let (callers, tasks): ([Caller], [Task<Void, Never>]) = state.withLock { state in
            state.isShutDown = true
            _ = state.queue.removeAllPending()
            let callers = state.removeAll()
            return (callers, Array(state.activeTasks.values))
        }
        // Before the cancellations, as ``ImageDownloader/invalidate()``: the stops of the
        // transfers cancelled here are not reported.
        observers.finish()
        for caller in callers { caller.complete(.failure(.cancelled)) }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }

    // MARK: - Events

    /// A stream of transfer events, from now until ``shutdown()`` or until the stream is
    /// dropped: the same events, at the same steps, as ``ImageDownloader/events()``.
    /// Each call makes a stream of its own; a stream made after ``shutdown()`` is finished.
    public func events() -> AsyncStream<ImageDownloadEvent> {
        observers.makeStream()
    }

    /// Logs and counts `event` (``DownloaderInstruments``), then hands it to the streams.
    func emit(_ event: ImageDownloadEvent) {
        instruments.observe(event)
        observers.yield(event)
    }

    // MARK: - Queue

    /// Loads waiting for a slot.
    public var queuedDownloadCount: Int { state.withLock { $0.queue.pendingCount } }

    /// Transfers holding a slot.
    public var currentDownloadCount: Int { state.withLock { $0.queue.running.count } }

    /// Callers still waiting for a completion.
    public var waitingCallerCount: Int { state.withLock { $0.transferOfCaller.count } }

    /// Stops starting queued transfers; running ones continue.
    public func suspend() {
        state.withLock { $0.queue.suspend() }
    }

    /// Starts queued transfers again.
    public func resume() {
        start(state.withLock { $0.queue.resume() })
    }

    func cancel(caller: UInt64) -> Bool {
        let detached: (Caller, Task<Void, Never>?)? = state.withLock { state in
            state.detach(caller)
        }
        guard let (entry, task) = detached else { return false }
        let completed = entry.complete(.failure(.cancelled))
        // The slot is freed when the attempt's task has ended, so that the origin never
        // sees more connections than the limit.
        task?.cancel()
        return completed
    }

    func setPriority(_ priority: ImageDownloadPriority, caller: UInt64) {
        state.withLock { state in
            guard let id = state.transferOfCaller[caller] else { return }
            state.update(id) { transfer in
                transfer.callers[caller]?.priority = priority
            }
            if let effective = state.transfers[id]?.priority { state.queue.setPriority(id, effective) }
        }
    }

    /// Refusals that need no network: the scheme, the host, TLS leniency.
    private func refusal(of request: ImageDownloadRequest) -> ImageDownloadError? {
        let scheme = request.url.scheme?.lowercased()
        guard scheme == "http" || scheme == "https", configuration.allowedSchemes.allows(scheme) else { return .invalidURL }
        guard let host = request.url.host, !host.isEmpty else { return .invalidURL }
        // The client's TLS configuration decides about certificates, not a request.
        if request.options.contains(.allowInvalidCertificates) { return .invalidCertificatesNotSupported }
        return nil
    }

    /// A completion for a load refused before it was queued: not on the caller's thread,
    /// which may hold a lock of its own while it asks for the load.
    private static func completeSoon(_ gate: CallerGate, _ handlers: ImageDataLoadingHandlers,
                                     _ result: Result<ImageDownloadResult, ImageDownloadError>) {
        Task {
            if gate.close() { handlers.completion(result) }
        }
    }
}

extension AsyncHTTPClientImageLoader {
    /// One caller's handle: cancel it or change its priority.
    struct LoadTask: ImageDataLoadingTask {
        /// `nil` for loads refused before they were queued.
        let caller: UInt64?
        let loader: AsyncHTTPClientImageLoader

        @discardableResult
        func cancel() -> Bool {
            guard let caller else { return false }
            return loader.cancel(caller: caller)
        }

        func setPriority(_ priority: ImageDownloadPriority) {
            guard let caller else { return }
            loader.setPriority(priority, caller: caller)
        }
    }
}
