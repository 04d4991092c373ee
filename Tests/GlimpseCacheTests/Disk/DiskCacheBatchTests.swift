import Foundation
import Testing
@testable import GlimpseCache

/// `setData(batch:)`: small entries share one file, linked once per entry, and read, replace,
/// evict, reopen and fail like entries of their own.
@Suite("DiskCache batches")
struct DiskCacheBatchTests {
    private func open(_ directory: borrowing TemporaryDirectory, sizeLimit: Int = 1 << 20) throws -> DiskCache {
        let cache = try DiskCache(configuration: DiskCache.Configuration(directory: directory.url, sizeLimit: sizeLimit))
        cache.waitUntilIndexLoaded()
        return cache
    }

    private func payload(_ index: Int, count: Int = 300) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index) }
    }

    private func batch(_ range: Range<Int>, seed: Int = 0) -> [DiskCache.BatchEntry] {
        range.map { DiskCache.BatchEntry(key: "k\($0)", data: payload($0 + seed), metadata: .init(etag: "\"\($0 + seed)\"")) }
    }

    /// (inode, link count, size) of an entry's file.
    private func file(_ cache: DiskCache, _ key: String) throws -> (inode: Int, links: Int, size: Int) {
        let attributes = try FileManager.default.attributesOfItem(atPath: cache.filePath(forKey: key))
        return (try #require(attributes[.systemFileNumber] as? Int), try #require(attributes[.referenceCount] as? Int),
                try #require(attributes[.size] as? Int))
    }

    @Test func smallEntriesShareOneFile() throws {
        let directory = TemporaryDirectory()
        let cache = try open(directory)
        #expect(cache.setData(batch: batch(0..<20)) == 20)
        for index in 0..<20 {
            #expect(cache.data(forKey: "k\(index)") == Data(payload(index)))
            #expect(cache.metadata(forKey: "k\(index)")?.etag == "\"\(index)\"")
        }
        let files = try (0..<20).map { try file(cache, "k\($0)") }
        #expect(Set(files.map(\.inode)).count == 1)
        #expect(files.allSatisfy { $0.links == 20 })
        #expect(cache.count == 20)
        #expect(cache.totalSize == files[0].size)
    }

    @Test func anotherCacheAndAReopenedOneReadBatchedEntries() throws {
        let directory = TemporaryDirectory()
        let fileSize: Int
        do {
            let writer = try open(directory)
            let reader = try open(directory)
            #expect(writer.setData(batch: batch(0..<20)) == 20)
            for index in 0..<20 { #expect(reader.data(forKey: "k\(index)") == Data(payload(index))) }
            fileSize = try file(writer, "k0").size
        }
        let reopened = try open(directory)
        #expect(reopened.count == 20)
        // The scan splits a batch file's size among its names.
        #expect(abs(reopened.totalSize - fileSize) < 20)
        for index in 0..<20 { #expect(reopened.entry(forKey: "k\(index)")?.data == Data(payload(index))) }
        #expect(reopened.data(forKey: "k20") == nil)
    }

    @Test func laterEntriesForAKeyWin() throws {
        let directory = TemporaryDirectory()
        let cache = try open(directory)
        var entries = batch(0..<10)
        entries.append(DiskCache.BatchEntry(key: "k4", data: payload(99)))
        #expect(cache.setData(batch: entries) == 10)
        #expect(cache.data(forKey: "k4") == Data(payload(99)))
        // Replacing batched entries leaves their former batch mates alone.
        try cache.setData(payload(50), forKey: "k1")
        #expect(cache.setData(batch: batch(2..<4, seed: 100) + batch(10..<12)) == 4)
        #expect(cache.data(forKey: "k0") == Data(payload(0)))
        #expect(cache.data(forKey: "k1") == Data(payload(50)))
        #expect(cache.data(forKey: "k2") == Data(payload(102)))
        #expect(cache.data(forKey: "k3") == Data(payload(103)))
        #expect(cache.data(forKey: "k11") == Data(payload(11)))
        #expect(try file(cache, "k0").links == 7)
        #expect(cache.count == 12)
    }

    @Test func removalAndEvictionTakeNamesOneByOne() throws {
        let directory = TemporaryDirectory()
        // Room for about ten entries of ~360 bytes.
        let cache = try open(directory, sizeLimit: 4000)
        #expect(cache.setData(batch: batch(0..<8)) == 8)
        cache.remove("k2")
        #expect(cache.data(forKey: "k2") == nil)
        #expect(cache.data(forKey: "k3") == Data(payload(3)))
        #expect(try file(cache, "k3").links == 7)
        #expect(cache.setData(batch: batch(10..<20)) == 10)
        #expect(cache.totalSize <= 4000)
        let present = (0..<20).filter { cache.data(forKey: "k\($0)") != nil }
        #expect(present.count == cache.count)
        #expect(present.contains(19))
        for index in present { #expect(cache.data(forKey: "k\(index)") == Data(payload(index))) }
    }

    @Test func aDamagedRecordIsAMissForItsKeyAlone() throws {
        let directory = TemporaryDirectory()
        let cache = try open(directory)
        #expect(cache.setData(batch: batch(0..<6)) == 6)
        let path = cache.filePath(forKey: "k3")
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let found = try #require(bytes.withUnsafeBytes { DiskCache.EntryFile.findRecord($0, key: "k3".utf8) })
        let (offset, header) = try #require(found)
        bytes[offset + header.fileLength - 1] ^= 0xFF  // the record's last data byte
        // Written in place: every name of the batch sees the damage.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.write(contentsOf: bytes)
        try handle.close()
        #expect(cache.data(forKey: "k3") == nil)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(cache.data(forKey: "k2") == Data(payload(2)))
        #expect(cache.data(forKey: "k4") == Data(payload(4)))
        // Records that no longer tile the file: every name is a miss.
        try FileHandle(forWritingTo: URL(fileURLWithPath: cache.filePath(forKey: "k0"))).truncate(atOffset: UInt64(bytes.count - 5))
        for index in [0, 1, 2, 4, 5] { #expect(cache.data(forKey: "k\(index)") == nil) }
    }

    @Test func largeEntriesGetAFileOfTheirOwn() throws {
        let directory = TemporaryDirectory()
        let cache = try open(directory)
        var entries = batch(0..<3)
        entries.append(DiskCache.BatchEntry(key: "large", data: payload(7, count: DiskCache.batchEntryLimit)))
        #expect(cache.setData(batch: entries) == 4)
        #expect(try file(cache, "large").links == 1)
        #expect(try file(cache, "k0").links == 3)
        #expect(cache.data(forKey: "large") == Data(payload(7, count: DiskCache.batchEntryLimit)))
    }

    /// Linked with `AT_EMPTY_PATH`, through procfs, or (no linking) one file per entry.
    @Test(arguments: DiskCacheWriteMethodTests.methods)
    func everyWriteMethodStoresBatches(method: Int) throws {
        let directory = TemporaryDirectory()
        let cache = try open(directory)
        cache.linkMethod.store(method, ordering: .relaxed)
        try cache.setData(payload(40), forKey: "k4")
        #expect(cache.setData(batch: batch(0..<8)) == 8)
        for index in 0..<8 { #expect(cache.data(forKey: "k\(index)") == Data(payload(index))) }
        let reopened = try open(directory)
        for index in 0..<8 { #expect(reopened.data(forKey: "k\(index)") == Data(payload(index))) }
        // Both initial scans probe the directory with scratch files of their own; let them finish.
        cache.waitUntilIndexLoaded()
        reopened.waitUntilIndexLoaded()
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".tmp-") }
        #expect(leftovers.isEmpty)
    }

    /// Batches of overlapping keys from several threads, with readers: every read is whole.
    @Test func concurrentBatchesAndReadsStayConsistent() async throws {
        let directory = TemporaryDirectory()
        let cache = try open(directory)
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for round in 0..<20 {
                        cache.setData(batch: (0..<12).map { index in
                            DiskCache.BatchEntry(key: "k\((index + round) % 16)", data: payload(writer * 100 + round, count: 200),
                                                 metadata: .init(etag: "\"\(writer * 100 + round)\""))
                        })
                    }
                }
            }
            for _ in 0..<2 {
                group.addTask {
                    for _ in 0..<200 {
                        for index in 0..<16 {
                            guard let entry = cache.entry(forKey: "k\(index)") else { continue }
                            let seed = Int(entry.metadata.etag?.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) ?? "") ?? -1
                            #expect(entry.data == Data(payload(seed, count: 200)))
                        }
                    }
                }
            }
        }
        for index in 0..<16 { #expect(cache.data(forKey: "k\(index)") != nil) }
        #expect(cache.count == 16)
    }

    @Test func batchFilesStayWithinTheirLimits() throws {
        let directory = TemporaryDirectory()
        let cache = try open(directory)
        #expect(cache.setData(batch: batch(0..<100)) == 100)
        let files = try (0..<100).map { try file(cache, "k\($0)") }
        #expect(files.allSatisfy { $0.links <= DiskCache.batchCountLimit && $0.size <= DiskCache.batchByteLimit })
        #expect(Set(files.map(\.inode)).count == 4)
    }
}
