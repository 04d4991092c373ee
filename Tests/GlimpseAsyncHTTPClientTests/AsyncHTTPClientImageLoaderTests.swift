import AsyncHTTPClient
import Foundation
import Glimpse
import GlimpseAsyncHTTPClient
import GlimpseCache
import LoopbackHTTPServer
import Testing
import TestSupport

/// The AsyncHTTPClient loader against the loopback server: what a load returns, the
/// callbacks' order, coalescing, the queue, the checks of the head, cancellation.
@Suite("GlimpseAsyncHTTPClientTests loading")
struct AsyncHTTPClientImageLoaderTests {
    let body = patternBody(100_000)

    @Test func aPlainLoadReturnsTheBodyAndTheResponseHead() async throws {
        let harness = try LoaderHarness.make()
        harness.server.setRoute("/a.png", .fixed(.ok(body)))
        let result = try await harness.load("/a.png").get()
        #expect(result.bytes == body)
        #expect(result.response.statusCode == 200)
        #expect(result.response.mimeType == "image/png")
        #expect(result.response.expectedContentLength == Int64(body.count))
        #expect(result.response.url == harness.url("/a.png"))
        await harness.finish()
    }

    @Test func progressAndPiecesArriveInOrderAsTheBodyArrivesThenOneCompletion() async throws {
        let harness = try LoaderHarness.make()
        harness.server.setRoute("/drip", .fixed(.init(status: 200, headers: [("Content-Type", "image/png")],
                                                      body: .drip(body, chunkSize: 10_000, interval: .milliseconds(5)))))
        let recorder = LoadRecorder()
        _ = harness.loader.loadData(for: ImageDownloadRequest(url: harness.url("/drip")), handlers: recorder.handlers)
        #expect(await eventually { recorder.result != nil })
        #expect(recorder.result?.value?.bytes == body)
        #expect(recorder.pieces == body, "the pieces, in order, are the body")
        let events = recorder.events
        #expect(events.last == .completion)
        #expect(events.filter { $0 == .completion }.count == 1)
        let progress = events.compactMap { event -> Int64? in
            if case .progress(let received, _) = event { return received }
            return nil
        }
        #expect(progress.count > 1, "progress arrived while the body streamed in, not once at the end")
        #expect(progress == progress.sorted())
        #expect(progress.last == Int64(body.count))
        await harness.finish()
    }

    @Test func identicalRequestsShareOneTransfer() async throws {
        let harness = try LoaderHarness.make()
        harness.server.setRoute("/shared", .fixed(.init(status: 200, headers: [("Content-Type", "image/png")],
                                                        body: .drip(body, chunkSize: 10_000, interval: .milliseconds(10)))))
        async let first = harness.load("/shared")
        async let second = harness.load("/shared")
        let (one, two) = await (first, second)
        #expect(one.value?.bytes == body)
        #expect(two.value?.bytes == body)
        #expect(harness.server.requests.count == 1)
        await harness.finish()
    }

    @Test func noMoreTransfersRunThanTheLimit() async throws {
        let harness = try LoaderHarness.make { $0.maximumConcurrentDownloads = 2 }
        for index in 0..<6 {
            harness.server.setRoute("/\(index)", .fixed(.init(status: 200, headers: [("Content-Type", "image/png")],
                                                              body: .drip(body, chunkSize: 20_000, interval: .milliseconds(5)))))
        }
        let results = await withTaskGroup(of: Result<ImageDownloadResult, ImageDownloadError>.self) { group in
            for index in 0..<6 { group.addTask { await harness.load("/\(index)") } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0.value?.bytes == body })
        #expect(harness.server.statistics.maxActiveRequests <= 2)
        #expect(harness.server.requests.count == 6)
        await harness.finish()
    }

    @Test func queuedTransfersStartByPriority() async throws {
        let harness = try LoaderHarness.make { $0.maximumConcurrentDownloads = 1 }
        for path in ["/low", "/normal", "/high"] { harness.server.setRoute(path, .fixed(.ok(body))) }
        harness.loader.suspend()
        let recorders = [("/low", ImageDownloadPriority.low), ("/normal", .normal), ("/high", .high)].map { path, priority in
            let recorder = LoadRecorder()
            _ = harness.loader.loadData(for: ImageDownloadRequest(url: harness.url(path), priority: priority),
                                        handlers: recorder.handlers)
            return recorder
        }
        #expect(harness.loader.queuedDownloadCount == 3)
        harness.loader.resume()
        #expect(await eventually { recorders.allSatisfy { $0.result != nil } })
        #expect(harness.server.requests.map(\.path) == ["/high", "/normal", "/low"])
        await harness.finish()
    }

