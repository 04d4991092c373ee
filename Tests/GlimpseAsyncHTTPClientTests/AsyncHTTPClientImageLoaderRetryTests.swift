import Foundation
import Glimpse
import GlimpseAsyncHTTPClient
import LoopbackHTTPServer
import Testing
import TestSupport

/// Retries and resumption: the shared `TransferStateMachine` driven by AsyncHTTPClient.
@Suite("GlimpseAsyncHTTPClientTests retries and resumption")
struct AsyncHTTPClientImageLoaderRetryTests {
    static let quick = RetryPolicy(maximumRetries: 2, baseDelay: .milliseconds(20))
    let body = patternBody(200_000)

    @Test func unavailableAndTooManyRequestsAreRetriedAfterRetryAfter() async throws {
        let harness = try LoaderHarness.make { $0.retryPolicy = Self.quick }
        harness.server.setRoute("/x", .resource(body, faults: [.status(503, retryAfter: "0"), .status(429, retryAfter: "0")]))
        #expect(try await harness.load("/x").get().bytes == body)
        #expect(harness.server.requests.count == 3)
        await harness.finish()
    }

    @Test func retriesRunOutWithTheLastFailure() async throws {
        let harness = try LoaderHarness.make { $0.retryPolicy = Self.quick }
        harness.server.setRoute("/x", .resource(body, faults: [.status(502), .status(503), .status(504), .none]))
        #expect(await harness.load("/x").failure == .badStatus(504))
        #expect(harness.server.requests.count == 3)
        await harness.finish()
    }

    @Test func aResetConnectionIsRetriedAndResumedWithRangeAndIfRange() async throws {
        let harness = try LoaderHarness.make { $0.retryPolicy = Self.quick }
        harness.server.setRoute("/x", .resource(body, faults: [.cutAfter(120_000)]))
        let result = try await harness.load("/x").get()
        #expect(result.bytes == body)
        #expect(result.response.statusCode == 206)
        let requests = harness.server.requests
        #expect(requests.count == 2)
        let range = try #require(requests.last?.header("Range"))
        #expect(range.hasPrefix("bytes=") && range.hasSuffix("-"))
        let offset = try #require(Int(range.dropFirst("bytes=".count).dropLast()))
        #expect(offset > 0 && offset <= 120_000, "asks only for what is missing")
        #expect(requests.last?.header("If-Range") == "\"v1\"")
        await harness.finish()
    }

    @Test func aCleanCloseShortOfTheLengthIsResumedToo() async throws {
        let harness = try LoaderHarness.make { $0.retryPolicy = Self.quick }
        harness.server.setRoute("/x", .resource(body, faults: [.closeAfter(90_000)]))
        #expect(try await harness.load("/x").get().bytes == body)
        #expect(harness.server.requests.count == 2)
        #expect(harness.server.requests.last?.header("Range") != nil)
        await harness.finish()
    }

    @Test func aServerThatIgnoresTheRangeGivesTheWholeBodyNotASplice() async throws {
        let harness = try LoaderHarness.make { $0.retryPolicy = Self.quick }
        harness.server.setRoute("/x", .resource(body, faults: [.cutAfter(50_000), .ignoreRange]))
        #expect(try await harness.load("/x").get().bytes == body)
        await harness.finish()
    }

    @Test func aNewVersionBetweenAttemptsIsFetchedWholeNotSpliced() async throws {
        let harness = try LoaderHarness.make { $0.retryPolicy = Self.quick }
        let newer = body.map { $0 ^ 0x5a }
        // The second answer is a 206 of the new version, which cannot continue the old
        // bytes: the machine restarts without a range and the third answer is whole.
        harness.server.setRoute("/x", .resource(body, faults: [.cutAfter(50_000), .newVersion(newer, etag: "\"v2\"")]))
        #expect(try await harness.load("/x").get().bytes == newer)
        #expect(harness.server.requests.count == 3)
        await harness.finish()
    }

    @Test func aLoadAfterACutOneResumesFromWhatTheFirstReceived() async throws {
        let harness = try LoaderHarness.make()
        harness.server.setRoute("/x", .resource(body, faults: [.cutAfter(100_000)]))
        let first = await harness.load("/x")
        #expect(first.failure != nil, "no retries: the cut fails the first load")
        let second = try await harness.load("/x").get()
        #expect(second.bytes == body)
        #expect(harness.server.requests.last?.header("Range") != nil, "the second load asked only for the rest")
        await harness.finish()
    }
}

/// Resumption against nginx's own validators and range handling.
@Suite("GlimpseAsyncHTTPClientTests resumption against nginx", .serialized, .enabled(if: NginxOrigin.binary != nil))
struct AsyncHTTPClientImageLoaderNginxTests {
    let body = patternBody(3_000_000)

    @Test func aCutTransferIsResumedWithNginxsRangeAnswer() async throws {
        let nginx = try #require(try NginxOrigin(rate: "2m"), "nginx did not start")
        defer { nginx.stop() }
        try Data(body).write(to: nginx.root.appendingPathComponent("big.png"))
        let harness = try LoaderHarness.make()
        let request = ImageDownloadRequest(url: nginx.url("big.png"))
        let recorder = LoadRecorder()
        let task = harness.loader.loadData(for: request, handlers: recorder.handlers)
        #expect(await eventually { recorder.pieces.count > 200_000 })
        task.cancel()
        let cut = recorder.pieces.count
        try #require(cut < body.count, "the first transfer was cut part-way (\(cut) bytes)")
        let result = try await harness.load(request).get()
        #expect(result.bytes == body)
        #expect(result.response.statusCode == 206, "nginx answered the range, so only the rest was sent")
        await harness.finish()
    }

    @Test func aPlainLoadFromNginx() async throws {
        let nginx = try #require(try NginxOrigin(), "nginx did not start")
        defer { nginx.stop() }
        try Data(body).write(to: nginx.root.appendingPathComponent("a.png"))
        let harness = try LoaderHarness.make()
        let result = try await harness.load(ImageDownloadRequest(url: nginx.url("a.png"))).get()
        #expect(result.bytes == body)
        #expect(result.response.mimeType == "image/png")
        #expect(result.response.entityTag != nil)
        await harness.finish()
    }
}
