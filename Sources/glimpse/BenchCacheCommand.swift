import ArgumentParser
import Dispatch
import Foundation
import GlimpseCache
import Synchronization

/// `glimpse bench-cache`: throughput of the memory and disk caches, one CSV line per figure
/// (`cache,<name>,<value>,<unit>`). Disk figures are paired with the same bytes read or
/// written through plain FileManager in one directory, alternating runs, medians.
struct BenchCacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-cache",
        abstract: "Benchmark the memory and disk caches.",
        discussion: """
        Prints cache,memory-get-hit,…,ops/s; memory-get-hit-2threads (both on the default memory cache \
        configuration unless --shards is given, alternating short blocks, median block rate); memory-set-evict; \
        disk-read-hit, disk-read-raw, disk-write, disk-write-raw (MB/s, 64 KiB entries; reads alternate \
        16-entry blocks of cache and plain reads and use the median block time); \
        disk-open-100k (ms from opening a directory of that many entries to the first read).
        """
    )

    @Option(help: "Timed runs per figure (the median is printed).")
    var runs: Int = 5

    @Option(help: "Entries in the memory cache.")
    var memoryEntries: Int = 10_000

    @Option(help: "Memory cache shards (default: chosen from the limits as MemoryCache does by default; 1 = one strictly LRU order).")
    var shards: Int?

    @Option(help: "Memory operations per memory-set-evict run.")
    var memoryOperations: Int = 2_000_000

    @Option(help: "64 KiB entries per disk run.")
    var diskEntries: Int = 256

    @Option(help: "Entries in the directory opened for disk-open-100k.")
    var openEntries: Int = 100_000

    @Flag(help: "Only the memory cache figures.")
    var memoryOnly = false

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
        Terminal.standardError("memory cache: \(memory.shardCount) shard(s), \(shards == nil ? "automatic (the default configuration)" : "requested with --shards")")
        // One and two threads alternate in short blocks on one cache (which goes first too),
        // and each run reports its median block rate per side: a whole run lasts about as long
        // as a scheduler time slice, so on a busy machine a run-long figure mostly measures who
        // was preempted. Blocks give both sides the same machine.
        var hits: [Int: [Double]] = [:]
        for _ in 0..<runs {
            let cache = memory.makeCache()
            var blocks: [Int: [Double]] = [:]
            for block in 0..<MemoryBench.blocksPerRun {
                for threads in block % 2 == 0 ? [1, 2] : [2, 1] {
                    blocks[threads, default: []].append(memory.getHits(on: cache, threads: threads))
                }
            }
            for threads in [1, 2] { hits[threads, default: []].append(Measurements.median(blocks[threads] ?? [])) }
        }
        let single = Measurements.median(hits[1] ?? []), double = Measurements.median(hits[2] ?? [])
        line("memory-get-hit", single, "ops/s")
        line("memory-get-hit-2threads", double, "ops/s")
        let ratios = zip(hits[2] ?? [], hits[1] ?? []).map { String(format: "%.2f", $0 / $1) }
        Terminal.standardError("memory-get-hit-2threads / memory-get-hit per run (median of \(MemoryBench.blocksPerRun) alternating blocks each): \(ratios.joined(separator: " "))")
        let perCPU = memory.cpuRates.withLock { $0 }
        Terminal.standardError(String(format: "memory-get-hit per CPU second (median): 1 thread %.1f M, 2 threads %.1f M",
                                      Measurements.median(perCPU[1] ?? []) / 1e6, Measurements.median(perCPU[2] ?? []) / 1e6))
        line("memory-set-evict", median(runs) { memory.setEvict() }, "ops/s")
        if memoryOnly { return }

        let disk = try DiskBench(root: root, entries: diskEntries, durable: durable)
        var figures: [String: [Double]] = [:]
        for run in 0..<runs {
            // Alternate which side goes first so neither always enjoys a warmer system.
            let order = run % 2 == 0 ? [false, true] : [true, false]
            for raw in order {
                let write = try raw ? disk.writeRaw() : disk.writeCache()
                figures[raw ? "disk-write-raw" : "disk-write", default: []].append(write)
            }
            // Reads start on a quiet system, not during the writeback of the writes.
            sync()
            Thread.sleep(forTimeInterval: 0.05)
            let reads = try disk.readInterleaved(firstRaw: run % 2 == 1)
            figures["disk-read-hit", default: []].append(reads.cache)
            figures["disk-read-raw", default: []].append(reads.raw)
        }
        for name in ["disk-read-hit", "disk-read-raw", "disk-write", "disk-write-raw"] {
            line(name, Measurements.median(figures[name] ?? []), "MB/s")
        }
        for (ours, raw) in [("disk-read-hit", "disk-read-raw"), ("disk-write", "disk-write-raw")] {
            let ratios = zip(figures[ours] ?? [], figures[raw] ?? []).map { String(format: "%.2f", $0 / $1) }
            Terminal.standardError("\(ours) / \(raw) per run: \(ratios.joined(separator: " "))")
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
        return Measurements.median(values)
    }

}

/// Memory cache figures over Int keys and values (the cost of the lock and the list, not of
/// hashing long keys).
private final class MemoryBench: Sendable {
    let entries: Int
    let operations: Int
    let shards: Int?
    let keys: [Int]

    init(entries: Int, operations: Int, shards: Int?) {
        self.entries = entries
        self.operations = operations
        self.shards = shards
        var generator = SystemRandomNumberGenerator()
        keys = (0..<65_536).map { _ in Int.random(in: 0..<entries, using: &generator) }
    }