    @Test func aRaisedPriorityMovesAQueuedLoadAhead() async throws {
        let harness = try LoaderHarness.make { $0.maximumConcurrentDownloads = 1 }
        for path in ["/first", "/second"] { harness.server.setRoute(path, .fixed(.ok(body))) }
        harness.loader.suspend()
        let first = LoadRecorder(), second = LoadRecorder()
        _ = harness.loader.loadData(for: ImageDownloadRequest(url: harness.url("/first")), handlers: first.handlers)
        let task = harness.loader.loadData(for: ImageDownloadRequest(url: harness.url("/second"), priority: .low),
                                           handlers: second.handlers)
        task.setPriority(.veryHigh)
        harness.loader.resume()
        #expect(await eventually { first.result != nil && second.result != nil })
        #expect(harness.server.requests.map(\.path) == ["/second", "/first"])
        await harness.finish()
    }

    @Test func anUnchangedResourceAnswersNotModifiedWithItsHead() async throws {
        let harness = try LoaderHarness.make()
        harness.server.setRoute("/e", .etag("\"v7\"", body: body))
        let request = ImageDownloadRequest(url: harness.url("/e")).revalidating(entityTag: "\"v7\"", lastModified: nil)
        let failure = try #require(await harness.load(request).failure)
        guard case .notModified(let head) = failure else {
            Issue.record("expected notModified, got \(failure)")
            return await harness.finish()
        }
        #expect(head.statusCode == 304)
        #expect(head.entityTag == "\"v7\"")
        #expect(harness.server.requests.first?.header("If-None-Match") == "\"v7\"")
        await harness.finish()
    }

    @Test func aClientErrorFailsWithItsStatusAndIsNotRetried() async throws {
        let harness = try LoaderHarness.make { $0.retryPolicy = RetryPolicy(maximumRetries: 2, baseDelay: .milliseconds(10)) }
        harness.server.setRoute("/missing", .fixed(.status(404)))
        #expect(await harness.load("/missing").failure == .badStatus(404))
        #expect(harness.server.requests.count == 1)
        await harness.finish()
    }

    @Test func aDeclaredLengthOverTheCapFailsBeforeTheBody() async throws {
        let harness = try LoaderHarness.make { $0.maximumResponseSize = 10_000 }
        harness.server.setRoute("/big", .fixed(.ok(body)))
        #expect(await harness.load("/big").failure == .tooLarge)
        await harness.finish()
    }

    @Test func aChunkedBodyOverTheCapFailsWhileItArrives() async throws {
        let harness = try LoaderHarness.make { $0.maximumResponseSize = 150_000 }
        harness.server.setRoute("/chunked", .fixed(.init(status: 200, headers: [("Content-Type", "image/png")],
                                                         body: .generated(count: 1_000_000, chunked: true))))
        #expect(await harness.load("/chunked").failure == .tooLarge)
        await harness.finish()
    }

    @Test func anUnacceptableContentTypeIsRejected() async throws {
        let harness = try LoaderHarness.make { $0.acceptableContentTypes = ["image/png", "image/jpeg"] }
        harness.server.setRoute("/page", .fixed(.ok(Array("<html></html>".utf8), contentType: "text/html; charset=utf-8")))
        #expect(await harness.load("/page").failure == .invalidContentType("text/html"))
        await harness.finish()
    }

    @Test func anEmptyBodyFails() async throws {
        let harness = try LoaderHarness.make()
        harness.server.setRoute("/empty", .fixed(.ok([])))
        #expect(await harness.load("/empty").failure == .emptyBody)
        await harness.finish()
    }

    @Test func aCancelledLoadCompletesCancelledOnceAndTheTransferStops() async throws {
        let harness = try LoaderHarness.make()
        harness.server.setRoute("/stall", .fixed(.init(status: 200, headers: [("Content-Type", "image/png")],
                                                       body: .stall(declaredLength: 1_000, limit: .seconds(30)))))
        let recorder = LoadRecorder()
        let task = harness.loader.loadData(for: ImageDownloadRequest(url: harness.url("/stall")), handlers: recorder.handlers)
        #expect(await eventually { harness.server.requests.count == 1 })
        #expect(task.cancel())
        #expect(!task.cancel(), "a second cancel finds the load completed")
        #expect(await eventually { recorder.result != nil })
        #expect(recorder.result?.failure == .cancelled)
        #expect(await eventually { harness.loader.currentDownloadCount == 0 }, "the slot is freed once the attempt stopped")
        #expect(recorder.events == [.completion])
        await harness.finish()
    }

    @Test func oneCallerCancellingLeavesTheSharedTransferToTheOther() async throws {
        let harness = try LoaderHarness.make()
        harness.server.setRoute("/shared", .fixed(.init(status: 200, headers: [("Content-Type", "image/png")],
                                                        body: .drip(body, chunkSize: 10_000, interval: .milliseconds(10)))))
        let leaving = LoadRecorder(), staying = LoadRecorder()
        let task = harness.loader.loadData(for: ImageDownloadRequest(url: harness.url("/shared")), handlers: leaving.handlers)
        _ = harness.loader.loadData(for: ImageDownloadRequest(url: harness.url("/shared")), handlers: staying.handlers)
        task.cancel()
        #expect(await eventually { staying.result != nil })
        #expect(leaving.result?.failure == .cancelled)
        #expect(staying.result?.value?.bytes == body)
        #expect(harness.server.requests.count == 1)
        await harness.finish()
    }
}
