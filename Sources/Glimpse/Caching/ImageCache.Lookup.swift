import GlimpseCache

extension ImageCache {
    /// The answer to ``ImageCache/query(_:tiers:)``.
    public struct Lookup: Sendable {
        /// The tier that answered (``ImageTier/memory``, ``ImageTier/disk``, or ``ImageTier/shared``
        /// for the shared half of a ``LayeredDataTier``); `nil` on a miss.
        public var tier: ImageTier?
        /// The decoded image, when memory answered.
        public var image: Image?
        /// The encoded bytes, when the data tier answered.
        public var data: [UInt8]?
        /// The data tier entry's metadata (validators for revalidation), when it answered.
        public var metadata: ImageDataMetadata?

        public init(tier: ImageTier?, image: Image? = nil, data: [UInt8]? = nil, metadata: ImageDataMetadata? = nil) {
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
        /// Entries the data tier removed to keep within its limits
        /// (``ImageDataCaching/evictionCount``); 0 without one.
        public var diskEvictions: Int
        /// Data tier reads that found an entry (the pipeline's included).
        public var diskHits: Int
        /// Queries neither tier answered, and data tier reads that found nothing.
        public var misses: Int
        /// Data tier queries that joined a read already in flight for the same key.
        public var coalescedDiskReads: Int
        /// Data tier calls that failed (``ImageDataTierError``): reads answered as misses,
        /// writes and removals dropped.
        public var dataErrors: Int
    }
}
