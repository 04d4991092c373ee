import ArgumentParser
import Foundation
import Glimpse
import GlimpseCache

/// `glimpse bench-pipeline`: memory hits, cold loads through the pipeline,
/// and the same downloads and decodes without it.
struct BenchPipelineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-pipeline",
        abstract: "Benchmark the image pipeline on a loopback server serving Fixtures/.",
        discussion: """
        Prints CSV lines pipeline,<name>,<value>,<unit>: memory-hit (loads/s of an image in the memory tier, \
        one task), cold (images/s loading COUNT fixture images through the pipeline with empty caches, until their \
        background disk writes have finished too) and \
        direct (images/s downloading and decoding the same files with the downloader and the decoder registry \
        only). cold and direct alternate for ROUNDS rounds each; medians. Their ratio goes to standard error. \
        With the large bench images (--bench): latency-under-load (p99 ms of a 10 ms sleeper's wake-up delay while \
        they load), peak-rss-200-large (peak resident MB while 200 thumbnail loads of them run at once, with the \
        server profile's decoding limits), processed-disk-hit (256 px thumbnails/s from the data tier after a restart) and \
        original-disk-hit-resized (the same thumbnails decoded again from the originals on disk).
        """
    )

    @Option(help: "Images per cold or direct round.")
    var count: Int = 200

    /// A round is about 50 ms and single rounds swing by ±15 % on a shared two-core machine
    /// (scheduling, the filesystem's inode allocator): with 15 rounds the printed ratio still
    /// moved by ±0.04 from run to run, so 31 (about 3 s of rounds).
    @Option(help: "Timed rounds per contender, alternating.")
    var rounds: Int = 31

    @Option(help: "Loads in the memory-hit loop.")
    var memoryLoads: Int = 1_000_000

    @Flag(help: "Rate cold and direct per second of process CPU time (user + system, every thread, the embedded server's too) instead of wall time: steadier on a busy machine.")
    var cpuTime = false

    @Flag(help: "Run the cold loads without a disk tier (shows what the disk writes cost).")
    var memoryOnly = false

    @Option(help: "Where the cold rounds' disk caches go (default: the temporary directory).")
    var scratch: String?

    @Option(help: "Fixtures directory (default: found next to the sources, else ./Fixtures).")
    var fixtures: String?

    @Option(help: "The large bench images for latency-under-load and processed-disk-hit (default: ../shared/bench); skipped when absent.")
    var bench: String?

    @Option(help: "Rounds of the 16 large images while the latency probe sleeps.")
    var latencyRounds: Int = 3

    @Option(help: "Rounds of thumbnail loads from disk, per contender.")
    var diskHitRounds: Int = 5

    @Option(help: "Only these figures (repeatable): memory-hit, cold (cold and direct), latency-under-load, peak-rss-200-large, processed-disk-hit (and original-disk-hit-resized). Default: all.")
    var only: [Figure] = []

    @Option(help: "Loads at once for peak-rss-N-large.")
    var peakLoads: Int = 200

    @Option(help: "peak-rss-N-large: load the large images from this origin (nginx serving the bench folder, e.g. http://127.0.0.1:8080) instead of the in-process server, whose copies of the files would count; each load adds ?n=INDEX, a URL of its own.")
    var origin: String?

    enum Figure: String, ExpressibleByArgument, CaseIterable {
        case memoryHit = "memory-hit", cold, latencyUnderLoad = "latency-under-load"
        case peakRSS = "peak-rss-200-large", processedDiskHit = "processed-disk-hit"
    }

    func measures(_ figure: Figure) -> Bool { only.isEmpty || only.contains(figure) }

    @Option(help: "Threads of the pipelines' executors (default: ImagePipeline.Configuration.defaultProcessingWidth, one per core).")
    var processingWidth: Int?

    @Option(help: "Nice value the executors' threads add (default: ImagePipeline.Configuration's, 5).")
    var processingNiceness: Int32?

    /// A pipeline configuration with the chosen executor width and niceness.
    func pipelineConfiguration(downloader: ImageDownloader, cache: ImageCache) -> ImagePipeline.Configuration {
        var configuration = ImagePipeline.Configuration(downloader: downloader, cache: cache)
        if let processingWidth { configuration.processingWidth = processingWidth }
        if let processingNiceness { configuration.processingNiceness = processingNiceness }
        return configuration
    }

    func validate() throws {
        guard count >= 1, rounds >= 1, memoryLoads >= 1 else { throw ValidationError("every count must be at least 1") }
        if let processingWidth, processingWidth < 1 { throw ValidationError("--processing-width must be at least 1") }
        if let processingNiceness, !(0...19).contains(processingNiceness) {
            throw ValidationError("--processing-niceness must be in 0...19")
        }
    }

    func run() async throws {
        guard let directory = fixtures.map({ URL(fileURLWithPath: $0, isDirectory: true) })
            ?? FixtureServer.locateFixtures() else {
            throw CommandFailure("cannot find Fixtures/ (pass --fixtures DIR)")
        }
        // Only files that decode: a corrupt one would measure the failed-URL cache.
        let files = FixtureServer.images(in: directory).filter { (try? DecoderRegistry.standard.decode($0.bytes)) != nil }
        guard !files.isEmpty else { throw CommandFailure("\(directory.path): no decodable images") }
        let fixtureServer = try FixtureServer(files: files)
        defer { fixtureServer.server.shutdown() }
        let downloader = ImageDownloader()
        defer { downloader.invalidate() }

        if measures(.memoryHit) {
            let memoryRate = try await memoryHits(fixtureServer, downloader: downloader)
            print("pipeline,memory-hit,\(Int(memoryRate)),loads/s")
        }

        // Every round's empty disk cache stays until the end: deleting files between rounds
        // makes ext4 search recently freed inodes on each create, which is not the pipeline's cost.
        let scratch = (self.scratch.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? FileManager.default.temporaryDirectory)
            .appendingPathComponent("glimpse-bench-pipeline-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        if measures(.cold) {
            try await coldAndDirect(files, fixtureServer: fixtureServer, downloader: downloader, scratch: scratch)
        }
        guard measures(.latencyUnderLoad) || measures(.peakRSS) || measures(.processedDiskHit) else { return }
        if let benchDirectory = bench.map({ URL(fileURLWithPath: $0, isDirectory: true) }) ?? Self.locateBench(fixtures: directory) {
            if let origin, measures(.peakRSS) {
                // Before the in-process server reads the files: none of their bytes are resident.
                let names = Self.largeImageNames(in: benchDirectory)
                guard let base = URL(string: origin), !names.isEmpty else { throw CommandFailure("\(origin): not a URL, or no large images") }
                let loads = max(1, peakLoads)
                if let memory = await peakResidentMemory(loads: loads, images: names.count, downloader: downloader, url: { index in
                    URL(string: base.absoluteString + "/" + names[index % names.count] + "?n=\(index)") ?? base
                }) {
                    print("pipeline,peak-rss-\(loads)-large,\(String(format: "%.1f", memory.peak)),MB")
                }
            }
            let large = Self.largeImages(in: benchDirectory)
            if large.isEmpty {
                Terminal.standardError("\(benchDirectory.path): no large images; skipping latency-under-load and processed-disk-hit")
            } else {
                let largeServer = try FixtureServer(files: large)
                defer { largeServer.server.shutdown() }
                if measures(.latencyUnderLoad) {
                    let latency = await latencyUnderLoad(large, server: largeServer, downloader: downloader)
                    print("pipeline,latency-under-load,\(String(format: "%.2f", latency)),ms")
                }
                if measures(.peakRSS), origin == nil,
                   let memory = await peakResidentMemory(loads: max(1, peakLoads), images: large.count, downloader: downloader,
                                                         url: { largeServer.url(large[$0 % large.count], copy: 2_000_000 + $0) }) {
                    print("pipeline,peak-rss-\(max(1, peakLoads))-large,\(String(format: "%.1f", memory.peak)),MB")
                }
                if measures(.processedDiskHit) {
                    let hits = try await processedDiskHits(large, server: largeServer, downloader: downloader,
                                                           scratch: scratch.appendingPathComponent("processed-disk-hit"))
                    print("pipeline,processed-disk-hit,\(String(format: "%.1f", hits.processed)),images/s")
                    print("pipeline,original-disk-hit-resized,\(String(format: "%.1f", hits.original)),images/s")
                }
            }
        } else {
            Terminal.standardError("no ../shared/bench (pass --bench DIR); skipping latency-under-load and processed-disk-hit")
        }
    }

    /// `pipeline,cold` and `pipeline,direct`, alternating rounds.
    private func coldAndDirect(_ files: [FixtureServer.File], fixtureServer: FixtureServer,
                               downloader: ImageDownloader, scratch: URL) async throws {
        if !memoryOnly { Terminal.standardError("cold rounds' disk caches under \(scratch.path)") }
        var copy = 0
        func batch() -> [(URL, [UInt8])] {
            defer { copy += 1 }
            return (0..<count).map { index in
                let file = files[index % files.count]
                return (fixtureServer.url(file, copy: copy * count + index), file.bytes)
            }
        }
        // Untimed warm-up of both: connections, thread pools, allocator.
        _ = try await cold(batch(), downloader: downloader, scratch: scratch)
        _ = try await direct(batch(), downloader: downloader)
        var coldRates: [Double] = []
        var undrainedRates: [Double] = []
        var directRates: [Double] = []
        for round in 0..<rounds {
            // Alternate which goes first, so neither always follows the other's I/O.
            for coldFirst in round % 2 == 0 ? [true, false] : [false, true] {
                if coldFirst {
                    let rates = try await cold(batch(), downloader: downloader, scratch: scratch)
                    coldRates.append(rates.drained)
                    undrainedRates.append(rates.undrained)
                } else {
                    directRates.append(try await direct(batch(), downloader: downloader))
                }
            }
        }
        Terminal.standardError("pipeline executor width \(processingWidth ?? ImagePipeline.Configuration.defaultProcessingWidth) of \(ProcessInfo.processInfo.activeProcessorCount) cores")
        let coldMedian = Measurements.median(coldRates)
        let directMedian = Measurements.median(directRates)
        print("pipeline,cold,\(String(format: "%.1f", coldMedian)),images/s")
        print("pipeline,direct,\(String(format: "%.1f", directMedian)),images/s")
        let paired = zip(coldRates, directRates).map { $0 / $1 }
        let ratios = paired.map { String(format: "%.2f", $0) }
        Terminal.standardError("cold/direct = \(String(format: "%.3f", coldMedian / directMedian)) (target >= 0.9); median of the per-round ratios \(String(format: "%.3f", Measurements.median(paired))); per round: \(ratios.joined(separator: " "))")
        if !memoryOnly {
            let undrained = Measurements.median(undrainedRates)
            Terminal.standardError(String(format: "cold includes waiting for its background disk writes; without that wait: %.1f images/s (%.3f of direct)",
                                          undrained, undrained / directMedian))
        }
    }

    private func memoryHits(_ fixtureServer: FixtureServer, downloader: ImageDownloader) async throws -> Double {
        let manager = ImagePipeline(configuration: pipelineConfiguration(downloader: downloader, cache: ImageCache(disk: nil)))
        guard let file = fixtureServer.files.first else { return 0 }
        let url = fixtureServer.url(file)
        _ = try await manager.load(url)
        var rates: [Double] = []
        for _ in 0..<3 {
            let start = ContinuousClock.now
            for _ in 0..<memoryLoads {
                let loaded = try await manager.load(url)
                guard loaded.tier == .memory else { throw CommandFailure("memory-hit: load came from \(loaded.tier)") }
            }
            rates.append(Double(memoryLoads) / (Measurements.milliseconds(since: start) / 1e3))
        }
        return Measurements.median(rates)
    }

    /// Images/s through a fresh manager with empty memory and disk tiers: `drained` stops the
    /// clock once the background disk writes of the round have finished (the figure printed),
    /// `undrained` when the last load returned.
    private func cold(_ batch: [(URL, [UInt8])], downloader: ImageDownloader, scratch: URL) async throws -> (drained: Double, undrained: Double) {
        let cacheDirectory = scratch.appendingPathComponent(UUID().uuidString, isDirectory: true)
        let disk = memoryOnly ? nil : try DiskCache(configuration: DiskCache.Configuration(directory: cacheDirectory))
        let cache = ImageCache(disk: disk)
        let manager = ImagePipeline(configuration: pipelineConfiguration(downloader: downloader, cache: cache))
        // Opening indexes the (empty) directory in the background; that belongs to opening
        // the cache, not to the loads timed below, so let it finish first.
        disk?.waitUntilIndexLoaded()
        let start = Self.now(cpuTime)
        let loaded = await withTaskGroup(of: Bool.self) { group in
            for (url, _) in batch {
                group.addTask { (try? await manager.load(url)) != nil }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        let returned = Self.now(cpuTime)
        await cache.pendingWritesFinished()
        let finished = Self.now(cpuTime)
        guard loaded == batch.count else { throw CommandFailure("cold: only \(loaded) of \(batch.count) loaded") }
        disk?.flush()
        return (Double(batch.count) / (finished - start), Double(batch.count) / (returned - start))
    }

    /// Images/s with the downloader and the decoder registry alone.
    private func direct(_ batch: [(URL, [UInt8])], downloader: ImageDownloader) async throws -> Double {
        let start = Self.now(cpuTime)
        let loaded = await withTaskGroup(of: Bool.self) { group in
            for (url, _) in batch {
                group.addTask {
                    guard let downloaded = try? await downloader.download(url) else { return false }
                    return (try? DecoderRegistry.standard.decode(downloaded.bytes)) != nil
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        let seconds = Self.now(cpuTime) - start
        guard loaded == batch.count else { throw CommandFailure("direct: only \(loaded) of \(batch.count) loaded") }
        return Double(batch.count) / seconds
    }

    /// Seconds of monotonic wall time, or of the process's CPU time.
    private static func now(_ cpuTime: Bool) -> Double {
        var spec = timespec()
        clock_gettime(cpuTime ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

}
