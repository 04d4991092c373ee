import Foundation
import Glimpse
import LoopbackHTTPServer
import TestSupport
import Testing

extension PipelineTests {
    /// Cancelling one caller detaches it alone; the download stops with the last.
    @Suite(.timeLimit(.minutes(1)))
    struct ImagePipelineCancellationTests {
        private func slowRoute(_ harness: PipelineHarness, _ path: String) throws {
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            harness.server.setRoute(path, .fixed(LoopbackHTTPServer.Response(
                status: 200, headers: [("Content-Type", "image/png")],
                body: .drip(png, chunkSize: 16, interval: .milliseconds(25)))))
        }

        @Test func cancellingOneWaiterLeavesTheOthersLoading() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            try slowRoute(harness, "/w.png")
            let url = harness.url("/w.png")
            let first = Collected<Result<ImageResult, ImageLoadError>>()
            let second = Collected<Result<ImageResult, ImageLoadError>>()
            let progress = Collected<Int64>()
            // A job asks the downloader for progress only when a waiter listens as its download
            // starts, which can be before the second load below attaches: the first listens too.
            let a = harness.pipeline.load(url, progress: { _, _ in }, completion: { first.append($0) })
            harness.pipeline.load(url, progress: { received, _ in progress.append(received) },
                                 completion: { second.append($0) })
            #expect(await harness.server.waitUntil { $0.requests.count == 1 })
            #expect(a.cancel())
            #expect(!a.cancel())
            #expect(await eventually(timeout: .seconds(10)) { second.values.count == 1 })
            #expect(first.values.count == 1)
            if case .failure(let error) = first.values.first { #expect(error == .cancelled) } else { Issue.record("not cancelled") }
            let loaded = try #require(try second.values.first?.get())
            #expect(loaded.tier == .network && loaded.image.width == 33)
            #expect(!progress.values.isEmpty)
            #expect(harness.server.requests.count == 1)
        }

        @Test func cancellingTheLastWaiterCancelsTheDownload() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            try slowRoute(harness, "/last.png")
            let url = harness.url("/last.png")
            let manager = harness.pipeline
            let tasks = (0..<3).map { _ in Task { try await manager.load(url) } }
            #expect(await harness.server.waitUntil { $0.requests.count == 1 })
            for task in tasks { task.cancel() }
            for task in tasks {
                await #expect(throws: ImageLoadError.cancelled) { try await task.value }
            }
            #expect(await eventually { harness.downloader.waitingCallerCount == 0 })
            #expect(await harness.server.waitUntil { !$0.abortedByClient.isEmpty || !$0.closedConnections.isEmpty })
            // Nothing was cached, and a new load starts a new download.
            #expect(harness.cache.memory.imageCount == 0)
            #expect(try await manager.load(url).tier == .network)
            #expect(harness.server.requests.count == 2)
        }
    
        @Test func progressiveLoadsHandOutPartialImagesBeforeTheCompletion() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            try slowRoute(harness, "/progressive.png")
            let partials = Collected<Image>()
            let done = Collected<Result<ImageResult, ImageLoadError>>()
            harness.pipeline.load(ImageRequest(url: harness.url("/progressive.png"), options: .progressive),
                                 partialImage: { image in
                                     // Nothing may follow the completion.
                                     if done.values.isEmpty { partials.append(image) } else { Issue.record("late partial") }
                                 },
                                 completion: { done.append($0) })
            #expect(await eventually(timeout: .seconds(10)) { done.values.count == 1 })
            let loaded = try #require(try done.values.first?.get())
            #expect(loaded.image.width == 33)
            #expect(!partials.values.isEmpty)
            #expect(partials.values.allSatisfy { $0.width == 33 && $0.height == 7 })
        }
}
}
