extension ImagePipeline {
    /// Stage 4: the bytes from the loader, with progress (and partial images
    /// for progressive loads, decoded on the executor) reported to every
    /// waiter of the job.
    ///
    /// Cancelling the job's task cancels its loader task; the downloader's own
    /// coalescing keeps other pipelines' callers unaffected.
    ///
    /// - Returns: the bytes and, for a progressive load, the feed whose decoder
    ///   saw them (the processing stage finishes it instead of decoding again).
    func downloadStage(_ request: LoadRequest, revalidation: Revalidation?, key: JobKey,
                       job: UInt64) async throws(ImageLoadError) -> (ImageDownloadResult, ProgressiveFeed?) {
        if let local = try await localOriginal(request.request, url: request.url) { return (local, nil) }
        if let shouldDownload = configuration.hooks.shouldDownload, !shouldDownload(request.url) {
            throw .downloadRefused
        }
        let priority = table.withLock { $0.priority(of: key, work: job) } ?? request.request.priority
        var download = ImageDownloadRequest(url: request.url, priority: priority, headers: request.request.headers,
                                            timeout: request.request.timeout, retryPolicy: request.request.retryPolicy)
        if let revalidation {
            // If-None-Match / If-Modified-Since (RFC 9110 §13.1.2, §13.1.3).
            download = download.revalidating(entityTag: revalidation.metadata.etag,
                                             lastModified: revalidation.metadata.lastModified)
        }
        // Progress is asked of the loader only when a waiter listens: each event
        // costs a hop to the downloader's callback queue per piece of the body
        // (four for a 50 KB image), which a load nobody watches should not pay.
        // A waiter that joins the job later gets its completion (and partial
        // images) but progress only if the job was started with a listener.
        let listens = table.withLock { table in table.waiters(of: key, work: job).contains { $0.progress != nil } }
        var handlers = ImageDataLoadingHandlers(completion: { _ in })
        if listens {
            handlers.progress = { [self] received, expected in
                reportProgress(key, job: job, received: received, expected: expected)
            }
        }
        var feed: ProgressiveFeed?
        if request.options.contains(.progressive) {
            let progressive = ProgressiveFeed(
                registry: configuration.decoderRegistry, options: configuration.decodingOptions(for: request.request),
                processors: request.request.processors, executor: executor, priority: priority,
                deliver: { [self] image in reportPartialImage(key, job: job, image: image) })
            handlers.data = { piece in progressive.append(piece) }
            feed = progressive
        }
        // Back-pressure: no new body while decode jobs and downloads under way hold the
        // executor's bound of bytes. A download holds a sixteenth of the bound until its body
        // is handed on (the decode job then declares the body's own size), so however many
        // loads start at once, at most sixteen download while nothing decodes and none
        // while the decodes queued fill the bound.
        let reservation = max(1, executor.maximumHeldBytes / 16)
        let waitStart = instruments.now()
        await executor.reserve(reservation)
        LoadMetricsRecorder.current?.addDownloadWait(instruments.now() - waitStart)
        defer { executor.release(reservation) }
        if Task.isCancelled {
            feed?.close()
            throw .cancelled
        }
        let holder = PendingCancellation<any ImageDataLoadingTask> { $0.cancel() }
        let loader = configuration.dataLoader
        typealias Outcome = Result<ImageDownloadResult, ImageDownloadError>
        let result: Outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                var calls = handlers
                calls.completion = { outcome in continuation.resume(returning: outcome) }
                let loading = loader.loadData(for: download, handlers: calls)
                holder.store(loading)
                // Priority changes of the job's waiters reach the loader from now on.
                setLoading(loading, key: key, job: job)
            }
        } onCancel: {
            holder.cancel()
        }
        setLoading(nil, key: key, job: job)
        switch result {
        case .success(let downloaded):
            return (downloaded, feed)
        case .failure(let error):
            feed?.close()
            throw .download(error)
        }
    }
}

extension ImagePipeline {
    /// Records (or clears) the loader's handle of a job, so that priority changes reach it.
    private func setLoading(_ loading: (any ImageDataLoadingTask)?, key: JobKey, job: UInt64) {
        _ = table.withLock { table in
            table.updateHandle(key, work: job) { handle in
                handle = JobHandle(task: handle?.task, loading: loading)
            }
        }
    }
}
