import Foundation
import Glimpse
import LoopbackHTTPServer

/// `glimpse bench-download --reset-fraction F`: goodput on a slow link that
/// cuts transfers half-way, with resumption and without it.
extension BenchDownloadCommand {
    func runFaulty(fraction: Double) async throws {
        let bodies = (0..<count).map { index in
            (0..<size).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761 &+ index &* 40_503) >> 13) }
        }
        // The same faults for both sides: attempt k of image i is cut half-way
        // when the seeded draw for (i, k) falls below F. Thirty-two attempts'
        // worth, so that every image completes under the generous retry policy.
        var random = SeededRandom(seed: 0x5EED)
        let plans: [[LoopbackHTTPServer.Fault]] = (0..<count).map { _ in
            (0..<32).map { _ in random.unit() < fraction ? .cutHalfway : .none }
        }
        let server: LoopbackHTTPServer
        do {
            server = try LoopbackHTTPServer()
        } catch {
            throw CommandFailure("cannot start the loopback server: \(error)")
        }
        defer { server.shutdown() }
        // A link of linkRate MB/s per connection: 16 KiB pieces, paced.
        let chunk = 16 * 1024
        let pace = linkRate > 0
            ? (chunkSize: chunk, interval: Duration.nanoseconds(Int64(Double(chunk) / Double(linkRate) * 1000)))
            : nil
        let targets = (0..<count).map { server.url("/img/\($0)") }

        var resumed: [Double] = []
        var restarted: [Double] = []
        var complete = count
        for round in 0..<rounds {
            for resumes in round.isMultiple(of: 2) ? [true, false] : [false, true] {
                for index in 0..<count {
                    server.setRoute("/img/\(index)", .resource(bodies[index], faults: plans[index], pace: pace))
                }
                let (seconds, exact) = try await faultyRun(targets, bodies: bodies, resumes: resumes)
                complete = min(complete, exact)
                let goodput = Double(exact * size) / 1e6 / seconds
                if resumes { resumed.append(goodput) } else { restarted.append(goodput) }
                if perRound {
                    FileHandle.standardError.write(Data(String(format: "round %d %@: %.1f MB/s, %d complete, %d requests\n",
                                                               round, resumes ? "resume" : "no-resume", goodput, exact,
                                                               server.requests.count).utf8))
                }
                server.resetStatistics()
            }
        }
        let ratio = Measurements.median(resumed) / Measurements.median(restarted)
        FileHandle.standardError.write(Data(String(format: "resume / no-resume: %.2f\n", ratio).utf8))
        print(String(format: "download,faulty-goodput,%.1f,MB/s", Measurements.median(resumed)))
        print(String(format: "download,faulty-goodput-no-resume,%.1f,MB/s", Measurements.median(restarted)))
        print("download,faulty-complete,\(complete),images")
    }

    /// Downloads every target through a fresh downloader; returns the seconds
    /// taken and how many bodies arrived byte for byte.
    private func faultyRun(_ targets: [URL], bodies: [[UInt8]], resumes: Bool) async throws -> (Double, Int) {
        var configuration = ImageDownloader.Configuration()
        configuration.maximumConcurrentDownloads = concurrency
        // Waits too short to matter: the figure is about the bytes sent again.
        configuration.retryPolicy = RetryPolicy(maximumRetries: 31, baseDelay: .milliseconds(1), multiplier: 1)
        configuration.resumption.isEnabled = resumes
        let downloader = ImageDownloader(configuration: configuration)
        let start = ContinuousClock.now
        let exact = await withTaskGroup(of: Bool.self) { group in
            for (index, url) in targets.enumerated() {
                group.addTask {
                    guard let result = try? await downloader.download(url) else { return false }
                    return result.bytes == bodies[index]
                }
            }
            var exact = 0
            for await ok in group where ok { exact += 1 }
            return exact
        }
        let elapsed = ContinuousClock.now - start
        return (Measurements.seconds(elapsed), exact)
    }
}

/// SplitMix64: a small seeded generator, so both sides meet the same faults.
struct SeededRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<1`.
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
