extension MemoryCache {
    /// Limits and policies of a `MemoryCache`; every field has a working default.
    public struct Configuration: Sendable {
        /// Upper bound of the summed entry costs (bytes for images). Enforced on every insert.
        public var costLimit: Int
        /// Upper bound of the number of entries. Enforced on every insert.
        public var countLimit: Int
        /// Entries costing more than this fraction of `costLimit` are not stored, so one huge
        /// image cannot flush everything else.
        public var entryCostLimitRatio: Double
        /// Default time-to-live applied to entries inserted without their own; `nil` = no expiry.
        public var timeToLive: Duration?
        /// Time source for expiry.
        public var clock: CacheClock
        /// Independent shards (rounded up to a power of two, at most 256). 1, the default,
        /// keeps one strictly LRU order; more shards let threads hit the cache in parallel,
        /// with order and limits (split evenly) holding per shard.
        public var shardCount: Int

        public init(
            costLimit: Int = MemoryBudget.defaultImageCostLimit(),
            countLimit: Int = .max,
            entryCostLimitRatio: Double = 0.1,
            timeToLive: Duration? = nil,
            clock: CacheClock = .monotonic,
            shardCount: Int = 1
        ) {
            self.costLimit = costLimit
            self.countLimit = countLimit
            self.entryCostLimitRatio = entryCostLimitRatio
            self.timeToLive = timeToLive
            self.clock = clock
            self.shardCount = shardCount
        }
    }

    /// A snapshot of the cache's counters.
    public struct Statistics: Sendable, Equatable {
        public var hits = 0
        public var misses = 0
        public var evictions = 0
        public var totalCost = 0
        public var count = 0

        public init() {}
    }
}
