extension ImageManager {
    /// Stage 3: the original bytes on disk, decoded off the caller's thread
    /// (and shared with concurrent lookups of the same key).
    ///
    /// Returns `nil` on a miss. Bytes that no longer decode are dropped, so the
    /// network stage fetches a fresh copy.
    func diskStage(_ request: LoadRequest) async throws(ImageLoadError) -> ImageResult? {
        guard request.readsCache, request.usesDisk else { return nil }
        let lookup = await configuration.cache.query(request.key, decoding: request.options.decoding,
                                                     maxPixelBytes: request.options.scaleDownLargeImages,
                                                     tiers: .disk)
        guard lookup.tier == .disk, let image = lookup.image else {
            if lookup.tier == .disk { configuration.cache.remove(request.key, from: .disk) }
            return nil
        }
        let final = try transformStage(downloadedImageHook(image, request), request)
        storeStage(final, bytes: nil, response: nil, request)
        return ImageResult(image: final, data: lookup.data, tier: .disk, url: request.url,
                           cacheMetadata: lookup.metadata)
    }
}
