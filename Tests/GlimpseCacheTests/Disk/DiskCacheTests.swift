import Foundation
import Testing
@testable import GlimpseCache

@Suite("DiskCache")
struct DiskCacheTests {
    private func configuration(_ directory: borrowing TemporaryDirectory, clock: TestClock? = nil,
                               sizeLimit: Int = 1 << 20, countLimit: Int? = nil) -> DiskCache.Configuration {
        var configuration = DiskCache.Configuration(directory: directory.url, sizeLimit: sizeLimit, countLimit: countLimit)
        if let clock { configuration.clock = clock.cacheClock }
        return configuration
    }

    private func bytes(_ count: Int, seed: UInt8 = 1) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
    }

    @Test func roundTripsDataAndMetadata() throws {
        let directory = TemporaryDirectory()
        let clock = TestClock(start: .seconds(1_700_000_000))
        let cache = try DiskCache(configuration: configuration(directory, clock: clock))
        let metadata = DiskCache.Metadata(etag: "\"abc\"", lastModified: "Tue, 15 Nov 1994 08:12:31 GMT",
                                          contentType: "image/png", originalURL: "https://example.com/a.png")
        try cache.setData(bytes(5000), metadata: metadata, forKey: "https://example.com/a.png")
        var expected = metadata
        expected.storedDate = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(cache.data(forKey: "https://example.com/a.png") == bytes(5000))
        #expect(cache.metadata(forKey: "https://example.com/a.png") == expected)
        #expect(cache.entry(forKey: "https://example.com/a.png")?.metadata == expected)
        #expect(cache.contains("https://example.com/a.png"))
        #expect(!cache.contains("https://example.com/b.png"))
        #expect(cache.data(forKey: "https://example.com/b.png") == nil)

        try cache.setData(Data(), forKey: "empty")
        #expect(cache.data(forKey: "empty") == Data())
        #expect(cache.metadata(forKey: "empty") == DiskCache.Metadata(storedDate: expected.storedDate))
        #expect(cache.count == 2)
    }

    @Test func namesFilesBySHA256SoKeysCannotEscape() throws {
        let directory = TemporaryDirectory()
        let cache = try DiskCache(configuration: configuration(directory))
        try cache.setData(bytes(10), forKey: "../../etc/passwd")
        // The initial scan probes the directory with a scratch file of its own; let it finish.
        cache.waitUntilIndexLoaded()
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names == [SHA256.hexDigest("../../etc/passwd".utf8)])
        #expect(DiskCache.fileName(forKey: "abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func replacesAndRemovesEntries() throws {
        let directory = TemporaryDirectory()
        let cache = try DiskCache(configuration: configuration(directory))
        try cache.setData(bytes(100), forKey: "a")
        try cache.setData(bytes(300, seed: 9), forKey: "a")
        try cache.setData(bytes(100), forKey: "b")
        #expect(cache.data(forKey: "a") == bytes(300, seed: 9))
        #expect(cache.count == 2)
        cache.remove("a")
        #expect(cache.data(forKey: "a") == nil)
        #expect(cache.count == 1)
        cache.removeAll()
        #expect(cache.count == 0 && cache.totalSize == 0)
        cache.waitUntilIndexLoaded()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func evictsLeastRecentlyUsedDownToTheTrimRatio() throws {
        let directory = TemporaryDirectory()
        let clock = TestClock()
        let key = { (index: Int) in "k" + (index < 10 ? "0" : "") + String(index) }  // equal lengths, equal sizes
        let probeDirectory = TemporaryDirectory()
        let probe = try DiskCache(configuration: configuration(probeDirectory))
        try probe.setData(bytes(1000), forKey: key(0))
        let entrySize = probe.totalSize
        // Room for exactly ten entries; a trim goes down to eight.
        let cache = try DiskCache(configuration: configuration(directory, clock: clock, sizeLimit: entrySize * 10))
        for index in 0..<10 {
            try cache.setData(bytes(1000), forKey: key(index))
            clock.advance(by: .seconds(1))
        }
        #expect(cache.count == 10)
        for index in [0, 2, 4] { #expect(cache.data(forKey: key(index)) != nil) }
        try cache.setData(bytes(1000), forKey: key(10))  // 11 entries: evict the three least recent
        #expect(cache.count == 8)
        #expect(cache.evictionCount == 3)
        #expect(cache.totalSize == entrySize * 8)
        #expect((0...10).filter { cache.contains(key($0)) } == [0, 2, 4, 6, 7, 8, 9, 10])
        #expect(cache.namesByRecency == [6, 7, 8, 9, 0, 2, 4, 10].map { DiskCache.fileName(forKey: key($0)) })
    }

    @Test func enforcesTheCountLimit() throws {
        let directory = TemporaryDirectory()
        let cache = try DiskCache(configuration: configuration(directory, countLimit: 5))
        for index in 0..<6 { try cache.setData(bytes(10), forKey: "k\(index)") }
        #expect(cache.count == 4)
        #expect(cache.evictionCount == 2)
        #expect((0..<6).filter { cache.contains("k\($0)") } == [2, 3, 4, 5])
        cache.waitUntilIndexLoaded()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 4)
    }

    @Test func refusesEntriesLargerThanTheLimit() throws {
        let directory = TemporaryDirectory()
        let cache = try DiskCache(configuration: configuration(directory, sizeLimit: 4096))
        #expect(throws: DiskCache.Error.entryTooLarge(size: 48 + 3 + 24 + 5000, limit: 4096)) {
            try cache.setData(bytes(5000), forKey: "big")
        }
        #expect(cache.count == 0)
        let roomy = try DiskCache(configuration: configuration(directory, sizeLimit: 16 << 20))
        let longKey = String(repeating: "k", count: (1 << 20) + 1)
        #expect(throws: DiskCache.Error.keyOrMetadataTooLong(length: (1 << 20) + 1, limit: 1 << 20)) {
            try roomy.setData(bytes(10), forKey: longKey)
        }
        #expect(throws: DiskCache.Error.keyOrMetadataTooLong(length: 8 + 4 * 4 + (1 << 20) + 1, limit: 1 << 20)) {
            try roomy.setData(bytes(10), metadata: .init(originalURL: longKey), forKey: "k")
        }
        #expect(roomy.count == 0)
    }

    @Test func expiresEntriesByMaxAge() throws {
        let directory = TemporaryDirectory()
        let clock = TestClock(start: .seconds(1_700_000_000))
        var settings = configuration(directory, clock: clock)
        settings.maxAge = .seconds(3600)
        let cache = try DiskCache(configuration: settings)
        try cache.setData(bytes(10), forKey: "old")
        clock.advance(by: .seconds(1800))
        try cache.setData(bytes(10), forKey: "young")
        clock.advance(by: .seconds(1801))
        #expect(cache.data(forKey: "old") == nil)
        #expect(!FileManager.default.fileExists(atPath: cache.filePath(forKey: "old")))
        #expect(cache.data(forKey: "young") != nil)
        #expect(cache.evictionCount == 1, "found expired on reading")
        clock.advance(by: .seconds(1800))
        cache.removeExpired()
        #expect(cache.count == 0)
        #expect(cache.evictionCount == 2, "and swept")
        cache.remove("gone")
        #expect(cache.evictionCount == 2, "a caller's removal is not an eviction")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix(".") }.isEmpty)
    }

    @Test func zeroMaxAgeNeverExpires() throws {
        let directory = TemporaryDirectory()
        let clock = TestClock(start: .seconds(1_700_000_000))
        var settings = configuration(directory, clock: clock)
        settings.maxAge = .zero
        let cache = try DiskCache(configuration: settings)
        try cache.setData(bytes(10), forKey: "a")
        clock.advance(by: .seconds(100 * 365 * 86400))
        cache.removeExpired()
        #expect(cache.data(forKey: "a") != nil)
    }

    enum Damage: String, CaseIterable, Sendable {
        case truncatedData, truncatedHeader, empty, flippedDataByte, flippedMetadataByte, flippedHeaderByte,
             trailingGarbage, foreignFile, wrongVersion
    }

    @Test(arguments: Damage.allCases)
    func treatsDamagedEntriesAsMissesAndRemovesThem(damage: Damage) throws {
        let directory = TemporaryDirectory()
        let cache = try DiskCache(configuration: configuration(directory))
        try cache.setData(bytes(2000), metadata: .init(etag: "e"), forKey: "victim")
        try cache.setData(bytes(2000), forKey: "bystander")
        let path = cache.filePath(forKey: "victim")
        var file = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        switch damage {
        case .truncatedData: file.removeLast(100)
        case .truncatedHeader: file = Array(file.prefix(20))
        case .empty: file = []
        case .flippedDataByte: file[file.count - 10] ^= 0x01
        case .flippedMetadataByte: file[48 + 6 + 3] ^= 0x80
        case .flippedHeaderByte: file[17] ^= 0x01
        case .trailingGarbage: file += [0, 0, 0]
        case .foreignFile: file = Array("\u{89}PNG\r\n\u{1a}\n not a cache entry at all, just some bytes".utf8) + file
        case .wrongVersion: file[4] = 1  // version 1, the format before the page-weighted checksum
        }
        try Data(file).write(to: URL(fileURLWithPath: path))
        if damage == .flippedDataByte {
            // Metadata reads skip the data, so only a data read can notice this one.
            #expect(cache.metadata(forKey: "victim")?.etag == "e")
        } else {
            #expect(cache.metadata(forKey: "victim") == nil)
        }
        #expect(cache.data(forKey: "victim") == nil)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(cache.data(forKey: "bystander") == bytes(2000))
        // The key works again afterwards.
        try cache.setData(bytes(10), forKey: "victim")
        #expect(cache.data(forKey: "victim") == bytes(10))
    }

    @Test func ignoresDirectoriesAndUnreadablePathsAtEntryNames() throws {
        let directory = TemporaryDirectory()
        let cache = try DiskCache(configuration: configuration(directory))
        try FileManager.default.createDirectory(atPath: cache.filePath(forKey: "dir"), withIntermediateDirectories: false)
        #expect(cache.data(forKey: "dir") == nil)
        #expect(cache.count == 0)
    }

    @Test func keepsRecencyAcrossReopeningThroughTheJournal() throws {
        let directory = TemporaryDirectory()
        let clock = TestClock(start: .seconds(1_700_000_000))
        do {
            let cache = try DiskCache(configuration: configuration(directory, clock: clock))
            for key in ["a", "b", "c", "d"] {
                try cache.setData(bytes(100), forKey: key)
                clock.advance(by: .seconds(1))
            }
            _ = cache.data(forKey: "b")
            clock.advance(by: .seconds(1))
            _ = cache.data(forKey: "a")
            cache.flush()
        }
        let reopened = try DiskCache(configuration: configuration(directory, clock: clock))
        #expect(reopened.namesByRecency == ["c", "d", "b", "a"].map(DiskCache.fileName(forKey:)))
        #expect(reopened.count == 4)
    }

    @Test func compactsTheJournalAndKeepsRecency() throws {
        let directory = TemporaryDirectory()
        let clock = TestClock(start: .seconds(1_700_000_000))
        do {
            let cache = try DiskCache(configuration: configuration(directory, clock: clock))
            for key in ["a", "b", "c"] { try cache.setData(bytes(10), forKey: key) }
            cache.waitUntilIndexLoaded()
            // Past the 4096-line threshold (checked at each 256-read flush), ending c, a, b.
            for step in 0..<4500 {
                clock.advance(by: .milliseconds(1))
                _ = cache.data(forKey: ["c", "a", "b"][step % 3])
            }
            clock.advance(by: .seconds(1))
            _ = cache.data(forKey: "b")
            cache.flush()
        }
        let journal = try Data(contentsOf: directory.url.appendingPathComponent(".journal"))
        // Compacted once past 4096 lines: one line per entry plus the reads since.
        #expect(journal.count / DiskCache.Journal.lineLength < 1000)
        let reopened = try DiskCache(configuration: configuration(directory, clock: clock))
        #expect(reopened.namesByRecency == ["c", "a", "b"].map(DiskCache.fileName(forKey:)))
    }

    @Test func servesReadsBeforeTheInitialScanFinishes() throws {
        let directory = TemporaryDirectory()
        do {
            let writer = try DiskCache(configuration: configuration(directory))
            for index in 0..<20 { try writer.setData(bytes(100, seed: UInt8(index)), forKey: "k\(index)") }
        }
        let gate = DispatchSemaphore(value: 0)
        var settings = configuration(directory)
        settings.beforeInitialScan = { gate.wait() }
        let cache = try DiskCache(configuration: settings)
        #expect(cache.data(forKey: "k7") == bytes(100, seed: 7))
        try cache.setData(bytes(5), forKey: "new")
        cache.remove("k3")
        #expect(!cache.isIndexLoaded)
        gate.signal()
        cache.waitUntilIndexLoaded()
        #expect(cache.count == 20)
        #expect(!cache.contains("k3"))
        // Entries touched before the scan merged stay the most recent.
        #expect(cache.namesByRecency.suffix(2) == ["k7", "new"].map(DiskCache.fileName(forKey:)))
    }

    @Test func removesStaleTemporaryFilesWhenOpening() throws {
        let directory = TemporaryDirectory()
        let stale = directory.url.appendingPathComponent(".tmp-1-1-1")
        let fresh = directory.url.appendingPathComponent(".tmp-2-2-2")
        try Data([1, 2, 3]).write(to: stale)
        try Data([1, 2, 3]).write(to: fresh)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: stale.path)
        let cache = try DiskCache(configuration: configuration(directory))
        cache.waitUntilIndexLoaded()
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: fresh.path))
        #expect(cache.count == 0)
    }

    @Test func asyncVariantsMatchTheSynchronousOnes() async throws {
        let directory = TemporaryDirectory()
        let cache = try DiskCache(configuration: configuration(directory))
        try await cache.async.setData(bytes(777), metadata: .init(contentType: "image/gif"), forKey: "a")
        #expect(await cache.async.data(forKey: "a") == bytes(777))
        #expect(await cache.async.metadata(forKey: "a")?.contentType == "image/gif")
        #expect(await cache.async.contains("a"))
        #expect(await cache.async.count == 1)
        #expect(await cache.async.totalSize > 777)
        await cache.async.remove("a")
        #expect(await cache.async.data(forKey: "a") == nil)
        await cache.async.removeExpired()
        await cache.async.removeAll()
        await #expect(throws: DiskCache.Error.self) {
            try await cache.async.setData(Data(count: 2 << 20), forKey: "big")
        }
    }

    @Test func staysConsistentUnderConcurrentReadersAndWriters() async throws {
        let directory = TemporaryDirectory()
        let cache = try DiskCache(configuration: configuration(directory, sizeLimit: 300_000))
        let failures = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var failures = 0
                    for step in 0..<150 {
                        let key = "k\((step * 7 + worker) % 40)"
                        if step % 3 == 0 {
                            let data = StressPayload.make(key: key, generation: step * 8 + worker, size: 500 + step * 53 % 9000)
                            if (try? await cache.async.setData(data, forKey: key)) == nil { failures += 1 }
                        } else if let data = cache.data(forKey: key), !StressPayload.isValid(data, key: key) {
                            failures += 1
                        }
                    }
                    return failures
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
        #expect(cache.totalSize <= 300_000)
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix(".") }
        #expect(onDisk.count == cache.count)
    }

    @Test func defaultRootFollowsXDG() {
        let xdg = DiskCache.Configuration.defaultRoot(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/u"])
        #expect(xdg.path == "/x/cache/glimpse")
        let home = DiskCache.Configuration.defaultRoot(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/u"])
        #expect(home.path == "/home/u/.cache/glimpse")
        let namespaced = DiskCache.Configuration(namespace: "../images", environment: ["HOME": "/home/u"])
        #expect(namespaced.directory.path == "/home/u/.cache/glimpse/___images")
    }
}
