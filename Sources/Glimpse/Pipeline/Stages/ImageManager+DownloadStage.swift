
extension ImageManager {
    /// Stage 4: the bytes from the network, with progress (and partial images
    /// for progressive loads) reported to every waiter of the job.
    ///
    /// Cancelling the job's task cancels its downloader caller; the
    /// downloader's own coalescing keeps other managers' callers unaffected.
    func downloadStage(_ request: LoadRequest, revalidation: Revalidation?, key: JobTable.Key,
                       job: UInt64) async throws(ImageLoadError) -> ImageDownloadResult {
        if let shouldDownload = configuration.hooks.shouldDownload, !shouldDownload(request.url) {
            throw .downloadRefused
        }
        var download = ImageDownloadRequest(url: request.url, priority: request.options.priority)
        if let revalidation {
            // If-None-Match / If-Modified-Since (RFC 9110 §13.1.2, §13.1.3).
            download = download.revalidating(entityTag: revalidation.metadata.etag,
                                             lastModified: revalidation.metadata.lastModified)
        }
        if request.options.progressive {
            download.decoding = ImageDownloadRequest.Decoding(options: request.options.decoding,
                                                               progressive: .interval(.milliseconds(100)))
        }
        let holder = PendingCancellation<ImageDownloadToken> { $0.cancel() }
        let downloader = configuration.downloader
        // Progress is asked of the downloader only when a waiter listens: each
        // event costs a hop to the downloader's callback queue per piece of the
        // body (four for a 50 KB image), which a load nobody watches should not pay.
        // A waiter that joins the job later gets its completion (and partial
        // images) but progress only if the job was started with a listener.
        let (listens, wantsPartial) = table.withLock { table in
            let waiters = table.waiters(of: key, job: job)
            return (waiters.contains { $0.progress != nil }, waiters.contains { $0.partialImage != nil })
        }
        var progress: (@Sendable (Int64, Int64?) -> Void)?
        if listens {
            progress = { [self] received, expected in
                reportProgress(key, job: job, received: received, expected: expected)
            }
        }
        let handleProgress = progress
        var partial: (@Sendable (Image) -> Void)?
        if request.options.progressive {
            partial = { [self] image in reportPartialImage(key, job: job, image: image) }
        }
        let handlePartial = partial
        let ordered = request.options.progressive || listens || wantsPartial
        typealias Outcome = Result<ImageDownloadResult, ImageDownloadError>
        let result: Outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                var callbacks = DownloadCallbacks(progress: handleProgress, partialImage: handlePartial) { outcome in
                    continuation.resume(returning: outcome)
                }
                // Without event handlers, resuming needs no hop to the callback
                // queue. With them, the completion queues behind every progress
                // event and partial image, so none can reach a waiter after its completion.
                callbacks.resumesDirectly = !ordered
                let token = downloader.download(download, callbacks)
                holder.store(token)
            }
        } onCancel: {
            holder.cancel()
        }
        switch result {
        case .success(let downloaded): return downloaded
        case .failure(let error): throw .download(error)
        }
    }
}
