import GlimpseCache

extension ImagePipeline {
    /// Stage 6: the final image into memory under its variant key.
    func storeStage(_ image: Image, _ request: LoadRequest) {
        configuration.cache.memory.store(image, forKey: request.key.memoryKey, cost: image.byteCount)
    }

    /// Stage 6, data half: the original bytes and their validators under the
    /// resource key, when the policy keeps originals; awaited or in the
    /// background per ``ImageRequest/Options/waitForDiskStore``. `processedMissing`: the
    /// policy wanted the processed image but it has no encoding (an animation), so the
    /// original is kept in its place.
    func storeOriginal(_ bytes: [UInt8], response: ImageDownloadResponse, _ request: LoadRequest,
                       processedMissing: Bool = false) async {
        guard request.storesOriginal || (processedMissing && request.storesProcessed),
              configuration.cache.data != nil else { return }
        let metadata = DiskCache.Metadata(etag: response.entityTag, lastModified: response.lastModified,
                                          contentType: response.mimeType, originalURL: request.urlKey)
        let cache = configuration.cache
        if request.options.contains(.waitForDiskStore) {
            await cache.storeOriginal(bytes, metadata: metadata, forKey: request.key)
        } else {
            await cache.enqueueOriginal(bytes, metadata: metadata, forKey: request.key)
        }
    }

    /// Stage 6, processed half: the encoded processed image under the variant key.
    func storeProcessed(_ encoded: EncodedImage?, _ request: LoadRequest) async {
        guard let encoded, request.storesProcessed else { return }
        let metadata = DiskCache.Metadata(contentType: encoded.contentType, originalURL: request.urlKey)
        await configuration.cache.storeData(encoded.bytes, metadata: metadata, forDataKey: request.key.memoryKey,
                                            waits: request.options.contains(.waitForDiskStore))
    }
}
