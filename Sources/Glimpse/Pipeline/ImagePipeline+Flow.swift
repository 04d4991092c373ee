import Foundation
import GlimpseCache

extension ImagePipeline {
    /// The stages in order: memory → data tier → the fleet's fetch claim → loader
    /// (with revalidation) → decode and process → store.
    ///
    /// Under ``HTTPCachePolicy/respect`` a data-tier hit is served only while
    /// fresh (RFC 9111 §4.2); a stale one is revalidated with its validators
    /// (§4.3) and served again on 304, or when the origin cannot be reached and
    /// the response did not say `must-revalidate` (§4.2.4).
    func flow(_ request: LoadRequest, key: JobKey, job: UInt64) async throws(ImageLoadError) -> ImageResult {
        // Looked up again: the job may start just after another one stored the image.
        if let hit = memoryStage(request) { return hit }
        var staleHit: DiskHit?
        let diskHit = try await instruments.stage(.disk, url: request.url) { () async throws(ImageLoadError) in
            try await diskStage(request)
        }
        if let hit = diskHit {
            guard isStale(hit.result) else { return hit.result }
            staleHit = hit
        }
        let stale = staleHit?.result
        if request.options.contains(.fromCacheOnly) {
            if let stale, stale.cacheMetadata?.freshness?.mustRevalidate != true { return stale }
            throw .notCached
        }

        // Every waiter may have left while the cache was consulted.
        if Task.isCancelled { throw .cancelled }
        // One origin request per image across the fleet: a shared data tier's claim (or,
        // when another process held it, its entry). Released once the stores below are queued.
        var fleetClaim: ImageDataFetchClaim?
        if staleHit == nil {
            switch await claimOriginFetch(request) {
            case .claimed(let claim):
                fleetClaim = claim
            case .stored:
                if let hit = try await diskStage(request), !isStale(hit.result) { return hit.result }
            case .uncoordinated:
                break
            }
        }
        defer { if let fleetClaim { configuration.cache.releaseFetchClaim(fleetClaim) } }
        var revalidation: Revalidation?
        if let staleHit {
            revalidation = Revalidation(staleHit)
        } else if request.options.contains(.refreshCached) {
            revalidation = await validators(request)
            if request.options.contains(.deliverCachedFirst) { await deliverCached(request, key: key, job: job) }
        }
        let requestTime = Date()
        let downloaded: ImageDownloadResult
        let feed: ProgressiveFeed?
        do throws(ImageLoadError) {
            (downloaded, feed) = try await instruments.stage(.download, url: request.url) {
                () async throws(ImageLoadError) in
                try await downloadStage(request, revalidation: revalidation, key: key, job: job)
            }
        } catch {
            if case .download(.notModified(let response)) = error, let revalidation {
                instruments.revalidated(notModified: true)
                instruments.logger.debug("revalidated: not modified", metadata: [
                    GlimpseObservability.MetadataKey.url: "\(GlimpseObservability.redacted(request.url))",
                    GlimpseObservability.MetadataKey.status: "304",
                ])
                return try await notModified(request, cached: revalidation, response: response, requestTime: requestTime)
            }
            if let stale, mayServeStale(stale, after: error) {
                instruments.logger.debug("origin failed; serving the stale stored copy", metadata: [
                    GlimpseObservability.MetadataKey.url: "\(GlimpseObservability.redacted(request.url))",
                    GlimpseObservability.MetadataKey.error: "\(error.redactedDescription)",
                ])
                return stale
            }
            throw error
        }
        if revalidation != nil {
            instruments.revalidated(notModified: false)
            instruments.logger.debug("revalidated: modified", metadata: [
                GlimpseObservability.MetadataKey.url: "\(GlimpseObservability.redacted(request.url))",
                GlimpseObservability.MetadataKey.status: "\(downloaded.response.statusCode)",
            ])
        }
        if Task.isCancelled {
            feed?.close()
            throw .cancelled
        }
        let response = downloaded.response
        let freshness = self.freshness(of: response, requestTime: requestTime)
        let stores = configuration.httpCachePolicy.allowsStoring(headers: response.headers)
        if !stores, let revalidation {
            // The response that replaces the stored one may not be kept: neither may the old one.
            await configuration.cache.removeData(forDataKey: revalidation.dataKey)
        }

        let processed = try await processingStage(downloaded.bytes, request, progressive: feed)
        var result = ImageResult(image: processed.image, data: downloaded.bytes, tier: .network, url: request.url,
                                 response: response)
        result.encoded = processed.encoded
        guard stores else { return result }
        storeStage(processed.image, request, freshness: freshness)
        let metadata = metadata(of: response, request, freshness: freshness)
        await instruments.stage(.store, url: request.url) { () async -> Void in
            await storeOriginal(downloaded.bytes, metadata: metadata, request, processedMissing: processed.encoded == nil)
            await storeProcessed(processed.encoded, request, source: metadata)
        }
        return result
    }

    /// A stored response to revalidate: its bytes, metadata and where they are kept.
    struct Revalidation: Sendable {
        var data: [UInt8]
        var metadata: ImageDataMetadata
        /// The data tier's key of the entry: the original's or a processed variant's.
        var dataKey: String
        /// The image already decoded from the entry; `nil` only for an original
        /// (a variant is decoded when it is read).
        var image: Image?

