import Foundation
@testable import Glimpse
import LoopbackHTTPServer
import Testing
import TestSupport

/// The address policy, redirects, deadlines and clean closes against real
/// loopback origins: 127.0.0.1 is allowed by an allow-list entry under
/// `public`, 127.0.0.2 is forbidden. No traffic leaves 127.0.0.0/8.
@Suite("ImageDownloader address policy, redirects and deadlines")
struct ImageDownloaderAddressPolicyTests {
    let body: [UInt8] = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }

    /// The allowed origin's harness and the forbidden origin on 127.0.0.2.
    private func origins(_ configure: @escaping (inout ImageDownloader.Configuration) -> Void = { _ in })
        throws -> (DownloaderHarness, LoopbackHTTPServer) {
        let forbidden = try LoopbackHTTPServer(host: "127.0.0.2", fallback: .fixed(.ok([1, 2, 3])))
        let harness = try DownloaderHarness.make()
        var configuration = harness.downloader.configuration
        configuration.addressPolicy = AddressPolicy(.public, allowing: [.host("127.0.0.1", port: harness.server.port)])
        configure(&configuration)
        harness.downloader.invalidate()
        return (DownloaderHarness(server: harness.server, downloader: ImageDownloader(configuration: configuration)), forbidden)
    }

    @Test func theAllowedOriginLoads() async throws {
        let (harness, forbidden) = try origins()
        harness.server.setRoute("/a", .fixed(.ok(body)))
        #expect(try await harness.downloader.download(harness.url("/a")).bytes == body)
        await harness.finish()
        forbidden.shutdown()
    }

    @Test func everySpellingOfTheForbiddenOriginIsRefusedWithoutAConnection() async throws {
        let (harness, forbidden) = try origins()
        let port = forbidden.port
        let spellings = [
            "127.0.0.2", "2130706434", "0x7f000002", "0X7F000002", "0177.0.0.2", "0177.0.0.02", "127.2", "127.0.2",
            "0x7f.2", "0x7f.0.0.2", "127.0.0.2.", "[::ffff:127.0.0.2]", "[::ffff:7f00:2]", "[0:0:0:0:0:ffff:127.0.0.2]",
        ]
        for spelling in spellings {
            let url = try #require(URL(string: "http://\(spelling):\(port)/secret"), "\(spelling)")
            await #expect(throws: ImageDownloadError.self, "\(spelling)") { try await harness.downloader.download(url) }
            do {
                _ = try await harness.downloader.download(url)
            } catch {
                guard case .addressNotAllowed = error else {
                    Issue.record("\(spelling): \(error)")
                    continue
                }
            }
        }
        // The allowed origin's port on other loopback names is not the allowed address.
        for name in ["localhost", "LOCALHOST.", "img.localhost", "[::1]"] {
            let url = try #require(URL(string: "http://\(name):\(harness.server.port)/a"))
            await #expect(throws: ImageDownloadError.self, "\(name)") { try await harness.downloader.download(url) }
        }
        #expect(forbidden.statistics.acceptedConnections == 0)
        #expect(harness.server.statistics.acceptedConnections == 0)
        await harness.finish()
        forbidden.shutdown()
    }

    @Test func aRedirectToTheForbiddenOriginIsRefusedBeforeConnecting() async throws {
        let (harness, forbidden) = try origins()
        harness.server.setRoute("/hop", .fixed(.redirect(302, to: forbidden.url("/secret").absoluteString)))
        await #expect(throws: ImageDownloadError.addressNotAllowed("127.0.0.2")) {
            try await harness.downloader.download(harness.url("/hop"))
        }
        harness.server.setRoute("/hop2", .fixed(.redirect(301, to: "http://2130706434:\(forbidden.port)/secret")))
        await #expect(throws: ImageDownloadError.addressNotAllowed("127.0.0.2")) {
            try await harness.downloader.download(harness.url("/hop2"))
        }
        #expect(forbidden.statistics.acceptedConnections == 0)
        #expect(forbidden.requests.isEmpty)
        await harness.finish()
        forbidden.shutdown()
    }

    @Test func allowedRedirectsAreFollowedAndReportedUpToTheCap() async throws {
        let (harness, forbidden) = try origins { $0.maximumRedirects = 2 }
        for hop in 0..<4 { harness.server.setRoute("/r\(hop)", .fixed(.redirect(302, to: harness.url("/r\(hop + 1)").absoluteString))) }
        harness.server.setRoute("/r2", .fixed(.redirect(302, to: harness.url("/image").absoluteString)))
        harness.server.setRoute("/image", .fixed(.ok(body)))
        let events = harness.downloader.events()
        #expect(try await harness.downloader.download(harness.url("/r1")).bytes == body)
        var hops: [Int] = []
        for await event in events {
            if case .redirected(_, _, let status, let hop) = event {
                #expect(status == 302)
                hops.append(hop)
            }
            if case .finished = event { break }
        }
        #expect(hops == [1, 2])
        harness.server.resetStatistics()
        await #expect(throws: ImageDownloadError.tooManyRedirects(2)) { try await harness.downloader.download(harness.url("/r0")) }
        #expect(harness.server.requests.map(\.path) == ["/r0", "/r1", "/r2"])
        await harness.finish()
        forbidden.shutdown()
    }

    @Test func aRedirectToASchemeOutsideTheAllowedOnesIsRefused() async throws {
        let (harness, forbidden) = try origins { $0.allowedSchemes = [.http] }
        let target = "https://127.0.0.1:\(harness.server.port)/image"
        harness.server.setRoute("/tls", .fixed(.redirect(302, to: target)))
        await #expect(throws: ImageDownloadError.redirectNotAllowed(target)) {
            try await harness.downloader.download(harness.url("/tls"))
        }
        #expect(harness.server.requests.map(\.path) == ["/tls"])
        await harness.finish()
        forbidden.shutdown()
    }

    @Test func aTricklingOriginFailsAtTheDeadlineAndFreesItsSlot() async throws {
        let (harness, forbidden) = try origins { $0.transferDeadline = .milliseconds(1500) }
        harness.server.setRoute("/slow", .resource(Array(body.prefix(2_000)), pace: (chunkSize: 1, interval: .milliseconds(50))))
        let recorder = DownloadRecorder()
        let start = ContinuousClock.now
        recorder.start(harness.downloader, ImageDownloadRequest(url: harness.url("/slow")), as: 0)
        #expect(await recorder.waitForCompletions())
        #expect(recorder.log(0).error == .deadlineExceeded)
        // Timed where the completion ran, not where this task resumed (a busy pool resumes it late).
        let elapsed = try #require(recorder.log(0).completedAt) - start
        #expect(elapsed >= .milliseconds(1500) && elapsed < .seconds(6), "failed after \(elapsed)")
        #expect(await eventually { harness.downloader.currentDownloadCount == 0 })
        await harness.finish()
        forbidden.shutdown()
    }

    @Test func anOriginBelowTheMinimumRateFailsAfterTheGrace() async throws {
        let (harness, forbidden) = try origins {
            $0.minimumTransferRate = .init(bytesPerSecond: 10_000, grace: .milliseconds(800))
        }
        harness.server.setRoute("/slow", .resource(Array(body.prefix(2_000)), pace: (chunkSize: 10, interval: .milliseconds(50))))
        let recorder = DownloadRecorder()
        let start = ContinuousClock.now
        recorder.start(harness.downloader, ImageDownloadRequest(url: harness.url("/slow"), transferDeadline: .seconds(20)), as: 0)
        #expect(await recorder.waitForCompletions())
        #expect(recorder.log(0).error == .tooSlow)
        let elapsed = try #require(recorder.log(0).completedAt) - start
        #expect(elapsed >= .milliseconds(800) && elapsed < .seconds(5), "failed after \(elapsed)")
        await harness.finish()
        forbidden.shutdown()
    }

    @Test func aCleanCloseBeforeTheDeclaredLengthIsResumedByteExact() async throws {
        let (harness, forbidden) = try origins { $0.retryPolicy = RetryPolicy(maximumRetries: 2, baseDelay: .milliseconds(20)) }
        harness.server.setRoute("/x", .resource(body, faults: [.closeAfter(60_000)]))
        let result = try await harness.downloader.download(harness.url("/x"))
        #expect(result.bytes == body)
        let requests = harness.server.requests
        #expect(requests.count == 2)
        #expect(requests.last?.header("Range") == "bytes=60000-")
        #expect(requests.last?.header("If-Range") == "\"v1\"")
        await harness.finish()
        forbidden.shutdown()
    }

    /// A chunked body has no length to fall short of: only its missing last chunk tells a cut
    /// from a whole body, and that is as far as HTTP allows a client to see (RFC 9112 §7.1).
    @Test func aChunkedBodyClosedBeforeItsLastChunkIsResumedByteExact() async throws {
        let (harness, forbidden) = try origins { $0.retryPolicy = RetryPolicy(maximumRetries: 2, baseDelay: .milliseconds(20)) }
        harness.server.setRoute("/x", .resource(body, faults: [.chunkedCloseAfter(70_000)]))
        let result = try await harness.downloader.download(harness.url("/x"))
        #expect(result.bytes == body)
        let requests = harness.server.requests
        #expect(requests.count == 2)
        #expect(requests.last?.header("Range") == "bytes=70000-")
        #expect(requests.last?.header("If-Range") == "\"v1\"")
        await harness.finish()
        forbidden.shutdown()
    }

    @Test func aChunkedBodyClosedBeforeItsLastChunkIsNeverTakenAsWhole() async throws {
        let (harness, forbidden) = try origins { $0.retryPolicy = .never }
        harness.server.setRoute("/x", .resource(body, faults: [.chunkedCloseAfter(70_000)]))
        await #expect(throws: ImageDownloadError.self) { try await harness.downloader.download(harness.url("/x")) }
        #expect(harness.server.requests.count == 1)
        await harness.finish()
        forbidden.shutdown()
    }

    @Test func theServerProfileRefusesAnHTMLBodyFromItsHead() async throws {
        let (harness, forbidden) = try origins()
        var configuration = ImageDownloader.Configuration.server
        configuration.addressPolicy.allowed = [.host("127.0.0.1", port: harness.server.port)]
        let downloader = ImageDownloader(configuration: configuration)
        harness.server.setRoute("/page", .fixed(.init(status: 200, headers: [("Content-Type", "text/html; charset=utf-8")],
                                                     body: .generated(count: 8 << 20, chunked: false))))
        await #expect(throws: ImageDownloadError.invalidContentType("text/html")) {
            try await downloader.download(harness.url("/page"))
        }
        downloader.invalidate()
        #expect(configuration.maximumResponseSize == 32 << 20)
        #expect(configuration.maximumRedirects == 5)
        #expect(configuration.transferDeadline == .seconds(30))
        #expect(configuration.addressPolicy.base == .public)
        await harness.finish()
        forbidden.shutdown()
    }
}