    /// Shards of the caches this bench creates.
    var shardCount: Int { makeCache(filled: false).shardCount }

    /// A cache holding keys 0..<entries, full when unsharded. Sharded, each shard gets an even
    /// share of the count limit, so the limit leaves room for uneven hashing and every get hits.
    func makeCache(filled: Bool = true) -> MemoryCache<Int, Int> {
        let sharded = MemoryCache<Int, Int>.automaticShardCount(costLimit: .max, countLimit: entries,
                                                                 entryCostLimitRatio: 0.1) > 1
        let limit = shards == 1 || (shards == nil && !sharded) ? entries : entries * 2
        let cache = MemoryCache<Int, Int>(configuration: .init(costLimit: .max, countLimit: limit, shardCount: shards))
        guard filled else { return cache }
        for key in 0..<entries { cache.setValue(key, forKey: key) }
        return cache
    }

    /// Timed blocks per run and thread count.
    static let blocksPerRun = 20
    /// Length of one timed block.
    static let blockDuration = Duration.milliseconds(20)

    /// Gets that all hit, from `threads` threads at once on `cache` for `blockDuration`;
    /// total ops/s. Every thread runs until the same deadline, so a thread that the machine
    /// preempts only loses its own operations instead of leaving the other idle at a barrier.
    func getHits(on cache: MemoryCache<Int, Int>, threads: Int) -> Double {
        let keys = self.keys
        let counts = Mutex<[Int]>([])
        let start = ContinuousClock.now
        let deadline = start + Self.blockDuration
        let cpuStart = Self.processCPUSeconds()
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var sum = 0, done = 0, index = thread &* 7919
            repeat {
                // 1024 gets between clock reads keep the clock out of the measurement.
                for _ in 0..<1024 {
                    sum &+= cache.value(forKey: keys[index & 65_535]) ?? 0
                    index &+= 1
                }
                done &+= 1024
            } while ContinuousClock.now < deadline
            if sum == -1 { print("unreachable") }
            counts.withLock { $0.append(done) }
        }
        let elapsed = Measurements.seconds(ContinuousClock.now - start)
        let total = Double(counts.withLock { $0.reduce(0, +) })
        cpuRates.withLock { $0[threads, default: []].append(total / (Self.processCPUSeconds() - cpuStart)) }
        return total / elapsed
    }

    /// Ops per second of process CPU time (every thread) of each getHits run, by thread count:
    /// separates what the cache costs per operation from how much CPU the machine granted.
    let cpuRates = Mutex<[Int: [Double]]>([:])

    static func processCPUSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Inserts of new keys into a full cache, each evicting the least recently used entry.
    func setEvict() -> Double {
        let cache = makeCache()
        let start = ContinuousClock.now
        for index in 0..<operations { cache.setValue(index, forKey: entries + index) }
        let elapsed = Measurements.seconds(ContinuousClock.now - start)
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
        return megabytes / Measurements.seconds(ContinuousClock.now - start)
    }

    /// Entries per timed read block.
    static let readBlock = 16

    /// Reads every entry through the cache and through FileManager, alternating blocks of
    /// `readBlock` entries between the two (and which goes first), and returns MB/s from each
    /// side's median block time. A run takes milliseconds, about one scheduler time slice, so
    /// on a busy machine a whole-run figure mostly measures who was preempted; medians of short
    /// interleaved blocks give both sides the same machine.
    func readInterleaved(firstRaw: Bool) throws -> (cache: Double, raw: Double) {
        var cacheTimes: [Double] = [], rawTimes: [Double] = []
        var raw = firstRaw
        for blockStart in stride(from: 0, to: entries, by: Self.readBlock) {
            let range = blockStart..<min(blockStart + Self.readBlock, entries)
            for side in [raw, !raw] {
                let start = ContinuousClock.now
                try side ? readRaw(range) : readCache(range)
                let seconds = Measurements.seconds(ContinuousClock.now - start) / Double(range.count)
                if side { rawTimes.append(seconds) } else { cacheTimes.append(seconds) }
            }
            raw.toggle()
        }
        let perEntry = Double(Self.entrySize) / 1e6
        return (perEntry / Measurements.median(cacheTimes), perEntry / Measurements.median(rawTimes))
    }

    private func readCache(_ range: Range<Int>) throws {
        for index in range {
            guard let data = cache.data(forKey: "https://example.com/\(index).png") else {
                throw CommandFailure("disk cache lost entry \(index)")
            }
            guard data.count == Self.entrySize else { throw CommandFailure("disk cache returned short data") }
        }
    }

    private func readRaw(_ range: Range<Int>) throws {
        for index in range {
            guard let data = FileManager.default.contents(atPath: rawDirectory + "/\(index)") else {
                throw CommandFailure("could not read \(rawDirectory)/\(index)")
            }
            guard data.count == Self.entrySize else { throw CommandFailure("raw read returned short data") }
        }
    }

    func writeRaw() throws -> Double {
        let start = ContinuousClock.now
        for index in 0..<entries {
            guard FileManager.default.createFile(atPath: rawDirectory + "/\(index)", contents: payload) else {
                throw CommandFailure("could not write \(rawDirectory)/\(index)")
            }
        }
        return megabytes / Measurements.seconds(ContinuousClock.now - start)
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
        return megabytes / Measurements.seconds(ContinuousClock.now - start)
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
            elapsed = Measurements.seconds(ContinuousClock.now - start) * 1e3
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
