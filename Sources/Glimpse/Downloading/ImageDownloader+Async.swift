import Foundation
import Synchronization

extension ImageDownloader {
    /// Downloads (or joins the download of) `request`. Cancelling the calling
    /// task cancels this caller only.
    public func download(_ request: ImageDownloadRequest) async throws(ImageDownloadError) -> ImageDownloadResult {
        let holder = TokenHolder()
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

/// Carries a token from the continuation to the cancellation handler, which
/// may run before the token exists.
private final class TokenHolder: Sendable {
    private struct Slot: Sendable {
        var token: ImageDownloadToken?
        var isCancelled = false
    }

    private let slot = Mutex(Slot())

    func store(_ token: ImageDownloadToken) {
        let cancelNow = slot.withLock { slot in
            slot.token = token
            return slot.isCancelled
        }
        if cancelNow { token.cancel() }
    }

    func cancel() {
        let token = slot.withLock { slot in
            slot.isCancelled = true
            return slot.token
        }
        token?.cancel()
    }
}
