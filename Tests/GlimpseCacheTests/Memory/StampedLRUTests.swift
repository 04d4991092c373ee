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
            let lane = Int.random(in: 0..<laneCount, using: &generator)
            func moveToFront() {
                model.removeAll { $0 == key }
                model.insert(key, at: 0)
            }
            switch Int.random(in: 0..<16, using: &generator) {
            case 0, 1:
                let limit = model.contains(key) ? Int.max : Int.random(in: 1...30, using: &generator)
                let result = list.insert(key, value: key &* 3, cost: key, expiry: nil, countLimit: limit, lane: lane)
                if !model.contains(key), model.count >= limit, let evicted = model.last {
                    #expect(result.evicted?.key == evicted)
                    model.removeLast()
                } else {
                    #expect(result.evicted == nil)
                }
                moveToFront()
            case 2:
                list.remove(key)
                model.removeAll { $0 == key }
            case 3:
                if let node = list.removeOldest() {
                    #expect(node.key == model.removeLast())
                } else {
                    #expect(model.isEmpty)
                }
            default:
                // Hits dominate, as in a cache: they fill the logs and force compactions.
                if let slot = list.touch(key, lane: lane) {
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
        #expect(hits > 4 * 40 + 1024, "enough hits to compact the logs at least once")
        #expect(list.hits == hits)
    }

    @Test("logs stay bounded by the entry count under a read-only load")
    func logsStayBounded() {
        var list = StampedLRU<Int, Int>(laneCount: 2)
        for key in 0..<100 { _ = list.insert(key, value: key, cost: 1, expiry: nil, countLimit: .max, lane: 0) }
        for round in 0..<100_000 { _ = list.touch(round % 100, lane: round & 1) }
        for lane in list.lanes {
            #expect(lane.log.count - lane.head == lane.logged)
            #expect(lane.logged <= 4 * 100 + 1024 + 1)
        }
        #expect(list.hits == 100_000)
        #expect(list.keysByRecency() == Array((0..<100).reversed()))
        #expect(list.removeOldest()?.key == 0)
    }
}
