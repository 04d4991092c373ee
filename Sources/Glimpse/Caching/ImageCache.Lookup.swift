import GlimpseCache

extension ImageCache {
    /// The answer to ``ImageCache/query(_:tiers:)``.
    public struct Lookup: Sendable {
        /// The tier that answered (``ImageTier/memory`` or ``ImageTier/disk``); `nil` on a miss.
        public var tier: ImageTier?
        /// The decoded image, when memory answered.
        public var image: Image?
        /// The encoded bytes, when the data tier answered.
        public var data: [UInt8]?
        /// The data tier entry's metadata (validators for revalidation), when it answered.
        public var metadata: DiskCache.Metadata?

        public init(tier: ImageTier?, image: Image? = nil, data: [UInt8]? = nil, metadata: DiskCache.Metadata? = nil) {
            self.tier = tier
            self.image = image
            self.data = data
            self.metadata = metadata
        }

        static let miss = Lookup(tier: nil)
    }

    /// Counters of both tiers.
    public struct Statistics: Sendable, Equatable {
        /// The memory tier's counters (hits, misses, evictions, cost, count;
        /// only cost and count for a memory tier other than ``MemoryCache``).
        public var memory: MemoryCache<String, Image>.Statistics
        /// Entries in the data tier; 0 without one.
        public var diskCount: Int
        /// Bytes in the data tier; 0 without one.
        public var diskSize: Int
        /// Queries answered by the data tier.
        public var diskHits: Int
        /// Queries neither tier answered.
        public var misses: Int
        /// Data tier queries that joined a read already in flight for the same key.
        public var coalescedDiskReads: Int
    }
}
