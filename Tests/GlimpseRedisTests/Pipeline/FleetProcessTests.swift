import Foundation
import LoopbackHTTPServer
import TestSupport
import Testing

/// Processes of a fleet: the built `glimpse fetch` CLI, several at once, one Redis behind them.
@Suite("Single flight across processes", .enabled(if: RedisServer.isAvailable && GlimpseExecutable.url != nil,
                                                  "needs redis-server and the built glimpse CLI"))
struct FleetProcessTests {
    @Test("Four processes, sixteen cold URLs, separate disk folders: at most sixteen origin requests")
    func fourProcessesSixteenURLs() async throws {
        let server = try await RedisServer()
        defer { server.stop() }
        let bytes = try Fixtures.bytes("png/ct6-d08-seq.png")
        let half = bytes.count / 2
        // A slow origin (the body in two chunks 200 ms apart): the processes overlap, so most
        // of them find another's claim rather than its finished entry.
        let origin = try LoopbackHTTPServer(fallback: .fixed(.init(
            headers: [("Content-Type", "image/png")],
            body: .chunked([Array(bytes[..<half]), Array(bytes[half...])], delay: .milliseconds(200)))))
        defer { origin.shutdown() }
        let urls = (0..<16).map { origin.url("/image-\($0).png").absoluteString }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-fleet-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let processes = try (0..<4).map { index in
            try GlimpseExecutable.launch(["fetch"] + urls + [
                "--shared-cache", "redis://127.0.0.1:\(server.port)",
                "--cache-dir", root.appendingPathComponent("instance-\(index)").path,
                "--concurrency", "16",
                // Long enough that a stalled holder on a loaded machine is still waited for, and
                // timeouts wide enough that a stalled debug process does not open the breaker
                // (which would make it fetch for itself).
                "--shared-cache-lock-wait", "60",
                "--shared-cache-connect-timeout", "1000", "--shared-cache-command-timeout", "2000",
            ])
        }
        var tiers: [String: Int] = [:]
        for (process, pipe) in processes {
            let output = GlimpseExecutable.output(of: process, pipe)
            #expect(process.terminationStatus == 0, "glimpse fetch failed:\n\(output)")
            for line in output.split(separator: "\n") {
                guard let range = line.range(of: "tier=") else { continue }
                tiers[String(line[range.upperBound...].prefix { $0 != " " }), default: 0] += 1
            }
        }
        #expect(tiers.values.reduce(0, +) == 64, "every load succeeded: \(tiers)")
        #expect(origin.requests.count <= 16, "one origin request per image across the processes: \(origin.requests.count)")
        #expect(tiers["network", default: 0] == origin.requests.count)
    }
}
