import GlimpseCache

extension ImageManager {
    /// The stages in order: memory → disk → download (with revalidation) →
    /// decode → transform → store.
    func flow(_ request: LoadRequest, key: JobTable.Key, job: UInt64) async throws(ImageLoadError) -> ImageResult {
        // Looked up again: the job may start just after another one stored the image.
        if let hit = memoryStage(request) { return hit }
        if let hit = try await diskStage(request) { return hit }
        if request.options.fromCacheOnly { throw .notCached }

        // Every waiter may have left while the cache was consulted.
        if Task.isCancelled { throw .cancelled }
        let revalidation = request.options.refreshCached ? await validators(request) : nil
        let downloaded: ImageDownloadResult
        do throws(ImageLoadError) {
            downloaded = try await downloadStage(request, revalidation: revalidation, key: key, job: job)
        } catch {
            if error == .download(.notModified), let revalidation {
                return try notModified(request, cached: revalidation)
            }
            throw error
        }
        if Task.isCancelled { throw .cancelled }

        let decoded: Image
        if let image = downloaded.image, request.options.scaleDownLargeImages == nil {
            decoded = downloadedImageHook(image, request)
        } else {
            decoded = try decodeStage(downloaded.bytes, request)
        }
        let final = try transformStage(decoded, request)
        storeStage(final, bytes: downloaded.bytes, response: downloaded.response, request)
        await storeOriginal(downloaded.bytes, response: downloaded.response, request)
        return ImageResult(image: final, data: downloaded.bytes, tier: .network, url: request.url,
                           response: downloaded.response)
    }

    struct Revalidation: Sendable {
        var data: [UInt8]
        var metadata: DiskCache.Metadata
    }

    /// The stored copy and its validators (RFC 9110 §8.8) for a conditional
    /// request; `nil` without a stored entry or validators.
    private func validators(_ request: LoadRequest) async -> Revalidation? {
        guard request.usesDisk, let original = await configuration.cache.originalData(forKey: request.key.base) else {
            return nil
        }
        guard original.metadata.etag != nil || original.metadata.lastModified != nil else { return nil }
        return Revalidation(data: original.data, metadata: original.metadata)
    }

    /// 304 Not Modified (RFC 9110 §15.4.5): the cached copy is current.
    private func notModified(_ request: LoadRequest, cached: Revalidation) throws(ImageLoadError) -> ImageResult {
        if let image = configuration.cache.image(forKey: request.key) {
            return ImageResult(image: image, data: cached.data, tier: .memory, url: request.url,
                               cacheMetadata: cached.metadata)
        }
        let final = try transformStage(decodeStage(cached.data, request), request)
        storeStage(final, bytes: nil, response: nil, request)
        return ImageResult(image: final, data: cached.data, tier: .disk, url: request.url,
                           cacheMetadata: cached.metadata)
    }
}
