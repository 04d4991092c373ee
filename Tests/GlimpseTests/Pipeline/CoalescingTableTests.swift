@testable import Glimpse
import Testing

extension PipelineTests {
    /// The one table behind every level's shared work, on its own.
    @Suite struct CoalescingTableTests {
        typealias Table = CoalescingTable<String, String, String, ImageDownloadPriority>

        @Test func waitersShareOneWorkUntilItFinishes() throws {
            var table = Table()
            let first = table.attach("k", "a", priority: .low)
            let second = table.attach("k", "b", priority: .normal)
            let other = table.attach("other", "c", priority: .low)
            #expect(first.newWork != nil && second.newWork == nil && other.newWork != nil)
            let work = try #require(first.newWork)
            #expect(table.updateHandle("k", work: work) { $0 = "task" })
            #expect(Set(table.waiters(of: "k", work: work)) == ["a", "b"])
            #expect(Set(table.finish("k", work: work)) == ["a", "b"])
            // Finished: a new attach starts a new work, with a new id; the old id is stale.
            #expect(table.finish("k", work: work).isEmpty)
            let again = table.attach("k", "d", priority: .low)
            #expect(again.newWork != nil && again.newWork != work)
            #expect(!table.updateHandle("k", work: work) { $0 = "stale" })
        }

        @Test func priorityIsTheWaitersHighestAndChangesAreReported() throws {
            var table = Table()
            let low = table.attach("k", "a", priority: .low)
            let work = try #require(low.newWork)
            table.updateHandle("k", work: work) { $0 = "download" }
            let high = table.attach("k", "b", priority: .high)
            #expect(table.priority(of: "k") == .high)
            // Raising the low waiter to normal changes nothing: the work stays at high.
            #expect(table.setPriority(.normal, of: low.waiter) == nil)
            // Lowering the high one makes the work normal, reported with the handle to steer.
            let changed = table.setPriority(.veryLow, of: high.waiter)
            #expect(changed?.priority == .normal && changed?.handle == "download")
            #expect(table.priority(of: "k", work: work) == .normal)
            #expect(table.priority(of: "k", work: work + 100) == nil)
        }

        @Test func theLastWaiterToLeaveCancelsTheWork() throws {
            var table = Table()
            let a = table.attach("k", "a", priority: .normal)
            let b = table.attach("k", "b", priority: .normal)
            let work = try #require(a.newWork)
            table.updateHandle("k", work: work) { $0 = "task" }
            let firstLeaves = table.detach(a.waiter)
            #expect(firstLeaves?.waiter == "a" && firstLeaves?.orphaned == nil)
            #expect(table.detach(a.waiter) == nil, "detaching twice does nothing")
            let lastLeaves = table.detach(b.waiter)
            #expect(lastLeaves?.waiter == "b" && lastLeaves?.orphaned == "task")
            #expect(table.works.isEmpty && table.allWaiters.isEmpty)
            #expect(table.finish("k", work: work).isEmpty, "a cancelled work finishes to nobody")
        }
    }
}
