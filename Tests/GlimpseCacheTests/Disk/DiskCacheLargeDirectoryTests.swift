import Foundation
import Testing
@testable import GlimpseCache

@Suite("DiskCache large directory")
struct DiskCacheLargeDirectoryTests {
    /// 100 000 entries: the first read is answered while the scan is held back, and the scan
    /// then indexes every entry and enforces the limits it finds exceeded.
    @Test func opensAHundredThousandEntryDirectoryWithoutBlocking() throws {
        let directory = TemporaryDirectory()
        let total = 100_000
        let payload = Data("tiny".utf8)
        try writeEntriesDirectly(count: total, payload: payload, directory: directory.path, realKeys: ["k54321", "k99999"])

        let gate = DispatchSemaphore(value: 0)
        var settings = DiskCache.Configuration(directory: directory.url, sizeLimit: 1 << 30, maxAge: .zero)
        settings.beforeInitialScan = { gate.wait() }
        let cache = try DiskCache(configuration: settings)
        #expect(cache.data(forKey: "k54321") == payload)
        #expect(cache.metadata(forKey: "k99999") != nil)
        #expect(!cache.isIndexLoaded)
        gate.signal()
        cache.waitUntilIndexLoaded()
        #expect(cache.count == total)
        #expect(cache.namesByRecency.last == DiskCache.fileName(forKey: "k99999"))

        cache.flush()  // the read of k54321 above must count on reopening
        // A smaller count limit on reopening: the scan trims to 80 % of it at once.
        let limited = try DiskCache(configuration: .init(directory: directory.url, countLimit: 50_000, maxAge: .zero))
        #expect(limited.count == 40_000)
        #expect(limited.data(forKey: "k54321") == payload)
    }

    /// Fills the directory the way earlier runs would have left it, cheaply: the entries the
    /// test reads are written for real, the others are hard links to one valid entry file
    /// under their own names (one `link(2)` each instead of create, write and close). The scan
    /// only lists names and sizes, so to it they are ordinary entries.
    private func writeEntriesDirectly(count: Int, payload: Data, directory: String, realKeys: Set<String>) throws {
        let stored = Date(timeIntervalSince1970: 1_700_000_000)
        func write(_ key: String, path: String) -> Bool {
            let written: Int? = payload.withUnsafeBytes { bytes in
                DiskCache.EntryFile.write(path: path, key: Array(key.utf8), metadata: .init(storedDate: stored),
                                          data: bytes, durable: false)
            }
            return written != nil
        }
        // ext4 allows 65 000 links per inode: a fresh template every 50 000 entries.
        let template = directory + "/.template"
        for index in 0..<count {
            if index % 50_000 == 0 {
                unlink(template)
                try #require(write("template", path: template))
            }
            let key = "k\(index)"
            let path = directory + "/" + DiskCache.fileName(forKey: key)
            if realKeys.contains(key) {
                try #require(write(key, path: path))
            } else {
                try #require(link(template, path) == 0)
            }
        }
        unlink(template)
    }
}
