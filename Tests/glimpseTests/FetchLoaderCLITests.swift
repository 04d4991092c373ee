import Foundation
import GlimpseCodec
import LoopbackHTTPServer
import Testing

/// `glimpse fetch --loader` and `glimpse bench-download --loaders`, against loopback origins only.
@Suite("glimpse fetch loader")
struct FetchLoaderCLITests {
    @Test(arguments: ["urlsession", "async-http-client"])
    func eitherLoaderFetchesThroughThePipeline(_ loader: String) throws {
        let origin = try LoopbackHTTPServer()
        defer { origin.shutdown() }
        let png = try PNG.Encoder().encode(PixelBuffer(width: 3, height: 2))
        origin.setRoute("/a.png", .fixed(.ok(png)))
        origin.setRoute("/moved.png", .fixed(.redirect(302, to: "/a.png")))
        let urls = [origin.url("/a.png").absoluteString, origin.url("/moved.png").absoluteString]
        let result = try CLI.run(["fetch", "--no-cache", "--loader", loader] + urls)
        #expect(result.status == 0, "\(result.standardOutput) \(result.standardError)")
        for url in urls { #expect(result.standardOutput.contains("\(url): ok tier=network PNG 3x2"), "\(result.standardOutput)") }
        #expect(origin.requests.map(\.path).sorted() == ["/a.png", "/a.png", "/moved.png"])
    }

    @Test func theAsyncHTTPClientLoaderKeepsTheAddressPolicy() throws {
        let origin = try LoopbackHTTPServer()
        defer { origin.shutdown() }
        let url = origin.url("/a.png").absoluteString
        let result = try CLI.run(["fetch", "--no-cache", "--loader", "async-http-client", "--address-policy", "public", url])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("\(url): error address not allowed (127.0.0.1)"), "\(result.standardOutput)")
        #expect(origin.statistics.acceptedConnections == 0)
    }

    @Test func benchDownloadComparesTheLoaders() throws {
        let result = try CLI.run(["bench-download", "--loaders", "--count", "20", "--size", "2000", "--rounds", "2"])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        for name in ["loader-urlsession", "loader-async-http-client", "loader-ratio"] {
            let line = try #require(lines.first { $0.hasPrefix("download,\(name),") }, "\(result.standardOutput)")
            let value = try #require(Double(line.split(separator: ",")[2]))
            #expect(value > 0)
        }
    }
}
