import Testing
@testable import GlimpseCache

@Suite("MemoryCache")
struct MemoryCacheTests {
    private func makeCache(costLimit: Int = 1000, countLimit: Int = .max, ratio: Double = 1,
                           ttl: Duration? = nil, clock: TestClock = TestClock()) -> MemoryCache<String, Int> {
        MemoryCache(configuration: .init(costLimit: costLimit, countLimit: countLimit, entryCostLimitRatio: ratio,
                                         timeToLive: ttl, clock: clock.cacheClock))
    }

    @Test func storesAndReturnsValues() {
        let cache = makeCache()
        cache.setValue(1, forKey: "a")
        cache.setValue(2, forKey: "b")
        #expect(cache.value(forKey: "a") == 1)
        #expect(cache.value(forKey: "b") == 2)
        #expect(cache.value(forKey: "c") == nil)
        cache.setValue(3, forKey: "a")
        #expect(cache.value(forKey: "a") == 3)
        #expect(cache.count == 2)
    }

    @Test func evictsLeastRecentlyUsedByCount() {
        let cache = makeCache(countLimit: 3)
        for key in ["a", "b", "c"] { cache.setValue(0, forKey: key) }
        _ = cache.value(forKey: "a")  // order now a, c, b (most recent first)
        cache.setValue(0, forKey: "d")
        #expect(cache.keysByRecency == ["d", "a", "c"])
        #expect(!cache.contains("b"))
        #expect(cache.statistics.evictions == 1)
    }

    @Test func evictsLeastRecentlyUsedByCostUntilBothLimitsHold() {
        let cache = makeCache(costLimit: 100, countLimit: 10)
        cache.setValue(1, forKey: "a", cost: 40)
        cache.setValue(2, forKey: "b", cost: 40)
        cache.setValue(3, forKey: "c", cost: 10)
        _ = cache.value(forKey: "a")
        cache.setValue(4, forKey: "d", cost: 45)  // 135 > 100: b goes (LRU), then 95 fits
        #expect(cache.keysByRecency == ["d", "a", "c"])
        #expect(cache.totalCost == 95)
        cache.setValue(5, forKey: "e", cost: 50)  // 145: evicts c (135), then a (95)
        #expect(cache.keysByRecency == ["e", "d"])
        #expect(cache.totalCost == 95)
    }

    @Test func replacingAnEntryUpdatesItsCost() {
        let cache = makeCache(costLimit: 100)
        cache.setValue(1, forKey: "a", cost: 30)
        cache.setValue(2, forKey: "a", cost: 50)
        #expect(cache.totalCost == 50)
        #expect(cache.count == 1)
    }

    @Test func refusesEntriesAboveTheCostRatio() {
        let cache = makeCache(costLimit: 1000, ratio: 0.1)
        #expect(cache.setValue(1, forKey: "small", cost: 100))
        #expect(!cache.setValue(2, forKey: "big", cost: 101))
        #expect(cache.value(forKey: "big") == nil)
        // A refused replacement must not leave the stale value behind.
        #expect(!cache.setValue(3, forKey: "small", cost: 500))
        #expect(cache.value(forKey: "small") == nil)
    }

    @Test func expiresEntriesWithTheCacheTimeToLive() {
        let clock = TestClock()
        let cache = makeCache(ttl: .seconds(10), clock: clock)
        cache.setValue(1, forKey: "a")
        clock.advance(by: .seconds(9))
        #expect(cache.value(forKey: "a") == 1)
        clock.advance(by: .seconds(1))
        #expect(cache.value(forKey: "a") == nil)
        #expect(cache.count == 0)
        #expect(cache.statistics.misses == 1)
    }

    @Test func perEntryTimeToLiveOverridesTheDefault() {
        let clock = TestClock()
        let cache = makeCache(ttl: .seconds(10), clock: clock)
        cache.setValue(1, forKey: "short", timeToLive: .seconds(1))
        cache.setValue(2, forKey: "long", timeToLive: .seconds(100))
        cache.setValue(3, forKey: "default")
        clock.advance(by: .seconds(5))
        #expect(!cache.contains("short"))
        #expect(cache.contains("default"))
        clock.advance(by: .seconds(50))
        #expect(cache.value(forKey: "default") == nil)
        #expect(cache.value(forKey: "long") == 2)
        cache.removeExpired()
        #expect(cache.keysByRecency == ["long"])
    }

