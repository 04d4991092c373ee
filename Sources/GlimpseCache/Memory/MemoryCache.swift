import Synchronization

/// A thread-safe, strictly least-recently-used memory cache with cost and count limits.
///
/// All state is one value-type `LRUList` behind a `Mutex`, so every operation is O(1) and
/// the class is `Sendable` without unchecked conformances. Both limits are enforced on every
/// insert: least recently used entries are evicted until the cache fits again.
public final class MemoryCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    @usableFromInline
    struct State {
        @usableFromInline var list: LRUList<Key, Value>
        @usableFromInline var statistics = Statistics()

        @usableFromInline
        init(list: LRUList<Key, Value>) {
            self.list = list
        }
    }

    public let configuration: Configuration
    // Inlinable so that callers in other modules get code specialised for their Key and
    // Value: unspecialised generic dictionary and array access costs ten times more.
    @usableFromInline let state: Mutex<State>

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        let capacity = configuration.countLimit == .max ? 0 : min(configuration.countLimit, 1 << 16)
        self.state = Mutex(State(list: LRUList(minimumCapacity: capacity)))
    }

    public convenience init(costLimit: Int, countLimit: Int = .max) {
        self.init(configuration: Configuration(costLimit: costLimit, countLimit: countLimit))
    }

    /// The value for `key`, marking it most recently used; `nil` when absent or expired.
    @inlinable
    public func value(forKey key: Key) -> Value? {
        let clock = configuration.clock
        return state.withLock { state -> Value? in
            guard let slot = state.list.touch(key) else {
                state.statistics.misses += 1
                return nil
            }
            if let expiry = state.list.nodes[slot].expiry, clock.now() >= expiry {
                state.list.remove(key)
                state.statistics.misses += 1
                return nil
            }
            state.statistics.hits += 1
            return state.list.nodes[slot].value
        }
    }

    /// Whether a live entry exists for `key`; does not change recency or counters.
    @inlinable
    public func contains(_ key: Key) -> Bool {
        let clock = configuration.clock
        return state.withLock { state in
            guard let node = state.list.peek(key) else { return false }
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
        let configuration = self.configuration
        let cost = max(cost, 0)
        let ttl = timeToLive ?? configuration.timeToLive
        let expiry = ttl.map { configuration.clock.now() + $0 }
        let refused = Double(cost) > Double(configuration.costLimit) * configuration.entryCostLimitRatio
        return state.withLock { state -> Bool in
            if refused {
                state.list.remove(key)
                return false
            }
            state.list.insert(key, value: value, cost: cost, expiry: expiry)
            Self.evict(&state, costLimit: configuration.costLimit, countLimit: configuration.countLimit)
            return true
        }
    }

    /// Removes and returns the value for `key`.
    @inlinable @discardableResult
    public func removeValue(forKey key: Key) -> Value? {
        state.withLock { $0.list.remove(key)?.value }
    }

    @inlinable
    public func removeAll() {
        state.withLock { $0.list.removeAll() }
    }

    /// Evicts least recently used entries until the total cost is at most `cost`.
    @inlinable
    public func trim(toCost cost: Int) {
        state.withLock { Self.evict(&$0, costLimit: cost, countLimit: .max) }
    }

    /// Evicts least recently used entries until at most `count` remain.
    @inlinable
    public func trim(toCount count: Int) {
        state.withLock { Self.evict(&$0, costLimit: .max, countLimit: count) }
    }

    /// Drops every expired entry now (expired entries are otherwise dropped when read).
    @inlinable
    public func removeExpired() {
        let now = configuration.clock.now()
        state.withLock { state in
            let expired = state.list.nodes.compactMap { node in
                node.expiry.flatMap { $0 <= now ? node.key : nil }
            }
            for key in expired { state.list.remove(key) }
        }
    }

    @inlinable
    public var totalCost: Int { state.withLock { $0.list.totalCost } }
    @inlinable
    public var count: Int { state.withLock { $0.list.count } }

    /// Counters since creation, with the current cost and count.
    @inlinable
    public var statistics: Statistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.totalCost = state.list.totalCost
            statistics.count = state.list.count
            return statistics
        }
    }

    /// Keys from most to least recently used; for diagnostics and tests.
    @inlinable
    public var keysByRecency: [Key] { state.withLock { $0.list.keysByRecency() } }

    @inlinable
    static func evict(_ state: inout State, costLimit: Int, countLimit: Int) {
        while state.list.totalCost > costLimit || state.list.count > countLimit,
              state.list.removeOldest() != nil {
            state.statistics.evictions += 1
        }
    }
}
