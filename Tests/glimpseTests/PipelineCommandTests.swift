import Dispatch
import Foundation
import LoopbackHTTPServer
import TestSupport
import Synchronization
import Testing
import GlimpseCache

/// `glimpse fetch`, `glimpse cache` and `glimpse demo` as a user runs them.
@Suite(.timeLimit(.minutes(2)))
struct PipelineCommandTests {
    @Test func fetchLoadsThroughTheTiersAndReportsFailures() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.shutdown() }
        server.setRoute("/a.png", .fixed(.ok(try Fixtures.bytes("png/ct6-d08-seq.png"))))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-fetch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cacheDir = directory.appendingPathComponent("cache").path
        let outputDir = directory.appendingPathComponent("out").path
        let good = server.url("/a.png").absoluteString
        let missing = server.url("/missing.png").absoluteString

        let first = try await runOffPool(["fetch", good, missing, "--cache-dir", cacheDir, "--output", outputDir,
                                 "--thumbnail", "11x11"])
        #expect(first.status == 1)
        let lines = first.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.contains { $0.hasPrefix("\(good): ok tier=network PNG 11x2 frames=1 ms=") })
        #expect(lines.contains { $0 == "\(missing): error bad HTTP status 404" })
        let written = try FileManager.default.contentsOfDirectory(atPath: outputDir)
        #expect(written == ["0-a.png"])
        let thumbnail = try await DecoderRegistryHelper.decode(URL(fileURLWithPath: outputDir).appendingPathComponent("0-a.png"))
        #expect(thumbnail == [11, 2])

        // The disk tier keeps the thumbnail itself (the pipeline's automatic data cache policy).
        let cached = try await runOffPool(["fetch", good, "--cache-dir", cacheDir, "--cache-only", "--thumbnail", "11x11"])
        #expect(cached.status == 0)
        #expect(cached.standardOutput.hasPrefix("\(good): ok tier=disk PNG 11x2 frames=1 ms="))
        #expect(server.requests.count == 2)

        let stats = try await runOffPool(["cache", "stats", "--cache-dir", cacheDir])
        #expect(stats.status == 0)
        #expect(stats.standardOutput.contains("entries: 1"))
        let clear = try await runOffPool(["cache", "clear", "--cache-dir", cacheDir])
        #expect(clear.standardOutput.contains("removed 1 entries"))
        let prune = try await runOffPool(["cache", "prune", "--cache-dir", cacheDir])
        #expect(prune.status == 0)
        let after = try await runOffPool(["fetch", good, "--cache-dir", cacheDir, "--cache-only"])
        #expect(after.status == 1)
        #expect(after.standardOutput == "\(good): error not cached\n")
    }

    @Test func demoServesEveryFixtureFromEachTier() async throws {
        // The JPEG fixtures only: the whole set works the same and costs several
        // times the CPU, which timing-sensitive suites running beside this one feel.
        let demo = try await runOffPool(["demo", "--fixtures", Fixtures.url("jpeg").path])
        #expect(demo.status == 0)
        let output = demo.standardOutput
        #expect(output.contains("pillow-420.jpg"))
        #expect(output.contains("cjpeg-progressive.jpg"))
        // Each fixture is downloaded once; the disk and memory passes touch no network.
        let summary = output.split(separator: "\n").filter { $0.hasPrefix("  ") }
        let network = try #require(summary.first { $0.hasPrefix("  network:") })
        let disk = try #require(summary.first { $0.hasPrefix("  disk:") })
        let memory = try #require(summary.first { $0.hasPrefix("  memory:") })
        #expect(disk.contains(" 0 HTTP requests") && memory.contains(" 0 HTTP requests"))
        #expect(!network.contains(" 0 HTTP requests"))
        #expect(memory.contains("memory="))
        #expect(!memory.contains("disk=") && !memory.contains("network="))
    }
}

@Test func benchPipelinePrintsTheThreeNamedLines() async throws {
    let result = try await runOffPool(["bench-pipeline", "--count", "12", "--rounds", "1", "--memory-loads", "1000",
                                       // The large-image figures take minutes in a debug build.
                                       "--bench", "/nonexistent"])
    #expect(result.status == 0, "\(result.standardError)")
    let lines = result.standardOutput.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
    #expect(lines.map { $0.count } == [4, 4, 4])
    #expect(lines.map { $0.prefix(2).joined(separator: ",") } == ["pipeline,memory-hit", "pipeline,cold", "pipeline,direct"])
    #expect(lines.map { $0.last } == ["loads/s", "images/s", "images/s"])
    #expect(lines.allSatisfy { Double($0[2]).map { $0 > 0 } ?? false })
}

/// Decodes a written file and returns its size, through the CLI's own `info`.
enum DecoderRegistryHelper {
    static func decode(_ url: URL) async throws -> [Int] {
        let info = try await runOffPool(["info", url.path])
        // `FILE: FORMAT WIDTHxHEIGHT frames=N`
        let fields = info.standardOutput.split(separator: " ")
        guard fields.count >= 3 else { return [] }
        return fields[2].split(separator: "x").compactMap { Int($0) }
    }
}

/// Runs the built `glimpse` on a GCD thread: waiting for a child process on
/// the cooperative pool (two threads on a two-core machine) would starve the
/// timing-sensitive suites that run beside these tests.
func runOffPool(_ arguments: [String]) async throws -> CLI.Output {
    let (output, signalled) = try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<(CLI.Output, Bool), any Error>) in
        DispatchQueue.global().async {
            continuation.resume(with: Result { try runProcess(arguments) })
        }
    }
    #expect(!signalled, "glimpse \(arguments) died of a signal")
    return output
}

private func runProcess(_ arguments: [String]) throws -> (CLI.Output, Bool) {
    let process = Process()
    process.executableURL = CLI.executable
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Both pipes drain at once, so a chatty child never blocks on a full pipe.
    let errorData = Lock(Data())
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) {
        let data = err.fileHandleForReading.readDataToEndOfFile()
        errorData.withLock { $0 = data }
    }
    let outputData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    let output = CLI.Output(status: process.terminationStatus,
                            standardOutput: String(decoding: outputData, as: UTF8.self),
                            standardError: errorData.withLock { String(decoding: $0, as: UTF8.self) })
    return (output, process.terminationReason != .exit)
}
