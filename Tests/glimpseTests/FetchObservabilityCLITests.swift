import Foundation
import LoopbackHTTPServer
import TestSupport
import Testing

/// `glimpse fetch --log-level … --metrics`: swift-log's stream handler on standard error and
/// the in-process metrics back-end's lines on standard output, wired through the
/// configurations of one real load against a loopback origin.
@Suite(.timeLimit(.minutes(2)))
struct FetchObservabilityCLITests {
    @Test func traceLogsGoToStandardErrorAndMetricsArePrintedAtExitWithoutTheQuery() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.shutdown() }
        let png = try Fixtures.bytes("png/ct6-d08-seq.png")
        server.setRoute("/a.png", .fixed(.ok(png)))
        let cache = try CLI.temporaryFile([], name: "unused").deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: cache) }
        let url = server.url("/a.png?token=s3cr3t").absoluteString
        let redacted = server.url("/a.png").absoluteString

        let result = try await runOffPool(["fetch", url, "--cache-dir", cache.appendingPathComponent("c").path,
                                           "--log-level", "trace", "--metrics"])
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("\(redacted): ok tier=network PNG 33x7") == true)
        #expect(!result.standardOutput.contains("s3cr3t"), "no output line echoes the query")
        let metrics = lines.filter { $0.hasPrefix("metric,") }
        #expect(metrics.contains("metric,glimpse_loads_total,tier=network;outcome=success,1"))
        #expect(metrics.contains("metric,glimpse_loads_total,tier=memory;outcome=success,0"))
        #expect(metrics.contains("metric,glimpse_downloaded_bytes_total,,\(png.count)"))
        #expect(metrics.contains("metric,glimpse_cache_misses_total,tier=disk,1"))
        #expect(metrics.contains("metric,glimpse_decode_duration_count,format=png,1"))
        #expect(metrics.contains { $0.hasPrefix("metric,glimpse_stage_duration_sum_ms,stage=download,") })
        #expect(metrics.allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == 4 })

        let log = result.standardError
        #expect(log.contains("stage finished"))
        #expect(log.contains("glimpse.url=\(redacted)"))
        #expect(!log.contains("s3cr3t"))
        #expect(!log.contains(" info ") && !log.contains(" warning ") && !log.contains(" error "))
    }

    @Test func atInfoANormalLoadLogsNothing() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.shutdown() }
        server.setRoute("/a.png", .fixed(.ok(try Fixtures.bytes("png/ct6-d08-seq.png"))))
        let result = try await runOffPool(["fetch", server.url("/a.png").absoluteString, "--no-cache", "--log-level", "info"])
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty, "\(result.standardError)")
        #expect(!result.standardOutput.contains("metric,"))
    }
}
