import GlimpseCache

extension ImagePipeline {
    /// The stages in order: memory → data tier → loader (with revalidation) →
    /// decode and process → store.
    func flow(_ request: LoadRequest, key: JobTable.Key, job: UInt64) async throws(ImageLoadError) -> ImageResult {
        // Looked up again: the job may start just after another one stored the image.
        if let hit = memoryStage(request) { return hit }
        if let hit = try await diskStage(request) { return hit }
        if request.options.contains(.fromCacheOnly) { throw .notCached }

        // Every waiter may have left while the cache was consulted.
        if Task.isCancelled { throw .cancelled }
        var revalidation: Revalidation?
        if request.options.contains(.refreshCached) {
            revalidation = await validators(request)
            if request.options.contains(.deliverCachedFirst) { await deliverCached(request, key: key, job: job) }
        }
        let downloaded: ImageDownloadResult
        let feed: ProgressiveFeed?
        do throws(ImageLoadError) {
            (downloaded, feed) = try await downloadStage(request, revalidation: revalidation, key: key, job: job)
        } catch {
            if error == .download(.notModified), let revalidation {
                return try await notModified(request, cached: revalidation)
            }
            throw error
        }
        if Task.isCancelled {
            feed?.close()
            throw .cancelled
        }

        let processed = try await processingStage(downloaded.bytes, request, progressive: feed)
        storeStage(processed.image, request)
        await storeOriginal(downloaded.bytes, response: downloaded.response, request,
                            processedMissing: processed.encoded == nil)
        await storeProcessed(processed.encoded, request)
        return ImageResult(image: processed.image, data: downloaded.bytes, tier: .network, url: request.url,
                           response: downloaded.response)
    }

    struct Revalidation: Sendable {
        var data: [UInt8]
        var metadata: DiskCache.Metadata
    }

    /// The stored original and its validators (RFC 9110 §8.8) for a conditional
    /// request; `nil` without a stored entry or validators.
    private func validators(_ request: LoadRequest) async -> Revalidation? {
        guard request.usesDisk, let original = await configuration.cache.originalData(forKey: request.key.base) else {
            return nil
        }
        guard original.metadata.etag != nil || original.metadata.lastModified != nil else { return nil }
        return Revalidation(data: original.data, metadata: original.metadata)
    }

    /// ``ImageRequest/Options/deliverCachedFirst``: the cached image (memory, else
    /// the data tier's) as a preview for every waiter, before revalidating.
    private func deliverCached(_ request: LoadRequest, key: JobTable.Key, job: UInt64) async {
        if let image = configuration.cache.image(forKey: request.key) {
            reportPartialImage(key, job: job, image: image)
            return
        }
        var cached = request
        cached.request.options.remove(.refreshCached)
        if let hit = try? await diskStage(cached) { reportPartialImage(key, job: job, image: hit.image) }
    }

    /// 304 Not Modified (RFC 9110 §15.4.5): the cached copy is current.
    private func notModified(_ request: LoadRequest, cached: Revalidation) async throws(ImageLoadError) -> ImageResult {
        if let image = configuration.cache.image(forKey: request.key) {
            return ImageResult(image: image, data: cached.data, tier: .memory, url: request.url,
                               cacheMetadata: cached.metadata)
        }
        let processed = try await processingStage(cached.data, request)
        storeStage(processed.image, request)
        await storeProcessed(processed.encoded, request)
        return ImageResult(image: processed.image, data: cached.data, tier: .disk, url: request.url,
                           cacheMetadata: cached.metadata)
    }
}
