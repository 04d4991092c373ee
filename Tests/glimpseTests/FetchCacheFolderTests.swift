import Foundation
import LoopbackHTTPServer
import TestSupport
import Testing

/// `glimpse fetch` where no cache folder can be written (a container's read-only root with no
/// HOME, for one): one warning line, then the load goes on with the memory tier.
@Suite(.timeLimit(.minutes(2)))
struct FetchCacheFolderTests {
    @Test func unwritableCacheFolderWarnsOnceAndLoadsFromTheNetwork() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.shutdown() }
        server.setRoute("/a.png", .fixed(.ok(try Fixtures.bytes("png/ct6-d08-seq.png"))))
        // A folder below a regular file cannot be created, even by root (ENOTDIR), unlike a
        // folder without write permission.
        let file = try CLI.temporaryFile([0x2a], name: "not-a-folder")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let url = server.url("/a.png").absoluteString

        let result = try await runOffPool(["fetch", url, "--cache-dir", file.appendingPathComponent("cache").path])
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("\(url): ok tier=network PNG 33x7 frames=1 ms="))
        let warnings = result.standardError.split(separator: "\n")
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("warning: cache folder ") == true)
        #expect(warnings.first?.contains("cannot be created") == true)
        #expect(warnings.first?.hasSuffix("caching in memory only") == true)
    }
}
