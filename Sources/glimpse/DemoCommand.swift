import ArgumentParser
import Foundation
import Glimpse
import GlimpseCache

/// `glimpse demo`: the whole pipeline on the repository's fixtures, served
/// from an embedded loopback server — cold from the network, then from disk
/// with an empty memory tier, then from memory — plus thumbnails.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Load every fixture through the pipeline from a loopback server (network, disk, memory).",
        discussion: """
        Needs nothing beyond the repository: Fixtures/ is found next to the sources (or in the current \
        directory), served on 127.0.0.1, cached in a temporary directory that is removed afterwards. \
        Corrupt-by-design fixtures show up as errors; the demo still exits 0.
        """
    )

    @Option(help: "Thumbnail box, WIDTHxHEIGHT.")
    var thumbnail: String = "64x64"

    @Option(help: "Fixtures directory (default: found next to the sources, else ./Fixtures).")
    var fixtures: String?

    func validate() throws {
        _ = try PipelineSupport.thumbnail(thumbnail)
    }

    private struct Row {
        var file: FixtureServer.File
        var passes: [(Result<ImageResult, ImageLoadError>, Double)] = []
    }

    func run() async throws {
        guard let directory = fixtures.map({ URL(fileURLWithPath: $0, isDirectory: true) })
            ?? FixtureServer.locateFixtures() else {
            throw CommandFailure("cannot find Fixtures/ (run from the repository, or pass --fixtures DIR)")
        }
        let files = FixtureServer.images(in: directory)
        guard !files.isEmpty else { throw CommandFailure("\(directory.path): no PNG, JPEG or GIF files") }
        let fixtureServer = try FixtureServer(files: files)
        defer { fixtureServer.server.shutdown() }

        let cacheDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("glimpse-demo-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cacheDirectory) }
        let disk: DiskCache
        do {
            disk = try DiskCache(configuration: DiskCache.Configuration(directory: cacheDirectory))
        } catch {
            throw CommandFailure("cannot create a cache in \(cacheDirectory.path): \(error)")
        }
        let downloader = ImageDownloader()
        defer { downloader.invalidate() }
        let pipeline = ImagePipeline(configuration: ImagePipeline.Configuration(downloader: downloader,
                                                                                cache: ImageCache(disk: disk)))
        let thumbnailTransformer = try PipelineSupport.thumbnail(thumbnail)

        var rows = files.map { Row(file: $0) }
        let passNames = ["network", "disk", "memory", "thumbnail"]
        var passTimes: [Double] = []
        var passRequests: [Int] = []
        for pass in passNames.indices {
            if pass == 1 { await pipeline.cache.clear(.memory) }
            let processors: [any ImageTransformer] = pass == 3 ? [thumbnailTransformer] : []
            let before = fixtureServer.server.requests.count
            let start = ContinuousClock.now
            let requests = files.map { ImageRequest(url: fixtureServer.url($0), processors: processors,
                                                    options: .waitForDiskStore) }
            let results = await Self.loadAll(requests, pipeline: pipeline)
            passTimes.append(Measurements.milliseconds(since: start))
            passRequests.append(fixtureServer.server.requests.count - before)
            for index in rows.indices { rows[index].passes.append(results[index]) }
        }
        printTable(rows, passNames: passNames)
        printSummary(rows, passNames: passNames, times: passTimes, requests: passRequests, disk: disk)
    }

    /// Every URL at once; the downloader's queue bounds the concurrency.
    private static func loadAll(_ requests: [ImageRequest],
                                pipeline: ImagePipeline) async -> [(Result<ImageResult, ImageLoadError>, Double)] {
        await withTaskGroup(of: (Int, Result<ImageResult, ImageLoadError>, Double).self) { group in
            for (index, request) in requests.enumerated() {
                group.addTask {
                    let start = ContinuousClock.now
                    do throws(ImageLoadError) {
                        let loaded = try await pipeline.load(request)
                        return (index, .success(loaded), Measurements.milliseconds(since: start))
                    } catch {
                        return (index, .failure(error), Measurements.milliseconds(since: start))
                    }
                }
            }
            var results = [(Result<ImageResult, ImageLoadError>, Double)](repeating: (.failure(.cancelled), 0),
                                                                          count: requests.count)
            for await (index, result, milliseconds) in group { results[index] = (result, milliseconds) }
            return results
        }
    }

    private func printTable(_ rows: [Row], passNames: [String]) {
        let nameWidth = min(44, rows.map(\.file.name.count).max() ?? 4)
        func pad(_ text: String, _ width: Int) -> String {
            text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
        }
        var header = pad("file", nameWidth) + "  " + pad("format", 6) + "  " + pad("size", 9) + "  " + pad("frames", 6)
        for name in passNames { header += "  " + pad("\(name) (tier ms)", 24) }
        print(header)
        for row in rows {
            var line = pad(row.file.name, nameWidth) + "  "
            if case .success(let loaded) = row.passes.first?.0 {
                let image = loaded.image
                line += pad(image.format.rawValue.uppercased(), 6) + "  " + pad("\(image.width)x\(image.height)", 9)
                    + "  " + pad("\(image.frames.count)", 6)
            } else {
                line += pad("-", 6) + "  " + pad("-", 9) + "  " + pad("-", 6)
            }
            for (index, (result, milliseconds)) in row.passes.enumerated() {
                let cell: String
                switch result {
                case .success(let loaded):
                    let size = index == 3 ? " \(loaded.image.width)x\(loaded.image.height)" : ""
                    cell = "\(loaded.tier) \(String(format: "%.1f", milliseconds))\(size)"
                case .failure(let error):
                    cell = "error: \(Self.short(error))"
                }
                line += "  " + pad(cell, 24)
            }
            print(line)
        }
    }

    private static func short(_ error: ImageLoadError) -> String {
        switch error {
        case .decoding(let error): String("\(error)".prefix(17))
        case .failedRecently: "failed recently"
        default: String(error.description.prefix(17))
        }
    }

    private func printSummary(_ rows: [Row], passNames: [String], times: [Double], requests: [Int], disk: DiskCache) {
        print("")
        print("summary: \(rows.count) fixtures loaded through the pipeline from an embedded server on 127.0.0.1")
        for (index, name) in passNames.enumerated() {
            let ok = rows.filter { if case .success = $0.passes[index].0 { true } else { false } }
            var tiers: [String: Int] = [:]
            for row in ok { if case .success(let loaded) = row.passes[index].0 { tiers[loaded.tier.rawValue, default: 0] += 1 } }
            let tierText = tiers.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            print("  \(name): \(ok.count) ok, \(rows.count - ok.count) failed, \(tierText), "
                + "\(requests[index]) HTTP requests, \(String(format: "%.1f", times[index])) ms")
        }
        print("  disk cache: \(disk.count) originals, \(disk.totalSize) bytes (temporary, removed on exit)")
        print("  failures are fixtures the decoders reject (damaged on purpose, or an unsupported coding);")
        print("  after such a permanent failure a URL fails fast without the network")
    }
}
