import Foundation
import Testing
import GlimpseCache

@Suite("MemoryBudget")
struct MemoryBudgetTests {
    @Test func parsesCgroupLimits() {
        #expect(MemoryBudget.parseCgroupLimit("536870912\n") == 536_870_912)
        #expect(MemoryBudget.parseCgroupLimit("max\n") == nil)
        #expect(MemoryBudget.parseCgroupLimit("") == nil)
        #expect(MemoryBudget.parseCgroupLimit("garbage") == nil)
        #expect(MemoryBudget.parseCgroupLimit("0") == nil)
    }

    @Test func takesAFractionCappedAt512MiB() {
        #expect(MemoryBudget.imageCostLimit(availableMemory: 1 << 30, fraction: 0.25) == 256 << 20)
        #expect(MemoryBudget.imageCostLimit(availableMemory: 64 << 30, fraction: 0.25) == 512 << 20)
        #expect(MemoryBudget.imageCostLimit(availableMemory: .max, fraction: 0.25) == 512 << 20)
        #expect(MemoryBudget.imageCostLimit(availableMemory: 0, fraction: 0.25) == 0)
    }

    @Test func prefersTheTightestCgroupLimit() throws {
        let root = TemporaryDirectory()
        let cgroup = root.url.appendingPathComponent("sys")
        try FileManager.default.createDirectory(at: cgroup.appendingPathComponent("app.slice"), withIntermediateDirectories: true)
        try "max\n".write(to: cgroup.appendingPathComponent("memory.max"), atomically: true, encoding: .utf8)
        try "268435456\n".write(to: cgroup.appendingPathComponent("app.slice/memory.max"), atomically: true, encoding: .utf8)
        let selfFile = root.url.appendingPathComponent("cgroup")
        try "0::/app.slice\n".write(to: selfFile, atomically: true, encoding: .utf8)
        let available = MemoryBudget.availableMemory(cgroupRoot: cgroup.path, selfCgroupFile: selfFile.path,
                                                     physicalMemory: 8 << 30)
        #expect(available == 256 << 20)
        let none = MemoryBudget.availableMemory(cgroupRoot: root.url.appendingPathComponent("absent").path,
                                                selfCgroupFile: "/nonexistent", physicalMemory: 8 << 30)
        #expect(none == 8 << 30)
    }

    @Test func defaultLimitIsPositiveAndCapped() {
        let limit = MemoryBudget.defaultImageCostLimit()
        #expect(limit > 0 && limit <= 512 << 20)
    }
}
