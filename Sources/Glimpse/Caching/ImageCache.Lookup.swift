import GlimpseCache

extension ImageCache {
    /// The answer to ``ImageCache/query(_:decoding:tiers:)``.
    public struct Lookup: Sendable {
        /// The tier that answered; ``Tier/none`` on a miss.
        public var tier: Tier
        /// The decoded image (from memory, or decoded from the disk bytes).
        public var image: Image?
        /// The original bytes, when the disk tier answered.
        public var data: [UInt8]?
        /// The disk entry's metadata (validators for revalidation), when the disk tier answered.
        public var metadata: DiskCache.Metadata?
        /// Why the disk bytes could not be decoded, when they could not.
        public var decodingError: ImageDecodingError?

        public init(tier: Tier, image: Image? = nil, data: [UInt8]? = nil, metadata: DiskCache.Metadata? = nil,
                    decodingError: ImageDecodingError? = nil) {
            self.tier = tier
            self.image = image
            self.data = data
            self.metadata = metadata
            self.decodingError = decodingError
        }

        static let miss = Lookup(tier: .none)
    }

    /// Counters of both tiers.
    public struct Statistics: Sendable, Equatable {
        /// The memory tier's counters (hits, misses, evictions, cost, count).
        public var memory: MemoryCache<String, Image>.Statistics
        /// Entries on disk; 0 without a disk tier.
        public var diskCount: Int
        /// Bytes on disk; 0 without a disk tier.
        public var diskSize: Int
        /// Queries answered by the disk tier.
        public var diskHits: Int
        /// Queries neither tier answered.
        public var misses: Int
        /// Disk queries that joined a read already in flight for the same key.
        public var coalescedDiskReads: Int
    }
}
