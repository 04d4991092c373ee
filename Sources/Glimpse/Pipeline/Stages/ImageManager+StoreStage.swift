import GlimpseCache

extension ImageManager {
    /// Stage 7: the final image into memory under its variant key.
    func storeStage(_ image: Image, bytes: [UInt8]?, response: ImageDownloadResponse?, _ request: LoadRequest) {
        configuration.cache.store(image, data: nil, forKey: request.key, in: .memory)
    }

    /// Stage 7, disk half: the original bytes and their validators under the
    /// resource key, awaited or in the background per ``Options/waitForDiskStore``.
    func storeOriginal(_ bytes: [UInt8], response: ImageDownloadResponse, _ request: LoadRequest) async {
        guard request.usesDisk, configuration.cache.disk != nil else { return }
        let metadata = DiskCache.Metadata(etag: response.entityTag, lastModified: response.lastModified,
                                          contentType: response.mimeType, originalURL: request.urlKey)
        let cache = configuration.cache
        let key = request.key
        if request.options.waitForDiskStore {
            await cache.storeOriginal(bytes, metadata: metadata, forKey: key)
        } else {
            await cache.enqueueOriginal(bytes, metadata: metadata, forKey: key)
        }
    }
}
