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

/// The per-attempt deadline (``ImageDownloader/Configuration/transferDeadline``), the idle
/// timeout and the minimum rate, kept by the loader itself as ImageDownloader keeps them.
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

    // The three below judge by outcome, not by the clock: the loader's tasks run on the
    // cooperative pool, which the other tests of this process keep busy (a minute in a full
    // run on 2 cores). So each origin misbehaves far longer than any starvation, and the
    // error can only come from the mechanism under test; the deadline is out of the way.

    static let longStall = LoopbackHTTPServer.Response(status: 200, headers: [("Content-Type", "image/png")],
                                                       body: .stall(declaredLength: 1_000, limit: .seconds(150)))

    @Test func anOriginThatStallsAfterTheHeadTimesOutAndIsRetried() async throws {
        let harness = try LoaderHarness.make { configuration in
            configuration.timeout = .milliseconds(300)
            configuration.transferDeadline = .seconds(150)
            configuration.retryPolicy = RetryPolicy(maximumRetries: 1, baseDelay: .milliseconds(10))
        }
        harness.server.setRoute("/stall", .fixed(Self.longStall))
        let start = ContinuousClock.now
        #expect(await harness.load("/stall").failure == .timedOut)
        #expect(ContinuousClock.now - start >= .milliseconds(600), "two attempts of 300 ms idle")
        #expect(harness.server.requests.count == 2, "an idle timeout is retried, as ImageDownloader's is")
        await harness.finish()
    }

    @Test func aRequestsOwnIdleTimeoutWins() async throws {
        // The configuration's idle timeout would outlast the stall; only the request's can fire.
        let harness = try LoaderHarness.make { configuration in
            configuration.timeout = .seconds(300)
            configuration.transferDeadline = .seconds(150)
        }
        harness.server.setRoute("/stall", .fixed(Self.longStall))
        let request = ImageDownloadRequest(url: harness.url("/stall"), timeout: .milliseconds(200))
        #expect(await harness.load(request).failure == .timedOut)
        await harness.finish()
    }

    @Test func aTricklingOriginBelowTheMinimumRateFailsAfterTheGrace() async throws {
        let harness = try LoaderHarness.make { configuration in
            configuration.minimumTransferRate = .init(bytesPerSecond: 10_000, grace: .milliseconds(800))
            configuration.transferDeadline = .seconds(150)
            configuration.retryPolicy = RetryPolicy(maximumRetries: 2, baseDelay: .milliseconds(10))
        }
        // 10 bytes every 50 ms: 200 B/s for 100 s, never idle for long, far below the rate.
        harness.server.setRoute("/slow", .resource(patternBody(20_000), pace: (chunkSize: 10, interval: .milliseconds(50))))
        let start = ContinuousClock.now
        #expect(await harness.load("/slow").failure == .tooSlow)
        #expect(ContinuousClock.now - start >= .milliseconds(800), "not before the grace")
        #expect(harness.server.requests.count == 1, "too slow is not retried")
        await harness.finish()
    }

    @Test func anOriginAboveTheMinimumRateIsLeftAlone() async throws {
        let harness = try LoaderHarness.make { configuration in
            configuration.minimumTransferRate = .init(bytesPerSecond: 1_000, grace: .milliseconds(200))
        }
        // 500 bytes every 20 ms: about 25 kB/s for 0.8 s.
        let body = patternBody(20_000)
        harness.server.setRoute("/paced", .resource(body, pace: (chunkSize: 500, interval: .milliseconds(20))))
        #expect(await harness.load("/paced").value?.bytes == body)
        await harness.finish()
    }
}
