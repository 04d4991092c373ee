extension ImageManager {
    /// How one load behaves. Loads whose options differ (other than priority
    /// and progress reporting) never share work.
    public struct Options: Sendable {
        /// Try a URL again even though it failed permanently within the
        /// failed-URL time-to-live.
        public var retryFailed = false
        /// Revalidate the cached bytes with the server (`If-None-Match`,
        /// `If-Modified-Since`, RFC 9110 §13.1): 304 returns the cached image,
        /// 200 replaces it.
        public var refreshCached = false
        /// Never download: a miss in both tiers fails with ``ImageLoadError/notCached``.
        public var fromCacheOnly = false
        /// Skip both tiers when looking up (results are still stored).
        public var fromLoaderOnly = false
        /// Neither read nor write the disk tier.
        public var memoryCacheOnly = false
        /// Return only after the original bytes are on disk (otherwise the
        /// disk write finishes in the background).
        public var waitForDiskStore = false
        /// Decode only the first frame of animations.
        public var firstFrameOnly = false
        /// Decode images larger than this many pixel bytes (first frame) at
        /// reduced size: JPEG through DCT scaling, then a resize.
        public var scaleDownLargeImages: Int?
        /// Hand out partial images while a download progresses.
        public var progressive = false
        /// The download's priority.
        public var priority: ImageDownloadPriority = .normal
        /// Applied to the decoded image; its ``ImageTransformer/cacheKey`` is part of the cache key.
        public var transformer: (any ImageTransformer)?

        public init(retryFailed: Bool = false, refreshCached: Bool = false, fromCacheOnly: Bool = false,
                    fromLoaderOnly: Bool = false, memoryCacheOnly: Bool = false, waitForDiskStore: Bool = false,
                    firstFrameOnly: Bool = false, scaleDownLargeImages: Int? = nil, progressive: Bool = false,
                    priority: ImageDownloadPriority = .normal, transformer: (any ImageTransformer)? = nil) {
            self.retryFailed = retryFailed
            self.refreshCached = refreshCached
            self.fromCacheOnly = fromCacheOnly
            self.fromLoaderOnly = fromLoaderOnly
            self.memoryCacheOnly = memoryCacheOnly
            self.waitForDiskStore = waitForDiskStore
            self.firstFrameOnly = firstFrameOnly
            self.scaleDownLargeImages = scaleDownLargeImages
            self.progressive = progressive
            self.priority = priority
            self.transformer = transformer
        }

        /// Whether the memory key is the bare resource key and memory may answer.
        var isPlainLookup: Bool {
            transformer == nil && !firstFrameOnly && scaleDownLargeImages == nil && !fromLoaderOnly && !refreshCached
        }

        var decoding: DecodingOptions { DecodingOptions(firstFrameOnly: firstFrameOnly) }

        /// The decoding and transformation part of the cache key.
        var variant: String {
            var parts: [String] = []
            if firstFrameOnly { parts.append("first-frame") }
            if let scaleDownLargeImages { parts.append("max-bytes=\(scaleDownLargeImages)") }
            if let transformer { parts.append(transformer.cacheKey) }
            return parts.joined(separator: "|")
        }

        /// The flags that change what a load does; part of the key under which loads are shared.
        var behaviour: Int {
            [retryFailed, refreshCached, fromCacheOnly, fromLoaderOnly, memoryCacheOnly, waitForDiskStore]
                .enumerated().reduce(0) { $0 | ($1.element ? 1 << $1.offset : 0) }
        }
    }
}