    @Test func entriesWithoutTimeToLiveNeverExpire() {
        let clock = TestClock()
        let cache = makeCache(clock: clock)
        cache.setValue(1, forKey: "a")
        clock.advance(by: .seconds(1_000_000))
        #expect(cache.value(forKey: "a") == 1)
    }

    @Test func trimsAndRemoves() {
        let cache = makeCache(costLimit: 1000)
        for index in 0..<10 { cache.setValue(index, forKey: "k\(index)", cost: 10) }
        cache.trim(toCost: 55)
        #expect(cache.keysByRecency == ["k9", "k8", "k7", "k6", "k5"])
        cache.trim(toCount: 2)
        #expect(cache.keysByRecency == ["k9", "k8"])
        #expect(cache.removeValue(forKey: "k9") == 9)
        #expect(cache.removeValue(forKey: "k9") == nil)
        cache.removeAll()
        #expect(cache.count == 0 && cache.totalCost == 0)
        #expect(cache.statistics.evictions == 8)
    }

    @Test func countsHitsAndMisses() {
        let cache = makeCache()
        cache.setValue(1, forKey: "a", cost: 7)
        _ = cache.value(forKey: "a")
        _ = cache.value(forKey: "a")
        _ = cache.value(forKey: "b")
        var expected = MemoryCache<String, Int>.Statistics()
        expected.hits = 2
        expected.misses = 1
        expected.totalCost = 7
        expected.count = 1
        #expect(cache.statistics == expected)
    }

