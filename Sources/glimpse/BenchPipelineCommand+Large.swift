import Foundation
import Glimpse
import GlimpseCache

/// `bench-pipeline`'s figures on the large bench images (`../shared/bench`): how long an
/// unrelated task waits while they decode, and what processed images on disk save.
extension BenchPipelineCommand {
    /// `../shared/bench` beside the repository (or one level further up, from a worktree).
    static func locateBench(fixtures: URL) -> URL? {
        let repository = fixtures.deletingLastPathComponent()
        for candidate in [repository.deletingLastPathComponent(), repository.deletingLastPathComponent().deletingLastPathComponent()] {
            let bench = candidate.appendingPathComponent("shared/bench", isDirectory: true)
            if FileManager.default.fileExists(atPath: bench.path) { return bench }
        }
        return nil
    }

    /// The bench JPEGs and PNGs (16 large images).
    static func largeImages(in bench: URL) -> [FixtureServer.File] {
        FixtureServer.images(in: bench).filter { $0.name.hasPrefix("jpeg/") || $0.name.hasPrefix("png/") }
    }

    /// The names (`jpeg/…`, `png/…`) of ``largeImages(in:)``, without reading the files.
    static func largeImageNames(in bench: URL) -> [String] {
        ["jpeg", "png"].flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: bench.appendingPathComponent(folder).path)) ?? [])
                .filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".png") }.map { "\(folder)/\($0)" }
        }.sorted()
    }

    /// The 99th percentile and the median of how late an unrelated task wakes from 10 ms
    /// sleeps while `work` runs (milliseconds).
    static func wakeUpDelay(while work: () async -> Void) async -> (p99: Double, median: Double) {
        let sleeper = Task<[Double], Never> {
            var delays: [Double] = []
            while !Task.isCancelled {
                let start = ContinuousClock.now
                try? await Task.sleep(for: .milliseconds(10))
                delays.append(Measurements.milliseconds(since: start) - 10)
            }
            return delays
        }
        await work()
        sleeper.cancel()
        let delays = await sleeper.value.sorted()
        guard !delays.isEmpty else { return (0, 0) }
        let p99 = delays[min(delays.count - 1, Int((Double(delays.count) * 0.99).rounded(.up)) - 1)]
        return (p99, delays[delays.count / 2])
    }

    /// ``wakeUpDelay(while:)`` while `rounds` rounds of every large image load at once through `load`.
    static func wakeUpDelay(rounds: Int, files: [FixtureServer.File], server: FixtureServer,
                            load: @escaping @Sendable (URL) async -> Void) async -> (p99: Double, median: Double) {
        await wakeUpDelay {
            for round in 0..<rounds {
                await withTaskGroup(of: Void.self) { group in
                    for file in files {
                        let url = server.url(file, copy: 1_000_000 + round)
                        group.addTask { await load(url) }
                    }
                }
            }
        }
    }

    /// `pipeline,latency-under-load`: p99 wake-up delay with the loads going through the pipeline
    /// (decoding on its own executor); the same loads decoded on the cooperative pool go to
    /// standard error for comparison.
    func latencyUnderLoad(_ files: [FixtureServer.File], server: FixtureServer,
                          downloader: ImageDownloader) async -> Double {
        let pipeline = ImagePipeline(configuration: pipelineConfiguration(
            downloader: downloader, cache: ImageCache(memory: MemoryCache(configuration: .images(costLimit: 64 << 20)), disk: nil)))
        let rounds = max(1, latencyRounds)
        let started = ContinuousClock.now
        let ours = await Self.wakeUpDelay(rounds: rounds, files: files, server: server) { url in
            _ = try? await pipeline.load(url)
        }
        // The same sleeper for as long with nothing loading: what the machine's other
        // processes alone cost a wake-up (on a shared machine, much of the figure).
        let loading = ContinuousClock.now - started
        let idle = await Self.wakeUpDelay { try? await Task.sleep(for: loading) }
        let pool = await Self.wakeUpDelay(rounds: rounds, files: files, server: server) { url in
            guard let downloaded = try? await downloader.download(url) else { return }
            _ = try? DecoderRegistry.standard.decode(downloaded.bytes)
        }
        Terminal.standardError(String(format: "latency under load: p99 %.2f ms, median %.2f ms through the pipeline (processing width %d); decoding on the cooperative pool instead: p99 %.2f ms, median %.2f ms; nothing loading: p99 %.2f ms, median %.2f ms",
                                      ours.p99, ours.median, pipeline.processingWidth, pool.p99, pool.median,
                                      idle.p99, idle.median))
        return ours.p99
    }

    /// `pipeline,peak-rss-200-large`: the peak resident memory (MB) while `count` 256 px
    /// thumbnail loads of the large images (each a URL of its own) run at once through a
    /// memory-only pipeline with the server profile's decoding limits; `nil` without a
    /// resettable high-water mark (``PeakResidentMemory``).
    ///
    /// The bound that holds it: downloads run `maximumConcurrentDownloads` at a time
    /// (6), a body waits for room under `maximumProcessingBytes` (64 MB of encoded bytes
    /// queued or decoding), and each executor thread decodes one reduced image at a time.
    func peakResidentMemory(loads count: Int, images: Int, downloader: ImageDownloader,
                            url: @escaping @Sendable (Int) -> URL) async -> (peak: Double, before: Double)? {
        var configuration = pipelineConfiguration(
            downloader: downloader, cache: ImageCache(memory: MemoryCache(configuration: .images(costLimit: 16 << 20)), disk: nil))
        configuration.decodingLimits = .server
        let pipeline = ImagePipeline(configuration: configuration)
        let processors: [any ImageTransformer] = [ImageTransformers.Resize(width: 256, height: 256, allowsUpscaling: false)]
        guard PeakResidentMemory.reset(), let before = PeakResidentMemory.bytes() else { return nil }
        let loaded = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<count {
                let url = url(index)
                group.addTask { (try? await pipeline.load(ImageRequest(url: url, processors: processors))) != nil }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        guard let peak = PeakResidentMemory.bytes() else { return nil }
        Terminal.standardError(String(format: "peak resident memory: %.1f MB while %d thumbnail loads of the %d large images ran at once (%d loaded); %.1f MB resident before",
                                      Double(peak) / 1e6, count, images, loaded, Double(before) / 1e6))
        return (Double(peak) / 1e6, Double(before) / 1e6)
    }

    /// `pipeline,processed-disk-hit`: thumbnails/s after a restart with the processed images on
    /// disk, against decoding each original from disk and resizing it again
    /// (`pipeline,original-disk-hit-resized`).
    func processedDiskHits(_ files: [FixtureServer.File], server: FixtureServer, downloader: ImageDownloader,
                           scratch: URL) async throws -> (processed: Double, original: Double) {
        let processors: [any ImageTransformer] = [ImageTransformers.Resize(width: 256, allowsUpscaling: false)]
        func disk(_ name: String) throws -> DiskCache {
            try DiskCache(configuration: DiskCache.Configuration(directory: scratch.appendingPathComponent(name)))
        }
        func pipeline(_ disk: DiskCache, _ policy: ImagePipeline.DataCachePolicy) -> ImagePipeline {
            var configuration = pipelineConfiguration(downloader: downloader, cache: ImageCache(disk: disk))
            configuration.dataCachePolicy = policy
            return configuration.pipeline
        }
        let processedDisk = try disk("processed")
        let originalDisk = try disk("original")
        let requests = files.map { ImageRequest(url: server.url($0), processors: processors, options: .waitForDiskStore) }
        // Fill both disks once.
        for (disk, policy) in [(processedDisk, ImagePipeline.DataCachePolicy.automatic), (originalDisk, .originalOnly)] {
            let filler = pipeline(disk, policy)
            for request in requests { _ = try await filler.load(request) }
        }
        func rate(_ disk: DiskCache, _ policy: ImagePipeline.DataCachePolicy) async throws -> Double {
            // A fresh pipeline each round: an empty memory tier, as after a restart.
            let restarted = pipeline(disk, policy)
            let start = ContinuousClock.now
            for request in requests {
                let loaded = try await restarted.load(request)
                guard loaded.tier == .disk else { throw CommandFailure("processed-disk-hit: load came from \(loaded.tier)") }
            }
            return Double(requests.count) / (Measurements.milliseconds(since: start) / 1e3)
        }
        var processed: [Double] = []
        var original: [Double] = []
        for round in 0..<max(1, diskHitRounds) {
            for processedFirst in round % 2 == 0 ? [true, false] : [false, true] {
                if processedFirst {
                    processed.append(try await rate(processedDisk, .automatic))
                } else {
                    original.append(try await rate(originalDisk, .originalOnly))
                }
            }
        }
        let ours = Measurements.median(processed)
        let again = Measurements.median(original)
        Terminal.standardError(String(format: "processed disk hits: %.1f thumbnails/s; original from disk decoded and resized again: %.1f/s (%.1fx, target >= 10x)",
                                      ours, again, ours / again))
        return (ours, again)
    }
}

extension ImagePipeline.Configuration {
    fileprivate var pipeline: ImagePipeline { ImagePipeline(configuration: self) }
}
