import Foundation
import GlimpseCodec
import LoopbackHTTPServer
import Testing

/// `glimpse fetch` with an address policy, against loopback origins only.
@Suite("glimpse fetch address policy")
struct FetchAddressPolicyCLITests {
    @Test func aRefusedURLPrintsTheAddressAndExitsOne() throws {
        let forbidden = try LoopbackHTTPServer(host: "127.0.0.2", fallback: .fixed(.ok([1, 2, 3])))
        defer { forbidden.shutdown() }
        let url = "http://0x7f000002:\(forbidden.port)/secret.png"
        let result = try CLI.run(["fetch", "--no-cache", "--address-policy", "public", url])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("\(url): error address not allowed (127.0.0.2)"), "\(result.standardOutput)")
        #expect(forbidden.statistics.acceptedConnections == 0)
    }

    @Test func anAllowedHostIsFetchedUnderTheServerDefaults() throws {
        let origin = try LoopbackHTTPServer()
        defer { origin.shutdown() }
        let png = try PNG.Encoder().encode(PixelBuffer(width: 2, height: 2))
        origin.setRoute("/a.png", .fixed(.ok(png)))
        let url = origin.url("/a.png").absoluteString
        let result = try CLI.run(["fetch", "--no-cache", "--server-defaults", "--allow-host", "127.0.0.1:\(origin.port)",
                                  "--max-redirects", "1", "--transfer-timeout", "10", url])
        #expect(result.status == 0, "\(result.standardOutput) \(result.standardError)")
        #expect(result.standardOutput.contains("\(url): ok"))
        let refused = try CLI.run(["fetch", "--no-cache", "--server-defaults", url])
        #expect(refused.status == 1)
        #expect(refused.standardOutput.contains("error address not allowed (127.0.0.1)"))
    }
}
