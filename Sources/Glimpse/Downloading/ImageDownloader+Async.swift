import Foundation

extension ImageDownloader {
    /// Downloads (or joins the download of) `request`. Cancelling the calling
    /// task cancels this caller only.
    public func download(_ request: ImageDownloadRequest) async throws(ImageDownloadError) -> ImageDownloadResult {
        let holder = PendingCancellation<ImageDownloadToken> { $0.cancel() }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<ImageDownloadResult, ImageDownloadError>, Never>) in
                var callbacks = DownloadCallbacks(completion: { result in continuation.resume(returning: result) })
                callbacks.resumesDirectly = true
                let token = download(request, callbacks)
                holder.store(token)
            }
        } onCancel: {
            holder.cancel()
        }
        return try result.get()
    }

    /// Downloads the bytes at `url` with default options.
    public func download(_ url: URL, priority: ImageDownloadPriority = .normal) async throws(ImageDownloadError) -> ImageDownloadResult {
        try await download(ImageDownloadRequest(url: url, priority: priority))
    }
}
