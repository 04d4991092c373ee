import Foundation
import LoopbackHTTPServer
import TestSupport
import Testing

/// `glimpse fetch --timings`: one line per loaded URL with the load's metrics, in a fixed
/// shape, the URL without its query.
@Suite(.timeLimit(.minutes(2)))
struct FetchTimingsCLITests {
    /// `URL: timings tier=T queue=MS disk=MS download=MS decode=MS process=MS encode=MS store=MS bytes=N`.
    static func fields(_ line: String, url: String) -> [String: String]? {
        let prefix = "\(url): timings "
        guard line.hasPrefix(prefix) else { return nil }
        let pairs = line.dropFirst(prefix.count).split(separator: " ").map { $0.split(separator: "=", maxSplits: 1) }
        guard pairs.map({ String($0[0]) }) == ["tier", "queue", "disk", "download", "decode", "process", "encode",
                                                "store", "bytes"],
              pairs.allSatisfy({ $0.count == 2 }) else { return nil }
        return Dictionary(uniqueKeysWithValues: pairs.map { (String($0[0]), String($0[1])) })
    }

    /// `-`, or milliseconds with two decimals.
    static func isMilliseconds(_ text: String?) -> Bool {
        guard let text else { return false }
        if text == "-" { return true }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[1].count == 2
            && parts.allSatisfy { $0.allSatisfy(\.isNumber) }
    }

    @Test func eachURLGetsATimingsLineAndNoLineShowsItsQuery() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.shutdown() }
        let png = try Fixtures.bytes("png/ct6-d08-seq.png")
        server.setRoute("/a.png", .fixed(.ok(png)))
        let cache = try CLI.temporaryFile([], name: "unused").deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: cache) }
        let url = server.url("/a.png?token=s3cr3t").absoluteString
        let redacted = server.url("/a.png").absoluteString
        let arguments = ["fetch", url, "--cache-dir", cache.appendingPathComponent("c").path, "--timings"]

        let cold = try await runOffPool(arguments)
        #expect(cold.status == 0)
        let coldLines = cold.standardOutput.split(separator: "\n").map(String.init)
        #expect(coldLines.count == 2)
        let network = try #require(coldLines.last.flatMap { Self.fields($0, url: redacted) }, "\(cold.standardOutput)")
        #expect(network["tier"] == "network" && network["bytes"] == "\(png.count)")
        for stage in ["queue", "disk", "download", "decode", "process", "encode", "store"] {
            #expect(Self.isMilliseconds(network[stage]), "\(stage)=\(network[stage] ?? "")")
        }
        #expect(network["download"] != "-" && network["decode"] != "-" && network["disk"] != "-")
        #expect(network["process"] == "-" && network["encode"] == "-", "no processors: nothing to process or encode")
        #expect(!cold.standardOutput.contains("s3cr3t"), "no line echoes the query: \(cold.standardOutput)")
        #expect(coldLines.first?.hasPrefix("\(redacted): ok tier=network") == true)

        // Again on the same folder: the disk cache answers, nothing is downloaded.
        let warm = try await runOffPool(arguments)
        #expect(warm.status == 0)
        let disk = try #require(warm.standardOutput.split(separator: "\n").last.flatMap { Self.fields(String($0), url: redacted) })
        #expect(disk["tier"] == "disk" && disk["download"] == "-" && disk["decode"] != "-")
        #expect(disk["bytes"] == "\(png.count)")
    }

    @Test func aFailedURLGetsNoTimingsLine() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.shutdown() }
        let result = try await runOffPool(["fetch", server.url("/missing.png").absoluteString, "--no-cache", "--timings"])
        #expect(result.status == 1)
        #expect(!result.standardOutput.contains("timings"))
    }
}
