import Testing
@testable import GlimpseCache

/// The memory cache's core against a plain most-recent-first array: recency recorded in
/// different lanes must give one exact order, through slot reuse and log compaction.
@Suite("StampedLRU")
struct StampedLRUTests {
    @Test("keeps exact LRU order across lanes under random operations", arguments: [1, 2, 4])
    func keepsExactOrderAcrossLanes(_ laneCount: Int) {
        var list = StampedLRU<Int, Int>(laneCount: laneCount)
        #expect(list.laneCount == laneCount)
        var model: [Int] = []  // most recent first
        var generator = SystemRandomNumberGenerator()
        var hits = 0
        for _ in 0..<12_000 {
            let key = Int.random(in: 0..<40, using: &generator)
            #expect(list.peek(key, hash: key.hashValue)?.key == (model.contains(key) ? key : nil))
            let lane = Int.random(in: 0..<laneCount, using: &generator)
            func moveToFront() {
                model.removeAll { $0 == key }
                model.insert(key, at: 0)
            }
            switch Int.random(in: 0..<16, using: &generator) {
            case 0, 1:
                let limit = model.contains(key) ? Int.max : Int.random(in: 1...30, using: &generator)
                let result = list.insert(key, hash: key.hashValue, value: key &* 3, cost: key, expiry: nil, countLimit: limit, lane: lane)
                if !model.contains(key), model.count >= limit, let evicted = model.last {
                    #expect(result.evicted?.key == evicted)
                    model.removeLast()
                } else {
                    #expect(result.evicted == nil)
                }
                moveToFront()
            case 2:
                list.remove(key, hash: key.hashValue)
                model.removeAll { $0 == key }
            case 3:
                if let node = list.removeOldest() {
                    #expect(node.key == model.removeLast())
                } else {
                    #expect(model.isEmpty)
                }
            default:
                // Hits dominate, as in a cache: they fill the logs and force compactions.
                if let slot = list.touch(key, hash: key.hashValue, lane: lane) {
                    #expect(list.nodes[slot]?.value == key &* 3)
                    hits += 1
                    moveToFront()
                } else {
                    #expect(!model.contains(key))
                }
            }
            #expect(list.keysByRecency() == model)
            #expect(list.count == model.count)
            #expect(list.totalCost == model.reduce(0, +))
        }
        #expect(hits > 3 * 40 + 256, "enough hits to compact the logs at least once")
        #expect(list.hits == hits)
    }

    @Test("logs stay bounded by the entry count under a read-only load")
    func logsStayBounded() {
        var list = StampedLRU<Int, Int>(laneCount: 2)
        for key in 0..<100 { _ = list.insert(key, hash: key.hashValue, value: key, cost: 1, expiry: nil, countLimit: .max, lane: 0) }
        for round in 0..<100_000 { _ = list.touch(round % 100, hash: (round % 100).hashValue, lane: round & 1) }
        for lane in list.lanes {
            #expect(lane.log.count - lane.head == lane.logged)
            #expect(lane.logged <= 3 * 100 + 256 + 1)
        }
        #expect(list.hits == 100_000)
        #expect(list.keysByRecency() == Array((0..<100).reversed()))
        #expect(list.removeOldest()?.key == 0)
    }
}

/// The index that maps hashes to slots, against a dictionary, with hashes forced to collide.
@Suite("SlotTable")
struct SlotTableTests {
    @Test("finds every slot through collisions, growth and backward-shift deletion")
    func matchesADictionary() {
        var table = SlotTable()
        var model: [Int: Int] = [:]  // key -> slot
        var generator = SystemRandomNumberGenerator()
        // Few distinct hashes, so runs are long and wrap around the table's end.
        func hash(_ key: Int) -> Int { (key % 7) &* 0x1_0000_0001 &+ (key % 3) << 40 }
        var nextSlot = 0
        for _ in 0..<20_000 {
            let key = Int.random(in: 0..<300, using: &generator)
            if let slot = model[key] {
                if Bool.random(using: &generator) {
                    table.remove(hash(key), slot: slot)
                    model[key] = nil
                }
            } else {
                table.insert(hash(key), slot: nextSlot)
                model[key] = nextSlot
                nextSlot += 1
            }
            let probe = Int.random(in: 0..<300, using: &generator)
            let owner = Dictionary(uniqueKeysWithValues: model.map { ($1, $0) })
            #expect(table.find(hash(probe)) { owner[$0] == probe } == model[probe])
            #expect(table.count == model.count)
        }
        for (key, slot) in model { #expect(table.find(hash(key)) { $0 == slot } == slot) }
    }
}
