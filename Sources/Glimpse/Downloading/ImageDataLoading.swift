import Foundation

/// The loader: where the pipeline gets the bytes the caches do not have.
///
/// ``ImageDownloader`` (URLSession, coalescing, a prioritised queue) is the
/// default; `GlimpseAsyncHTTPClient`'s `AsyncHTTPClientImageLoader` runs the
/// same transfer core on an AsyncHTTPClient `HTTPClient`; a conformance could
/// also read an object store, a database or a bundle. A loader moves bytes
/// only: the pipeline decodes them.
///
/// ## The contract
///
/// What the pipeline relies on, and what every loader in this package does:
///
/// - **Callbacks.** Progress (`received`, `expected`) and body pieces arrive in
///   order, as the body arrives; then exactly one completion; nothing after it.
///   A loader may call back on any thread, but never two callbacks of one load
///   at once.
/// - **Status.** A `2xx` response (RFC 9110 §15.3) whose body is not empty is a
///   success, and its ``ImageDownloadResult/response`` carries the final URL,
///   status and header fields (names lowercased), which the pipeline reads for
///   caching (`Cache-Control`, `ETag`, `Last-Modified`). Any other final status
///   fails with ``ImageDownloadError/badStatus(_:)``; an empty body with
///   ``ImageDownloadError/emptyBody``. Redirects (RFC 9110 §15.4) are followed
///   by the loader, never reported.
/// - **`304`.** A request made conditional with
///   ``ImageDownloadRequest/revalidating(entityTag:lastModified:)`` whose
///   resource is unchanged fails with ``ImageDownloadError/notModified(_:)``
///   carrying the `304`'s head (RFC 9110 §15.4.5): the pipeline then serves its
///   stored copy and refreshes its freshness from those fields (RFC 9111 §4.3.4).
///   It is not an error the pipeline reports to its caller.
/// - **Errors.** Failures are ``ImageDownloadError`` values; the pipeline
///   remembers those whose ``ImageDownloadError/isPermanent`` is true for a
///   while (its failed-URL cache), so a loader must not call a transient
///   failure (a timeout, a reset connection, a `5xx`) permanent.
/// - **Cancellation.** ``ImageDataLoadingTask/cancel()`` completes that load
///   with ``ImageDownloadError/cancelled`` unless it already completed, and
///   sends nothing else to it afterwards; loads that share a transfer with it
///   go on.
/// - **Shutdown.** ``shutdown()`` cancels what is in flight, refuses later
///   loads (they complete with ``ImageDownloadError/cancelled``) and returns
///   when the loader's transfers have stopped. ``ImagePipeline/shutdown(deadline:)``
///   calls it last.
public protocol ImageDataLoading: Sendable {
    /// Starts loading `request` and reports through `handlers`: progress and
    /// body pieces in order, then exactly one completion (``ImageDownloadError/cancelled``
    /// after the returned task is cancelled), nothing after it.
    func loadData(for request: ImageDownloadRequest, handlers: ImageDataLoadingHandlers) -> any ImageDataLoadingTask

    /// Cancels every load, refuses new ones and returns once the transfers have
    /// stopped. The default does nothing (for loaders with nothing to stop).
    func shutdown() async
}

extension ImageDataLoading {
    public func shutdown() async {}
}

/// A running load of ``ImageDataLoading``.
public protocol ImageDataLoadingTask: Sendable {
    /// Stops this load; its completion receives ``ImageDownloadError/cancelled``
    /// unless it already completed.
    /// - Returns: whether it was still running.
    @discardableResult
    func cancel() -> Bool
    /// Changes the priority of the load (a queued one may start sooner).
    func setPriority(_ priority: ImageDownloadPriority)
}

/// What a loader reports to the pipeline.
public struct ImageDataLoadingHandlers: Sendable {
    /// `(received, expected)` bytes; `expected` is `nil` when unknown.
    public var progress: (@Sendable (_ received: Int64, _ expected: Int64?) -> Void)?
    /// Each piece of the body as it arrives, in order (for progressive decoding).
    public var data: (@Sendable (_ piece: [UInt8]) -> Void)?
    /// Called exactly once, after every progress report and piece.
    public var completion: @Sendable (Result<ImageDownloadResult, ImageDownloadError>) -> Void

    public init(progress: (@Sendable (Int64, Int64?) -> Void)? = nil, data: (@Sendable ([UInt8]) -> Void)? = nil,
                completion: @escaping @Sendable (Result<ImageDownloadResult, ImageDownloadError>) -> Void) {
        self.progress = progress
        self.data = data
        self.completion = completion
    }
}

extension ImageDownloader: ImageDataLoading {
    public func loadData(for request: ImageDownloadRequest, handlers: ImageDataLoadingHandlers) -> any ImageDataLoadingTask {
        var callbacks = DownloadCallbacks(progress: handlers.progress, completion: handlers.completion)
        callbacks.data = handlers.data
        // Without progress or pieces, the completion needs no hop to the callback queue
        // to stay behind them.
        callbacks.resumesDirectly = handlers.progress == nil && handlers.data == nil
        return download(request, callbacks)
    }

    /// Cancels every transfer and refuses later ones: ``invalidate()``.
    public func shutdown() async {
        invalidate()
    }
}

extension ImageDownloadToken: ImageDataLoadingTask {}
