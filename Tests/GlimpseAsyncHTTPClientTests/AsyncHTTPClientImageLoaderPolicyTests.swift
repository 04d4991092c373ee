import Foundation
import Glimpse
import GlimpseAsyncHTTPClient
import LoopbackHTTPServer
import Testing

/// The address policy and redirects: refused before any connection to the target.
@Suite("GlimpseAsyncHTTPClientTests address policy and redirects")
struct AsyncHTTPClientImageLoaderPolicyTests {
    let body = patternBody(20_000)

    @Test func aRefusedAddressIsNeverConnectedTo() async throws {
        let harness = try LoaderHarness.make { $0.addressPolicy = .public }
        harness.server.setRoute("/a", .fixed(.ok(body)))
        let failure = try #require(await harness.load("/a").failure)
        guard case .addressNotAllowed = failure else {
            Issue.record("expected addressNotAllowed, got \(failure)")
            return await harness.finish()
        }
        #expect(harness.server.statistics.acceptedConnections == 0)
        await harness.finish()
    }

    @Test func anAllowedRuleLetsTheLoopbackOriginThrough() async throws {
        let harness = try LoaderHarness.make { $0.addressPolicy = AddressPolicy(.public, allowing: [.host("127.0.0.1")]) }
        harness.server.setRoute("/a", .fixed(.ok(body)))
        #expect(try await harness.load("/a").get().bytes == body)
        await harness.finish()
    }

    @Test func redirectsAreFollowedByTheLoader() async throws {
        let harness = try LoaderHarness.make()
        harness.server.setRoute("/from", .fixed(.redirect(302, to: "/to")))
        harness.server.setRoute("/to", .fixed(.ok(body)))
        let result = try await harness.load("/from").get()
        #expect(result.bytes == body)
        #expect(result.response.url == harness.url("/to"))
        #expect(harness.server.requests.map(\.path) == ["/from", "/to"])
        await harness.finish()
    }

    @Test func aRedirectToARefusedAddressFailsWithoutConnectingThere() async throws {
        let harness = try LoaderHarness.make { configuration in
            configuration.addressPolicy = AddressPolicy(.none, allowing: [.host("127.0.0.1")])
        }
        // localhost is not among the allowed hosts: refused by name before any connection.
        harness.server.setRoute("/from", .fixed(.redirect(302, to: "http://localhost:\(harness.server.port)/to")))
        harness.server.setRoute("/to", .fixed(.ok(body)))
        let failure = try #require(await harness.load("/from").failure)
        guard case .addressNotAllowed = failure else {
            Issue.record("expected addressNotAllowed, got \(failure)")
            return await harness.finish()
        }
        #expect(harness.server.requests.map(\.path) == ["/from"])
        await harness.finish()
    }

    @Test func aRedirectLoopStopsAtTheLimit() async throws {
        let harness = try LoaderHarness.make { $0.maximumRedirects = 3 }
        harness.server.setRoute("/loop", .fixed(.redirect(302, to: "/loop")))
        #expect(await harness.load("/loop").failure == .tooManyRedirects(3))
        #expect(harness.server.requests.count == 4)
        await harness.finish()
    }

    @Test func aRedirectToAFileIsRefused() async throws {
        let harness = try LoaderHarness.make()
        harness.server.setRoute("/from", .fixed(.redirect(302, to: "file:///etc/passwd")))
        #expect(await harness.load("/from").failure == .redirectNotAllowed("file:///etc/passwd"))
        await harness.finish()
    }

    @Test func schemesOtherThanHTTPAreRefusedAtOnce() async throws {
        let harness = try LoaderHarness.make()
        #expect(await harness.load(ImageDownloadRequest(url: URL(fileURLWithPath: "/etc/passwd"))).failure == .invalidURL)
        await harness.finish()
    }
}

/// The per-attempt deadline (``ImageDownloader/Configuration/transferDeadline``).
@Suite("GlimpseAsyncHTTPClientTests deadline")
struct AsyncHTTPClientImageLoaderDeadlineTests {
    @Test func anAttemptPastItsDeadlineFailsAndIsNotRetried() async throws {
        let harness = try LoaderHarness.make { configuration in
            configuration.transferDeadline = .milliseconds(300)
            configuration.retryPolicy = RetryPolicy(maximumRetries: 2, baseDelay: .milliseconds(10))
        }
        harness.server.setRoute("/stall", .fixed(.init(status: 200, headers: [("Content-Type", "image/png")],
                                                       body: .stall(declaredLength: 1_000, limit: .seconds(30)))))
        #expect(await harness.load("/stall").failure == .deadlineExceeded)
        #expect(harness.server.requests.count == 1)
        await harness.finish()
    }
}
