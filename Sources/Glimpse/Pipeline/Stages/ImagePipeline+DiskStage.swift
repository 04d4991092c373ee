import GlimpseCache

extension ImagePipeline {
    /// What the data tier gave the disk stage.
    enum DiskOutcome: Sendable {
        case miss
        /// A processed image stored earlier: decoded only.
        case variant(Image, data: [UInt8], metadata: DiskCache.Metadata)
        /// The original: decoded and processed (and encoded, when the policy keeps processed images).
        case original(Processed, data: [UInt8], metadata: DiskCache.Metadata)
        case failure(ImageLoadError)
    }

    /// Stage 3: the data tier — the processed variant when the policy keeps
    /// those, else the original — read, decoded and processed in one job on the
    /// executor (a data tier may block: it never runs on the cooperative pool).
    ///
    /// A data-tier hit: the result, and which entry gave it.
    struct DiskHit: Sendable {
        var result: ImageResult
        /// The entry's key: the processed variant's or the original's.
        var dataKey: String
    }

    /// Returns `nil` on a miss. Bytes that no longer decode are removed, so the
    /// loader stage fetches a fresh copy.
    func diskStage(_ request: LoadRequest) async throws(ImageLoadError) -> DiskHit? {
        guard request.readsCache, request.usesDisk, let tier = configuration.cache.data else { return nil }
        guard let outcome = await executor.run(priority: jobPriority(request), { [self] in
            readDisk(request, from: tier)
        }) else { throw .cancelled }
        switch outcome {
        case .miss:
            return nil
        case .failure(let error):
            throw error
        case .variant(let image, let data, let metadata):
            storeStage(image, request, freshness: metadata.freshness)
            return DiskHit(result: ImageResult(image: image, data: data, tier: .disk, url: request.url,
                                               cacheMetadata: metadata),
                           dataKey: request.key.memoryKey)
        case .original(let processed, let data, let metadata):
            storeStage(processed.image, request, freshness: metadata.freshness)
            await storeProcessed(processed.encoded, request, source: metadata)
            return DiskHit(result: ImageResult(image: processed.image, data: data, tier: .disk, url: request.url,
                                               cacheMetadata: metadata),
                           dataKey: request.key.base)
        }
    }

    /// On an executor thread.
    private func readDisk(_ request: LoadRequest, from tier: any ImageDataCaching) -> DiskOutcome {
        if request.isProcessed, request.policy != .originalOnly,
           let entry = tier.cachedData(forKey: request.key.memoryKey) {
            if let image = decodeStoredVariant(entry.data, request) {
                return .variant(image, data: entry.data, metadata: entry.metadata)
            }
            tier.removeData(forKey: request.key.memoryKey)
        }
        guard let entry = tier.cachedData(forKey: request.key.base) else { return .miss }
        switch process(entry.data, request, encodes: request.storesProcessed) {
        case .success(let processed):
            return .original(processed, data: entry.data, metadata: entry.metadata)
        case .failure(.decoding):
            tier.removeData(forKey: request.key.base)
            return .miss
        case .failure(let error):
            return .failure(error)
        }
    }
}