        init(data: [UInt8], metadata: ImageDataMetadata, dataKey: String, image: Image? = nil) {
            self.data = data
            self.metadata = metadata
            self.dataKey = dataKey
            self.image = image
        }

        /// A stale data-tier hit, when it has validators.
        init?(_ hit: DiskHit) {
            guard let data = hit.result.data, let metadata = hit.result.cacheMetadata,
                  metadata.hasValidators else { return nil }
            self.init(data: data, metadata: metadata, dataKey: hit.dataKey, image: hit.result.image)
        }
    }

    /// Whether a data-tier hit must not be served without asking the origin:
    /// under ``HTTPCachePolicy/respect`` only, when its stored freshness has
    /// run out or was never known (RFC 9111 §4.2).
    private func isStale(_ hit: ImageResult) -> Bool {
        guard configuration.httpCachePolicy == .respect else { return false }
        guard let freshness = hit.cacheMetadata?.freshness else { return true }
        return !freshness.isFresh(at: Date())
    }

    /// Whether a stale hit may be served because the origin could not answer
    /// (RFC 9111 §4.2.4): not after `must-revalidate` or `no-cache`, nor when
    /// the origin answered with an error status (it was reached, and said no).
    private func mayServeStale(_ stale: ImageResult, after error: ImageLoadError) -> Bool {
        guard stale.cacheMetadata?.freshness?.mustRevalidate != true else { return false }
        switch error {
        case .download(.transport), .download(.timedOut): return true
        case .download(.badStatus(let status)): return (500...599).contains(status)
        default: return false
        }
    }

    /// The stored entry and its validators (RFC 9110 §8.8) for a conditional
    /// request; `nil` without a stored entry or validators.
    private func validators(_ request: LoadRequest) async -> Revalidation? {
        guard request.usesDisk, configuration.cache.data != nil else { return nil }
        let cache = configuration.cache
        // A variant is decoded now (it is small), so that a 304 needs no decode that could fail.
        if request.isProcessed, request.policy != .originalOnly,
           let entry = await cache.entry(forDataKey: request.key.memoryKey), entry.metadata.hasValidators,
           let decoded = await executor.run(priority: request.request.priority, { [self] in
               decodeStoredVariant(entry, request)
           }), let image = decoded {
            return Revalidation(data: entry.data, metadata: entry.metadata, dataKey: request.key.memoryKey, image: image)
        }
        guard let entry = await cache.entry(forDataKey: request.key.base), entry.metadata.hasValidators else {
            return nil
        }
        return Revalidation(data: entry.data, metadata: entry.metadata, dataKey: request.key.base)
    }

    /// ``ImageRequest/Options/deliverCachedFirst``: the cached image (memory, else
    /// the data tier's) as a preview for every waiter, before revalidating.
    private func deliverCached(_ request: LoadRequest, key: JobKey, job: UInt64) async {
        if let image = configuration.cache.image(forKey: request.key) {
            reportPartialImage(key, job: job, image: image)
            return
        }
        var cached = request
        cached.request.options.remove(.refreshCached)
        if let hit = try? await diskStage(cached) { reportPartialImage(key, job: job, image: hit.result.image) }
    }

    /// 304 Not Modified (RFC 9110 §15.4.5): the cached copy is current. Its
    /// stored freshness and validators are refreshed from the 304's header
    /// fields (RFC 9111 §4.3.4) and written back with the same bytes.
    private func notModified(_ request: LoadRequest, cached: Revalidation, response: ImageDownloadResponse,
                             requestTime: Date) async throws(ImageLoadError) -> ImageResult {
        var metadata = cached.metadata
        metadata.etag = response.entityTag ?? metadata.etag
        metadata.lastModified = response.lastModified ?? metadata.lastModified
        if configuration.httpCachePolicy == .respect {
            metadata.freshness = HTTPFreshness(refreshing: metadata.freshness, headers: response.headers,
                                               requestTime: requestTime, responseTime: Date())
        }
        await configuration.cache.storeData(cached.data, metadata: metadata, forDataKey: cached.dataKey,
                                            waits: request.options.contains(.waitForDiskStore))
        if let image = cached.image {
            storeStage(image, request, freshness: metadata.freshness)
            return ImageResult(image: image, data: cached.data, tier: .disk, url: request.url, response: response,
                               cacheMetadata: metadata)
        }
        if let image = configuration.cache.image(forKey: request.key) {
            storeStage(image, request, freshness: metadata.freshness)
            return ImageResult(image: image, data: cached.data, tier: .memory, url: request.url, response: response,
                               cacheMetadata: metadata)
        }
        // Only originals come without an image: variants are decoded when they are read.
        let processed = try await processingStage(cached.data, request)
        await storeProcessed(processed.encoded, request, source: metadata)
        storeStage(processed.image, request, freshness: metadata.freshness)
        return ImageResult(image: processed.image, data: cached.data, tier: .disk, url: request.url,
                           response: response, cacheMetadata: metadata)
    }
}
