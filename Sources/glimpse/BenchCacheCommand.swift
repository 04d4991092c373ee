import ArgumentParser
import Dispatch
import Foundation
import GlimpseCache

/// `glimpse bench-cache`: throughput of the memory and disk caches, one CSV line per figure
/// (`cache,<name>,<value>,<unit>`). Disk figures are paired with the same bytes read or
/// written through plain FileManager in one directory, alternating runs, medians.
struct BenchCacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-cache",
        abstract: "Benchmark the memory and disk caches.",
        discussion: """
        Prints cache,memory-get-hit,…,ops/s; memory-get-hit-2threads; memory-set-evict; \
        disk-read-hit, disk-read-raw, disk-write, disk-write-raw (MB/s, 64 KiB entries); \
        disk-open-100k (ms from opening a directory of that many entries to the first read).
        """
    )

    @Option(help: "Timed runs per figure (the median is printed).")
    var runs: Int = 5

    @Option(help: "Entries in the memory cache.")
    var memoryEntries: Int = 10_000

    @Option(help: "Memory cache shards (1 = one strictly LRU order; more = parallel hits).")
    var shards: Int = 1

    @Option(help: "Memory operations per run.")
    var memoryOperations: Int = 2_000_000

    @Option(help: "64 KiB entries per disk run.")
    var diskEntries: Int = 256

    @Option(help: "Entries in the directory opened for disk-open-100k.")
    var openEntries: Int = 100_000

    @Flag(help: "fsync each disk cache entry before renaming it into place (durableWrites).")
    var durable = false

    @Option(help: "Where to create scratch directories (default: the temporary directory).")
    var directory: String?

    func validate() throws {
        guard runs >= 1, memoryEntries >= 1, memoryOperations >= 1, diskEntries >= 1, openEntries >= 1 else {
            throw ValidationError("counts must be at least 1")
        }
    }

    func run() throws {
        let root = URL(fileURLWithPath: directory ?? FileManager.default.temporaryDirectory.path)
            .appendingPathComponent("glimpse-bench-cache-\(getpid())", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: root) }

        let memory = MemoryBench(entries: memoryEntries, operations: memoryOperations, shards: shards)
        line("memory-get-hit", median(runs) { memory.getHits(threads: 1) }, "ops/s")
        line("memory-get-hit-2threads", median(runs) { memory.getHits(threads: 2) }, "ops/s")
        line("memory-set-evict", median(runs) { memory.setEvict() }, "ops/s")

        let disk = try DiskBench(root: root, entries: diskEntries, durable: durable)
        var figures: [String: [Double]] = [:]
        for run in 0..<runs {
            // Alternate which side goes first so neither always enjoys a warmer system.
            let order = run % 2 == 0 ? [false, true] : [true, false]
            for raw in order {
                let write = try raw ? disk.writeRaw() : disk.writeCache()
                // Reads start on a quiet system, not during the writeback of the writes, and
                // after the same short sleep on both sides: on a busy machine the scheduler
                // favours a thread that just slept (as the raw side does inside fsync), which
                // would otherwise skew the comparison.
                sync()
                Thread.sleep(forTimeInterval: 0.05)
                let read = try raw ? disk.readRaw() : disk.readCache()
                figures[raw ? "disk-write-raw" : "disk-write", default: []].append(write)
                figures[raw ? "disk-read-raw" : "disk-read-hit", default: []].append(read)
            }
        }
        for name in ["disk-read-hit", "disk-read-raw", "disk-write", "disk-write-raw"] {
            line(name, Self.median(figures[name] ?? []), "MB/s")
        }

        let opening = try OpenBench(root: root.appendingPathComponent("open"), entries: openEntries)
        line("disk-open-100k", median(runs) { opening.openToFirstRead() }, "ms")
    }

    private func line(_ name: String, _ value: Double, _ unit: String) {
        print(String(format: "cache,%@,%.1f,%@", name, value, unit))
    }

    private func median(_ runs: Int, _ body: () throws -> Double) rethrows -> Double {
        var values: [Double] = []
        for _ in 0..<runs { values.append(try body()) }
        return Self.median(values)
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// Memory cache figures over Int keys and values (the cost of the lock and the list, not of
/// hashing long keys).
private struct MemoryBench {
    let entries: Int
    let operations: Int
    let shards: Int
    let keys: [Int]

    init(entries: Int, operations: Int, shards: Int) {
        self.entries = entries
        self.operations = operations
        self.shards = shards
        var generator = SystemRandomNumberGenerator()
        keys = (0..<65_536).map { _ in Int.random(in: 0..<entries, using: &generator) }
    }

    /// A cache holding keys 0..<entries, full when unsharded. Sharded, each shard gets an even
    /// share of the count limit, so the limit leaves room for uneven hashing and every get hits.
    private func makeCache() -> MemoryCache<Int, Int> {
        let limit = shards == 1 ? entries : entries * 2
        let cache = MemoryCache<Int, Int>(configuration: .init(costLimit: .max, countLimit: limit, shardCount: shards))
        for key in 0..<entries { cache.setValue(key, forKey: key) }
        return cache
    }

    /// Gets that all hit, from `threads` threads at once on one cache; total ops/s.
    func getHits(threads: Int) -> Double {
        let cache = makeCache()
        let perThread = operations
        let keys = self.keys
        let start = ContinuousClock.now
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var sum = 0
            for index in 0..<perThread {
                sum &+= cache.value(forKey: keys[(index &+ thread &* 7919) & 65_535]) ?? 0
            }
            if sum == -1 { print("unreachable") }
        }
        let elapsed = BenchCacheCommand.seconds(ContinuousClock.now - start)
        return Double(perThread * threads) / elapsed
    }

    /// Inserts of new keys into a full cache, each evicting the least recently used entry.
    func setEvict() -> Double {
        let cache = makeCache()
        let start = ContinuousClock.now
        for index in 0..<operations { cache.setValue(index, forKey: entries + index) }
        let elapsed = BenchCacheCommand.seconds(ContinuousClock.now - start)
        return Double(operations) / elapsed
    }
}

