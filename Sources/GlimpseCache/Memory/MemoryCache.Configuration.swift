import Dispatch

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
        /// Independent shards, each a strict LRU list behind its own lock with an even share
        /// of both limits (rounded up to a power of two, at most `maximumShardCount`). `nil`, the default,
        /// picks `automaticShardCount(costLimit:countLimit:entryCostLimitRatio:)`: one shard
        /// (a single strict LRU order over the whole cache) for small caches, up to eight for
        /// large ones so that threads hitting the cache at once rarely meet on a lock. Pass 1
        /// for strict whole-cache LRU order at any size.
        public var shardCount: Int?
        /// Where values that an insert evicts or replaces are released: `nil` (the default)
        /// releases them on the inserting thread, after the shard's lock; a queue releases
        /// them there instead. Worth it for large values such as images, whose memory takes
        /// milliseconds to return to the system: on a server that thread is often one of
        /// Swift's few cooperative-pool threads, which every other task then waits for.
        public var releaseQueue: DispatchQueue?

        public init(
            costLimit: Int = MemoryBudget.defaultImageCostLimit(),
            countLimit: Int = .max,
            entryCostLimitRatio: Double = 0.1,
            timeToLive: Duration? = nil,
            clock: CacheClock = .monotonic,
            shardCount: Int? = nil,
            releaseQueue: DispatchQueue? = nil
        ) {
            self.costLimit = costLimit
            self.countLimit = countLimit
            self.entryCostLimitRatio = entryCostLimitRatio
            self.timeToLive = timeToLive
            self.clock = clock
            self.shardCount = shardCount
            self.releaseQueue = releaseQueue
        }
    }

    /// The shard count used when `Configuration.shardCount` is `nil`: the largest power of two
    /// up to 8 for which every shard still
    /// - admits the largest entry the cache admits (`entryCostLimitRatio × costLimit`),
    /// - holds at least 1024 entries of the count limit, and
    /// - holds at least 32 Mi of the cost limit (32 MiB of pixels when costs are bytes).
    ///
    /// So small or tightly limited caches keep one strictly LRU order, while large ones (the
    /// default image cache: 512 MiB, entries up to a tenth of it) get eight shards: a hit
    /// reorders only its shard's list, under that shard's lock. Eviction is then least
    /// recently used within the shard the insert lands in, and the limits hold per shard (so
    /// in total as well).
    public static func automaticShardCount(costLimit: Int, countLimit: Int, entryCostLimitRatio: Double) -> Int {
        var shards = 8
        func fits(_ shards: Int) -> Bool {
            let share = costLimit / shards
            let largestEntry = Double(costLimit) * min(max(entryCostLimitRatio, 0), 1)
            return Double(share) >= largestEntry && countLimit / shards >= 1024 && share >= 32 << 20
        }
        while shards > 1 && !fits(shards) { shards /= 2 }
        return shards
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
