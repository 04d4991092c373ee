import Foundation
import Testing
@testable import GlimpseCache

/// Misses the index answers without a lookup (`DiskCache+KnownMisses.swift`) never hide an
/// entry someone else put in the directory.
@Suite("DiskCache known misses")
struct DiskCacheKnownMissTests {
    private func open(_ directory: borrowing TemporaryDirectory) throws -> DiskCache {
        let cache = try DiskCache(configuration: DiskCache.Configuration(directory: directory.url))
        cache.waitUntilIndexLoaded()
        return cache
    }

    private func payload(_ index: Int) -> [UInt8] {
        (0..<300).map { UInt8(truncatingIfNeeded: $0 &+ index) }
    }

    /// Whether this kernel and filesystem give the directory fine-grained change times (Linux
    /// 6.13+ on ext4, xfs, btrfs, tmpfs); without them the shortcut is off and only the
    /// visibility half of these tests says anything. Probed in a directory of its own: the
    /// probe's changes would turn the shortcut off for a cache in the same one.
    private func isFineGrained() -> Bool {
        let directory = TemporaryDirectory()
        let fd = POSIXFile.open(directory.path, flags: [.readOnly, .directory])
        defer { if fd >= 0 { POSIXFile.close(fd) } }
        var serial = 0
        return DiskCache.DirectoryStamp.isFineGrained(directory: fd, path: directory.path) {
            serial += 1
            return ".tmp-probe-test-\(serial)"
        }
    }

    @Test func ownWritesAndRemovalsKeepTheShortcut() throws {
        let directory = TemporaryDirectory()
        let fineGrained = isFineGrained()
        let cache = try open(directory)
        let absent = DiskCache.fileName(forKey: "absent")
        #expect(cache.isKnownMiss(absent) == fineGrained)
        for index in 0..<50 {
            try cache.setData(payload(index), forKey: "k\(index)")
        }
        try cache.setData(payload(99), forKey: "k7")  // a replacement renames over the old file
        cache.remove("k3")
        #expect(cache.isKnownMiss(absent) == fineGrained)
        #expect(!cache.isKnownMiss(DiskCache.fileName(forKey: "k1")))
        #expect(cache.isKnownMiss(DiskCache.fileName(forKey: "k3")) == fineGrained)
        #expect(cache.data(forKey: "k1") == Data(payload(1)))
        #expect(cache.data(forKey: "k7") == Data(payload(99)))
        #expect(cache.data(forKey: "k3") == nil)
        #expect(cache.data(forKey: "absent") == nil)
        cache.flush()  // creates the journal file
        cache.removeAll()
        #expect(cache.isKnownMiss(DiskCache.fileName(forKey: "k1")) == fineGrained)
        #expect(cache.data(forKey: "k1") == nil)
    }

    @Test func anEntryWrittenByAnotherCacheIsFound() throws {
        let directory = TemporaryDirectory()
        // The writer first: opening probes the directory, which the reader must not see as a change.
        let writer = try open(directory)
        let reader = try open(directory)
        // Alternating, so that the other cache's write often lands right after the reader's
        // own change (the moment a coarse directory time would hide it).
        for index in 0..<100 {
            try reader.setData(payload(index), forKey: "own\(index)")
            try writer.setData(payload(index), forKey: "other\(index)")
            #expect(reader.data(forKey: "other\(index)") == Data(payload(index)))
            #expect(reader.data(forKey: "missing\(index)") == nil)
        }
        // Once the directory changed behind its back the reader asks the filesystem for good.
        #expect(!reader.isKnownMiss(DiskCache.fileName(forKey: "missing")))
    }

    @Test func aFileCreatedBehindTheCacheTurnsTheShortcutOff() throws {
        let directory = TemporaryDirectory()
        let other = try open(directory)
        let cache = try open(directory)
        try other.setData(payload(1), forKey: "x")
        // Written before `cache` saw any change of its own: its next change must not absorb it.
        try cache.setData(payload(2), forKey: "y")
        #expect(!cache.isKnownMiss(DiskCache.fileName(forKey: "x")))
        #expect(cache.data(forKey: "x") == Data(payload(1)))
        #expect(!cache.isKnownMiss(DiskCache.fileName(forKey: "z")))
    }

    @Test func entriesPresentAtOpeningAreFound() throws {
        let directory = TemporaryDirectory()
        do {
            let first = try open(directory)
            for index in 0..<20 { try first.setData(payload(index), forKey: "k\(index)") }
        }
        let reopened = try open(directory)
        for index in 0..<20 {
            #expect(!reopened.isKnownMiss(DiskCache.fileName(forKey: "k\(index)")))
            #expect(reopened.data(forKey: "k\(index)") == Data(payload(index)))
        }
        #expect(reopened.data(forKey: "k20") == nil)
        // The probe of the directory's times leaves nothing behind.
        reopened.waitUntilIndexLoaded()
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(!names.contains { $0.hasPrefix(DiskCache.DirectoryScan.temporaryPrefix) })
    }
}
