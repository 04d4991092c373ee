import Foundation

extension ImagePipeline {
    /// Makes sure the original bytes of `request` are in the data tier, without
    /// decoding them: the prefetcher's default.
    ///
    /// - Returns: ``ImageTier/disk`` when they already were,
    ///   ``ImageTier/network`` when they were loaded now, ``ImageTier/shared`` when another
    ///   process of the fleet held the shared tier's claim on them and stored them there
    ///   meanwhile (see ``ImageDataCaching/claimFetch(forKey:awaiting:)``).
    @discardableResult
    public func loadData(_ request: ImageRequest) async throws(ImageLoadError) -> ImageTier {
        let resolved: LoadRequest
        switch resolve(request) {
        case .success(let loadRequest): resolved = loadRequest
        case .failure(let error): throw error
        }
        let options = request.options
        guard configuration.cache.data != nil, resolved.usesDisk else { throw .notCached }
        if !options.contains(.fromLoaderOnly), await configuration.cache.containsData(forDataKey: resolved.key.base) {
            return .disk
        }
        if options.contains(.fromCacheOnly) { throw .notCached }
        if !options.contains(.retryFailed), let reason = failedURLs.failure(resolved.urlKey) {
            throw .failedRecently(reason)
        }
        let requestTime = Date()
        if let local = try await localOriginal(request, url: resolved.url) {
            await storeLoadedOriginal(local, resolved, requestTime: requestTime)
            return .network
        }
        if let shouldDownload = configuration.hooks.shouldDownload, !shouldDownload(resolved.url) {
            throw .downloadRefused
        }
        // One origin request per image across the fleet, as for loads; only the original counts here.
        var original = resolved
        original.key.variant = ""
        var fleetClaim: ImageDataFetchClaim?
        switch await claimOriginFetch(original) {
        case .claimed(let claim): fleetClaim = claim
        case .stored: return .shared
        case .uncoordinated: break
        }
        defer { if let fleetClaim { configuration.cache.releaseFetchClaim(fleetClaim) } }
        let download = ImageDownloadRequest(url: resolved.url, priority: request.priority, headers: request.headers,
                                            timeout: request.timeout, retryPolicy: request.retryPolicy)
        let loader = configuration.dataLoader
        let holder = PendingCancellation<any ImageDataLoadingTask> { $0.cancel() }
        typealias Outcome = Result<ImageDownloadResult, ImageDownloadError>
        let outcome: Outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                let handlers = ImageDataLoadingHandlers(completion: { continuation.resume(returning: $0) })
                holder.store(loader.loadData(for: download, handlers: handlers))
            }
        } onCancel: {
            holder.cancel()
        }
        let downloaded: ImageDownloadResult
        switch outcome {
        case .success(let result):
            downloaded = result
        case .failure(let error):
            let failure = ImageLoadError.download(error)
            if failure.isPermanent { failedURLs.insert(resolved.urlKey, reason: failure) }
            throw failure
        }
        failedURLs.remove(resolved.urlKey)
        await storeLoadedOriginal(downloaded, resolved, requestTime: requestTime)
        return .network
    }

    /// The original just loaded into the data tier, whatever the policy: nothing was
    /// processed to store instead.
    private func storeLoadedOriginal(_ downloaded: ImageDownloadResult, _ resolved: LoadRequest,
                                     requestTime: Date) async {
        var storing = resolved
        storing.request.processors = []
        storing.request.maximumPixelBytes = nil
        storing.request.options.remove(.firstFrameOnly)
        storing.key.variant = ""
        storing.request.options.insert(.waitForDiskStore)
        let response = downloaded.response
        guard configuration.httpCachePolicy.allowsStoring(headers: response.headers) else { return }
        let freshness = self.freshness(of: response, requestTime: requestTime)
        await storeOriginal(downloaded.bytes, metadata: metadata(of: response, storing, freshness: freshness), storing)
    }

    /// ``loadData(_:)`` for a URL.
    @discardableResult
    public func loadData(_ url: URL) async throws(ImageLoadError) -> ImageTier {
        try await loadData(ImageRequest(url: url))
    }
}
