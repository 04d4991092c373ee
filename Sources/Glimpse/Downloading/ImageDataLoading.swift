import Foundation

/// The loader: where the pipeline gets the bytes the caches do not have.
///
/// ``ImageDownloader`` (URLSession, coalescing, a prioritised queue) is the
/// default; a conformance could read an object store, a database or a bundle.
/// A loader moves bytes only: the pipeline decodes them.
public protocol ImageDataLoading: Sendable {
    /// Starts loading `request` and reports through `handlers`: progress and
    /// body pieces in order, then exactly one completion (``ImageDownloadError/cancelled``
    /// after the returned task is cancelled), nothing after it.
    func loadData(for request: ImageDownloadRequest, handlers: ImageDataLoadingHandlers) -> any ImageDataLoadingTask
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
        var callbacks = DownloadCallbacks(progress: handlers.progress, partialImage: nil, completion: handlers.completion)
        callbacks.data = handlers.data
        // Without progress or pieces, the completion needs no hop to the callback queue
        // to stay behind them.
        callbacks.resumesDirectly = handlers.progress == nil && handlers.data == nil
        return download(request, callbacks)
    }
}

extension ImageDownloadToken: ImageDataLoadingTask {}
