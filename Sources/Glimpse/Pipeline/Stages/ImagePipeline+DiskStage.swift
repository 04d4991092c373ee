extension ImagePipeline {
    /// Stage 3: the data tier — the processed variant when the policy keeps
    /// those, else the original — read through the cache (one coalesced read,
    /// off the cooperative pool by the tier's contract), then decoded and
    /// processed in one job on the executor.
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
        guard request.readsCache, request.usesDisk, configuration.cache.data != nil else { return nil }
        let cache = configuration.cache
        if request.isProcessed, request.policy != .originalOnly,
           let entry = await timedEntry(forDataKey: request.key.memoryKey) {
            instruments.dataLookup(entry.tier)
            let submitted = instruments.now()
            guard let decoded = await executor.run(priority: jobPriority(request), { [self] in
                let start = instruments.now()
                let image = decodeStoredVariant(entry, request)
                let elapsed = image.map { instruments.recordDecode($0, since: start, url: request.url) }
                return (image: image, started: start, elapsed: elapsed)
            }) else { throw .cancelled }
            recordQueued(from: submitted, to: decoded.started)
            if let elapsed = decoded.elapsed { LoadMetricsRecorder.current?.add(.decode, elapsed) }
            if let image = decoded.image {
                storeStage(image, request, freshness: entry.metadata.freshness)
                return DiskHit(result: ImageResult(image: image, data: entry.data, tier: entry.tier, url: request.url,
                                                   cacheMetadata: entry.metadata),
                               dataKey: request.key.memoryKey)
            }
            instruments.removedCorruptEntry(request.url, kind: "variant")
            await cache.removeData(forDataKey: request.key.memoryKey)
        }
        guard let entry = await timedEntry(forDataKey: request.key.base) else {
            instruments.dataLookup(nil)
            return nil
        }
        instruments.dataLookup(entry.tier)
        let processed: Processed
        do throws(ImageLoadError) {
            processed = try await processingStage(entry.data, request)
        } catch {
            guard case .decoding = error else { throw error }
            instruments.removedCorruptEntry(request.url, kind: "original")
            await cache.removeData(forDataKey: request.key.base)
            return nil
        }
        storeStage(processed.image, request, freshness: entry.metadata.freshness)
        await storeProcessed(processed.encoded, request, source: entry.metadata)
        var result = ImageResult(image: processed.image, data: entry.data, tier: entry.tier, url: request.url,
                                 cacheMetadata: entry.metadata)
        result.encoded = processed.encoded
        return DiskHit(result: result, dataKey: request.key.base)
    }

    /// A data-tier read, timed for the load's ``ImageTask/Metrics`` (the `disk` stage's
    /// timer also covers the decode of what it returns).
    private func timedEntry(forDataKey key: String) async -> ImageDataEntry? {
        let start = instruments.now()
        let entry = await configuration.cache.entry(forDataKey: key)
        LoadMetricsRecorder.current?.addDataLookup(instruments.now() - start)
        return entry
    }
}
