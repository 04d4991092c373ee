extension ImagePipeline {
    /// Between stages 3 and 4, on a miss in every tier: the data tier's claim on fetching the
    /// original from the origin, for the whole fleet (a shared tier such as
    /// `GlimpseRedis.RedisDataTier` keeps it; every other tier answers
    /// ``ImageDataFetchCoordination/uncoordinated``). A process that does not get the claim has
    /// waited (bounded, by the tier) and may find the holder's entry instead.
    ///
    /// Asked only for loads the loader would serve and whose result the data tier may keep:
    /// not for `file` URLs or bytes the request carries, nor for loads that skip the cache's
    /// reads (``ImageRequest/Options/refreshCached``, ``ImageRequest/Options/fromLoaderOnly``).
    func claimOriginFetch(_ request: LoadRequest) async -> ImageDataFetchCoordination {
        guard request.readsCache, request.usesDisk, configuration.cache.data != nil,
              request.request.data == nil, !request.url.isFileURL else { return .uncoordinated }
        var awaited = [request.key.base]
        // The variant is read first by the data-tier stage, when the policy may keep one.
        if request.isProcessed, request.policy != .originalOnly { awaited.insert(request.key.memoryKey, at: 0) }
        return await configuration.cache.claimFetch(forDataKey: request.key.base, awaiting: awaited)
    }
}
