import Dispatch
import Synchronization

/// A thread-safe least-recently-used memory cache with cost and count limits.
///
/// Each shard is one value-type `StampedLRU` behind a `Lock` (a `Mutex`), so every operation is O(1)
/// (amortised) and the class is `Sendable` without unchecked conformances. Both limits are
/// enforced on every insert: least recently used entries are evicted until the cache fits again.
///
/// A hit records its recency in the lane of the CPU it runs on (see `StampedLRU`), so hits on
/// different CPUs share only their shard's lock. Large caches
/// are also split by default (`Configuration.shardCount` `nil`, see
/// `automaticShardCount(costLimit:countLimit:entryCostLimitRatio:)`): keys are spread by hash
/// over up to eight independent shards, each with an even share of both limits. Order and
/// limits then hold per shard: an insert evicts the least recently used entries of its own
/// shard, and the totals never exceed the limits. Small caches, and any cache configured with
/// `shardCount: 1`, keep one strictly LRU order over the whole cache.
public final class MemoryCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// One shard. A hit writes the lock word and `list.clock` (the 16 bytes at the start of
    /// the lock, a `Mutex`, which is 16-byte aligned, so never split across cache lines) and otherwise
    /// only its CPU's lane. The trailing padding keeps this shard's fields off the next shard's
    /// lock line: a line that two cores both write moves between them on every operation.
    @usableFromInline
    struct State {
        @usableFromInline var list: StampedLRU<Key, Value>
        @usableFromInline var misses = 0
        @usableFromInline var evictions = 0
        @usableFromInline var padding: (Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0)

        @usableFromInline
        init(list: StampedLRU<Key, Value>) {
            self.list = list
        }
    }

    /// The most shards a cache can have.
    public static var maximumShardCount: Int { 16 }

    public let configuration: Configuration
    // Inlinable API so that callers in other modules get code specialised for their Key and
    // Value: unspecialised generic dictionary and array access costs ten times more.
    /// Every shard lives in the cache object itself, not in a boxed array: reaching a boxed
    /// shard retains and releases it, a write to a reference count that two threads would
    /// bounce between cores on every operation. Shards past `shardCount` stay empty.
    @usableFromInline let shards: InlineArray<16, Lock<State>>
    @usableFromInline let shardMask: Int
    @usableFromInline let shardCostLimit: Int
    @usableFromInline let shardCountLimit: Int
    /// Lanes per shard minus one (see `StampedLRU`, `ProcessorLane`).
    @usableFromInline let laneMask: Int

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        // A power of two so that a mask picks the shard.
        var count = 1
        let requested = configuration.shardCount ?? Self.automaticShardCount(
            costLimit: configuration.costLimit, countLimit: configuration.countLimit,
            entryCostLimitRatio: configuration.entryCostLimitRatio)
        while count < min(max(requested, 1), Self.maximumShardCount) { count <<= 1 }
        shardMask = count - 1
        shardCostLimit = count == 1 ? configuration.costLimit : max(configuration.costLimit / count, 0)
        shardCountLimit = count == 1 ? configuration.countLimit : max(configuration.countLimit / count, 1)
        let capacity = shardCountLimit == .max ? 0 : min(shardCountLimit, 1 << 16)
        let lanes = ProcessorLane.preferredCount
        laneMask = lanes - 1
        shards = InlineArray { index in
            Lock(State(list: StampedLRU(minimumCapacity: index < count ? capacity : 0,
                                         laneCount: index < count ? lanes : 1)))
        }
    }

    public convenience init(costLimit: Int, countLimit: Int = .max) {
        self.init(configuration: Configuration(costLimit: costLimit, countLimit: countLimit))
    }

    /// Runs `body` on the state of the shard that owns `key`, with the key's hash, found
    /// before the lock is taken.
    @inlinable
    func withShard<R: Sendable>(for key: Key, _ body: (inout State, _ hash: Int) -> R) -> R {
        let hash = key.hashValue
        return shards[shardIndex(forHash: hash)].withLock { body(&$0, hash) }
    }

    /// The caller's lane, for the operations that record an access (read before the lock).
    @inlinable
    var currentLane: Int { ProcessorLane.current(mask: laneMask) }

    /// The shard of a key hash: its top bits, since a shard's index table uses the low ones.
    @inlinable
    func shardIndex(forHash hash: Int) -> Int {
        Int(truncatingIfNeeded: UInt(bitPattern: hash) >> 58) & shardMask
    }

    /// Runs `body` on every shard's state in turn.
    @inlinable
    func forEachShard(_ body: (inout State) -> Void) {
        for index in 0...shardMask { shards[index].withLock { body(&$0) } }
    }

    /// The number of independent shards in use (see `Configuration.shardCount`).
    @inlinable
    public var shardCount: Int { shardMask + 1 }

    /// The value for `key`, marking it most recently used; `nil` when absent or expired.
    @inlinable
    public func value(forKey key: Key) -> Value? {
        let lane = currentLane
        return withShard(for: key) { state, hash -> Value? in
            guard let slot = state.list.touch(key, hash: hash, lane: lane), let node = state.list.nodes[slot] else {
                state.misses += 1
                return nil
            }
            // The clock is read only for entries that can expire.
            if let expiry = node.expiry, configuration.clock.now() >= expiry {
                state.list.uncountHit(lane: lane)
                state.list.remove(key, hash: hash)
                state.misses += 1
                return nil
            }
            return node.value
        }
    }

    /// Whether a live entry exists for `key`; does not change recency or counters.
    @inlinable
    public func contains(_ key: Key) -> Bool {
        let clock = configuration.clock
        return withShard(for: key) { state, hash in
            guard let node = state.list.peek(key, hash: hash) else { return false }
            if let expiry = node.expiry { return clock.now() < expiry }
            return true
        }
    }

    /// Stores `value` as the most recently used entry and evicts until both limits hold.
    ///
    /// - Parameters:
    ///   - cost: the entry's share of `costLimit` (bytes for images).
    ///   - timeToLive: overrides the configuration's default; `nil` uses the default.
    /// - Returns: `false` when the entry was refused because its cost exceeds
    ///   `entryCostLimitRatio × costLimit` (any older value for `key` is removed then too).
    @inlinable @discardableResult
    public func setValue(_ value: Value, forKey key: Key, cost: Int = 1, timeToLive: Duration? = nil) -> Bool {
        let cost = max(cost, 0)
        var expiry: Duration?
        if let ttl = timeToLive ?? configuration.timeToLive { expiry = configuration.clock.now() + ttl }
        let refused = Double(cost) > Double(configuration.costLimit) * configuration.entryCostLimitRatio
            || cost > shardCostLimit
        let costLimit = shardCostLimit, countLimit = shardCountLimit, lane = currentLane
        // With a release queue, values leaving the cache are gathered and released there
        // (see `Configuration.releaseQueue`); without one they go where they are dropped,
        // with no array to allocate.
        let gathers = configuration.releaseQueue != nil
        var released: [Value] = []
        let stored = withShard(for: key) { state, hash -> Bool in
            if refused {
                if let old = state.list.remove(key, hash: hash), gathers { released.append(old.value) }
                return false
            }
            // In a full cache's steady state the new entry takes the evicted one's slot.
            let outcome = state.list.insert(key, hash: hash, value: value, cost: cost, expiry: expiry,
                                            countLimit: countLimit, lane: lane)
            if gathers, let replaced = outcome.replaced { released.append(replaced) }
            if let evicted = outcome.evicted {
                state.evictions += 1
                if gathers { released.append(evicted.value) }
            }
            while state.list.totalCost > costLimit || state.list.count > countLimit,
                  let oldest = state.list.removeOldest() {
                state.evictions += 1
                if gathers { released.append(oldest.value) }
            }
            return true
        }
        if !released.isEmpty, let queue = configuration.releaseQueue {
            // The box is the values' only owner once `released` is emptied, and the
            // closure holds it unretained: the last release is the queue's, whichever
            // thread runs first (a local or captured copy could end up the last one).
            let box = Unmanaged.passRetained(ReleasedValues(released))
            released = []
            queue.async { box.release() }
        }
        return stored
    }

    /// Removes and returns the value for `key`.
    @inlinable @discardableResult
    public func removeValue(forKey key: Key) -> Value? {
        withShard(for: key) { state, hash in state.list.remove(key, hash: hash)?.value }
    }

    @inlinable
    public func removeAll() {
        forEachShard { $0.list.removeAll() }
    }

    /// Evicts least recently used entries until the total cost is at most `cost` (each shard
    /// to its share).
    @inlinable
    public func trim(toCost cost: Int) {
        let share = cost / shardCount
        forEachShard { Self.evict(&$0, costLimit: share, countLimit: .max) }
    }

    /// Evicts least recently used entries until at most `count` remain (each shard to its share).
    @inlinable
    public func trim(toCount count: Int) {
        let share = count / shardCount
        forEachShard { Self.evict(&$0, costLimit: .max, countLimit: share) }
    }

    /// Drops every expired entry now (expired entries are otherwise dropped when read).
    @inlinable
    public func removeExpired() {
        let now = configuration.clock.now()
        forEachShard { state in
            var expired: [Key] = []
            state.list.forEachNode { node in
                if let expiry = node.expiry, expiry <= now { expired.append(node.key) }
            }
            for key in expired { state.list.remove(key, hash: key.hashValue) }
        }
    }

    @inlinable
    public var totalCost: Int {
        var total = 0
        forEachShard { total += $0.list.totalCost }
        return total
    }

    @inlinable
    public var count: Int {
        var total = 0
        forEachShard { total += $0.list.count }
        return total
    }

    /// Counters since creation, with the current cost and count.
    @inlinable
    public var statistics: Statistics {
        var total = Statistics()
        forEachShard { state in
            total.hits += state.list.hits
            total.misses += state.misses
            total.evictions += state.evictions
            total.totalCost += state.list.totalCost
            total.count += state.list.count
        }
        return total
    }

    /// Keys from most to least recently used (shard after shard when sharded); for
    /// diagnostics and tests.
    @inlinable
    public var keysByRecency: [Key] {
        var keys: [Key] = []
        forEachShard { keys += $0.list.keysByRecency() }
        return keys
    }

    @inlinable
    static func evict(_ state: inout State, costLimit: Int, countLimit: Int) {
        while state.list.totalCost > costLimit || state.list.count > countLimit,
              state.list.removeOldest() != nil {
            state.evictions += 1
        }
    }
}

/// Values an insert took out of a cache, on their way to `Configuration.releaseQueue`.
@usableFromInline
final class ReleasedValues<Value: Sendable>: Sendable {
    @usableFromInline let values: [Value]

    @usableFromInline
    init(_ values: [Value]) {
        self.values = values
    }
}
