import Foundation
import Testing
@testable import GlimpseCache

/// Every way an entry file can get its name (an unnamed file linked with `AT_EMPTY_PATH` or
/// through procfs, or a temporary name renamed) stores, replaces and reopens alike, and
/// leaves no temporary file behind.
@Suite("DiskCache write methods")
struct DiskCacheWriteMethodTests {
    static let methods = [POSIXFile.LinkMethod.emptyPath.rawValue, POSIXFile.LinkMethod.procfs.rawValue,
                          DiskCache.temporaryNames]

    private func bytes(_ count: Int, seed: UInt8) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ Int(seed)) }
    }

    @Test(arguments: methods)
    func storesReplacesAndReopens(method: Int) throws {
        let directory = TemporaryDirectory()
        let clock = TestClock(start: .seconds(1_700_000_000))
        var configuration = DiskCache.Configuration(directory: directory.url)
        configuration.clock = clock.cacheClock
        let cache = try DiskCache(configuration: configuration)
        cache.linkMethod.store(method, ordering: .relaxed)
        try cache.setData(bytes(900, seed: 1), metadata: .init(etag: "\"1\""), forKey: "https://example.com/a.png")
        try cache.setData(Data(bytes(400, seed: 2)), forKey: "https://example.com/b.png")
        clock.advance(by: .seconds(5))
        // link(2) never replaces: this one takes the temporary-name detour under any method.
        try cache.setData(bytes(1300, seed: 3), metadata: .init(etag: "\"3\""), forKey: "https://example.com/a.png")

        #expect(cache.data(forKey: "https://example.com/a.png") == Data(bytes(1300, seed: 3)))
        #expect(cache.metadata(forKey: "https://example.com/a.png")?.etag == "\"3\"")
        #expect(cache.data(forKey: "https://example.com/b.png") == Data(bytes(400, seed: 2)))
        #expect(cache.count == 2)
        // The initial scan probes the directory with a scratch file of its own; let it finish.
        cache.waitUntilIndexLoaded()
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(Set(names) == Set(["https://example.com/a.png", "https://example.com/b.png"].map(DiskCache.fileName(forKey:))))

        // The file's modification time is the injected clock's write time, whatever the method.
        let attributes = try FileManager.default.attributesOfItem(atPath: cache.filePath(forKey: "https://example.com/a.png"))
        let modified = try #require(attributes[.modificationDate] as? Date)
        #expect(abs(modified.timeIntervalSince1970 - 1_700_000_005) < 0.001)

        let reopened = try DiskCache(configuration: configuration)
        #expect(reopened.count == 2)
        #expect(reopened.totalSize == cache.totalSize)
        #expect(reopened.data(forKey: "https://example.com/a.png") == Data(bytes(1300, seed: 3)))
    }

    /// With the system clock the kernel's own time stamp is kept (no `futimens`): it still is
    /// the write time the directory scan reads ages from.
    @Test func wallClockEntriesCarryTheirWriteTime() throws {
        let directory = TemporaryDirectory()
        let cache = try DiskCache(configuration: DiskCache.Configuration(directory: directory.url))
        try cache.setData(bytes(200, seed: 4), forKey: "k")
        let stored = try #require(cache.metadata(forKey: "k")?.storedDate)
        let attributes = try FileManager.default.attributesOfItem(atPath: cache.filePath(forKey: "k"))
        let modified = try #require(attributes[.modificationDate] as? Date)
        #expect(abs(modified.timeIntervalSince(stored)) < 0.1)
        // The check allows 10 ms between the two clock reads; a thread preempted for longer
        // between them (a loaded machine, the thread sanitizer) gets more tries.
        #expect((0..<20).contains { _ in DiskCache.kernelStampsWriteTime(DiskCache.nanoseconds(CacheClock.wall.now())) })
        #expect(!DiskCache.kernelStampsWriteTime(1_700_000_000 * 1_000_000_000))
    }
}