    /// The disk index's list: removal swaps the last slot into the hole; the links must survive
    /// any mix of operations.
    @Test func keepsStrictOrderUnderRandomOperations() {
        var list = LRUList<Int, Int>()
        var model: [Int] = []  // most recent first
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            let key = Int.random(in: 0..<40, using: &generator)
            switch Int.random(in: 0..<4, using: &generator) {
            case 0, 1:
                list.insert(key, value: key, cost: 1)
                model.removeAll { $0 == key }
                model.insert(key, at: 0)
            case 2:
                if list.touch(key) != nil {
                    model.removeAll { $0 == key }
                    model.insert(key, at: 0)
                }
            default:
                if Bool.random(using: &generator) {
                    list.remove(key)
                    model.removeAll { $0 == key }
                } else if let node = list.removeOldest() {
                    #expect(node.key == model.removeLast())
                }
            }
            #expect(list.keysByRecency() == model)
            #expect(list.totalCost == model.count)
        }
    }

    @Test func staysConsistentUnderConcurrentUse() async {
        let cache = MemoryCache<Int, [Int]>(configuration: .init(costLimit: 10_000, countLimit: 500, entryCostLimitRatio: 1))
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var generator = SystemRandomNumberGenerator()
                    for step in 0..<20_000 {
                        let key = Int.random(in: 0..<1000, using: &generator)
                        if step % 3 == 0 {
                            cache.setValue([key, worker], forKey: key, cost: 1 + key % 50)
                        } else if let value = cache.value(forKey: key) {
                            #expect(value.first == key)
                        }
                        if step % 5000 == 0 { cache.trim(toCount: 250) }
                    }
                }
            }
        }
        let statistics = cache.statistics
        #expect(statistics.count <= 500)
        #expect(statistics.totalCost <= 10_000)
        #expect(statistics.hits > 0 && statistics.misses > 0)
        #expect(cache.keysByRecency.count == statistics.count)
    }

    @Test func shardedCacheSplitsLimitsAndStaysLRUPerShard() async {
        let cache = MemoryCache<Int, Int>(configuration: .init(costLimit: 8000, countLimit: 800, entryCostLimitRatio: 1,
                                                               shardCount: 5))  // rounded up to 8
        for key in 0..<400 { #expect(cache.setValue(key, forKey: key, cost: 10)) }
        #expect((0..<400).allSatisfy { cache.value(forKey: $0) == $0 })
        for key in 400..<5000 { cache.setValue(key, forKey: key, cost: 10) }
        #expect(cache.count <= 800)
        #expect(cache.totalCost <= 8000)
        // The most recent inserts of every shard survive.
        #expect((4900..<5000).allSatisfy { cache.contains($0) })
        // An entry above a shard's share of the cost limit is refused.
        #expect(!cache.setValue(-1, forKey: -1, cost: 1001))
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for step in 0..<5000 {
                        let key = (step * 31 + worker) % 2000
                        if step % 4 == 0 { cache.setValue(key, forKey: key, cost: 10) }
                        if let value = cache.value(forKey: key) { #expect(value == key) }
                    }
                }
            }
        }
        #expect(cache.count <= 800 && cache.statistics.count == cache.count)
        cache.trim(toCount: 80)
        #expect(cache.count <= 80)
    }

    /// Small or tightly limited caches keep one strict LRU order; large ones are sharded.
    @Test func automaticShardCountFollowsTheLimits() {
        typealias Cache = MemoryCache<String, Int>
        let mebibyte = 1 << 20
        // The default image cache shape: 512 MiB, entries up to a tenth of it.
        #expect(Cache.automaticShardCount(costLimit: 512 * mebibyte, countLimit: .max, entryCostLimitRatio: 0.1) == 8)
        #expect(Cache.automaticShardCount(costLimit: 64 * mebibyte, countLimit: .max, entryCostLimitRatio: 0.1) == 2)
        #expect(Cache.automaticShardCount(costLimit: 16 * mebibyte, countLimit: .max, entryCostLimitRatio: 0.1) == 1)
        // Every shard must admit the largest admitted entry.
        #expect(Cache.automaticShardCount(costLimit: 512 * mebibyte, countLimit: .max, entryCostLimitRatio: 0.3) == 2)
        #expect(Cache.automaticShardCount(costLimit: 512 * mebibyte, countLimit: .max, entryCostLimitRatio: 1) == 1)
        // Every shard must hold at least 1024 entries of the count limit.
        #expect(Cache.automaticShardCount(costLimit: .max, countLimit: 10_000, entryCostLimitRatio: 0.1) == 8)
        #expect(Cache.automaticShardCount(costLimit: .max, countLimit: 3000, entryCostLimitRatio: 0.1) == 2)
        #expect(Cache.automaticShardCount(costLimit: .max, countLimit: 1000, entryCostLimitRatio: 0.1) == 1)
        // The small caches of the tests above stay strictly LRU without asking.
        #expect(makeCache(costLimit: 100, countLimit: 10).shardCount == 1)
        #expect(Cache(configuration: .init(costLimit: 512 * mebibyte)).shardCount == 8)
        #expect(Cache(configuration: .init(costLimit: 512 * mebibyte, shardCount: 1)).shardCount == 1)
        #expect(Cache(configuration: .init(costLimit: 512 * mebibyte, shardCount: 100)).shardCount
                == Cache.maximumShardCount)
    }

    /// The default configuration of a large cache: total limits hold, each shard evicts its
    /// own least recently used entry, and an entry read recently survives a flood of inserts
    /// that evicts everything around it in its shard.
    @Test func automaticallyShardedCacheKeepsLimitsAndPerShardRecency() {
        let cache = MemoryCache<Int, Int>(configuration: .init(costLimit: .max, countLimit: 8192))
        #expect(cache.shardCount == 8)
        // Half full, so that no shard is over its share yet (keys hash unevenly).
        for key in 0..<4096 { cache.setValue(key, forKey: key) }
        // Keep reading key 0 while new keys push everything else out.
        for key in 4096..<40_000 {
            cache.setValue(key, forKey: key)
            if key % 64 == 0 { #expect(cache.value(forKey: 0) == 0) }
        }
        #expect(cache.count <= 8192)
        #expect(cache.contains(0))
        #expect(!(1..<4096).contains { cache.contains($0) })
        // Within each shard the order is strict: key 0, read last, leads its shard, and the
        // rest are that shard's most recent inserts, newest first.
        _ = cache.value(forKey: 0)
        let order = cache.keysByRecency
        #expect(order.count == cache.count)
        let byShard = Dictionary(grouping: order) { cache.shardIndex(forHash: $0.hashValue) }
        #expect(byShard.count == cache.shardCount)
        for (shard, keys) in byShard {
            let inserted = keys.filter { $0 != 0 }
            #expect(inserted == inserted.sorted(by: >), "shard \(shard)")
            #expect(inserted.count >= 1000, "shard \(shard) holds \(inserted.count)")
            if keys.contains(0) { #expect(keys.first == 0) }
        }
    }
}