/// 64 KiB entries through the disk cache versus plain FileManager files in one directory.
private struct DiskBench {
    static let entrySize = 64 << 10
    let root: URL
    let entries: Int
    let payload: Data
    let cache: DiskCache
    let rawDirectory: String

    init(root: URL, entries: Int, durable: Bool) throws {
        self.root = root
        self.entries = entries
        payload = Data((0..<Self.entrySize).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) })
        cache = try DiskCache(configuration: .init(directory: root.appendingPathComponent("cache"), durableWrites: durable))
        rawDirectory = root.appendingPathComponent("raw").path
        try FileManager.default.createDirectory(atPath: rawDirectory, withIntermediateDirectories: true)
    }

    private var megabytes: Double { Double(entries * Self.entrySize) / 1e6 }

    func writeCache() throws -> Double {
        let start = ContinuousClock.now
        for index in 0..<entries {
            try cache.setData(payload, metadata: .init(contentType: "image/png"), forKey: "https://example.com/\(index).png")
        }
        return megabytes / BenchCacheCommand.seconds(ContinuousClock.now - start)
    }

    func readCache() throws -> Double {
        let start = ContinuousClock.now
        var bytes = 0
        for index in 0..<entries {
            guard let data = cache.data(forKey: "https://example.com/\(index).png") else {
                throw CommandFailure("disk cache lost entry \(index)")
            }
            bytes += data.count
        }
        guard bytes == entries * Self.entrySize else { throw CommandFailure("disk cache returned short data") }
        return megabytes / BenchCacheCommand.seconds(ContinuousClock.now - start)
    }

    func writeRaw() throws -> Double {
        let start = ContinuousClock.now
        for index in 0..<entries {
            guard FileManager.default.createFile(atPath: rawDirectory + "/\(index)", contents: payload) else {
                throw CommandFailure("could not write \(rawDirectory)/\(index)")
            }
        }
        return megabytes / BenchCacheCommand.seconds(ContinuousClock.now - start)
    }

    func readRaw() throws -> Double {
        let start = ContinuousClock.now
        var bytes = 0
        for index in 0..<entries {
            guard let data = FileManager.default.contents(atPath: rawDirectory + "/\(index)") else {
                throw CommandFailure("could not read \(rawDirectory)/\(index)")
            }
            bytes += data.count
        }
        guard bytes == entries * Self.entrySize else { throw CommandFailure("raw read returned short data") }
        return megabytes / BenchCacheCommand.seconds(ContinuousClock.now - start)
    }
}

/// A directory of many small entries, opened afresh each run.
private struct OpenBench {
    let directory: URL
    let entries: Int

    init(directory root: URL, entries: Int) throws {
        directory = root
        self.entries = entries
        weak var filler: DiskCache?
        do {
            let cache = try DiskCache(configuration: .init(directory: root, sizeLimit: 1 << 40, maxAge: .zero))
            let payload = Data(repeating: 7, count: 100)
            for index in 0..<entries { try cache.setData(payload, forKey: "entry-\(index)") }
            cache.waitUntilIndexLoaded()
            filler = cache
        }
        while filler != nil { Thread.sleep(forTimeInterval: 0.001) }
        Thread.sleep(forTimeInterval: 0.05)
    }

    init(root: URL, entries: Int) throws {
        try self.init(directory: root, entries: entries)
    }

    /// Milliseconds from opening the directory to the first served read.
    func openToFirstRead() -> Double {
        weak var opened: DiskCache?
        var elapsed = Double.infinity
        do {
            let start = ContinuousClock.now
            guard let cache = try? DiskCache(configuration: .init(directory: directory, sizeLimit: 1 << 40, maxAge: .zero)),
                  cache.data(forKey: "entry-\(entries / 2)") != nil else { return .infinity }
            elapsed = BenchCacheCommand.seconds(ContinuousClock.now - start) * 1e3
            cache.waitUntilIndexLoaded()  // let the scan finish before the next run opens again
            opened = cache
        }
        // Tearing down a 100 000-entry index is a CPU burst on whichever thread drops the last
        // reference; let it end (and the machine settle) before the next run's clock starts.
        while opened != nil { Thread.sleep(forTimeInterval: 0.001) }
        Thread.sleep(forTimeInterval: 0.05)
        return elapsed
    }
}
