import Foundation
import Glimpse
import GlimpseCache
import LoopbackHTTPServer
import Testing
import TestSupport

/// ``ImagePipeline/shutdown(deadline:)`` with the URLSession downloader.
@Suite("ImagePipeline Shutdown")
struct ImagePipelineShutdownTests {
    @Test func shutdownWritesQueuedOriginalsThenRefusesLoadsAndInvalidatesTheDownloader() async throws {
        let harness = try PipelineHarness.make()
        let png = try Fixtures.bytes("png/ct6-d08-seq.png")
        harness.server.setRoute("/a.png", .fixed(.ok(png)))
        let url = harness.url("/a.png")
        #expect(try await harness.pipeline.load(url).tier == .network)
        #expect(await harness.pipeline.shutdown(deadline: .now + .seconds(30)))
        #expect(harness.cache.pendingWriteCount == 0)
        let key = harness.pipeline.cacheKey(for: ImageRequest(url: url)).base
        #expect(await harness.cache.containsData(forDataKey: key), "the original is on disk")
        await #expect(throws: ImageLoadError.shutDown) { try await harness.pipeline.load(url) }
        // The downloader was shut down with the pipeline: it takes no more transfers.
        await #expect(throws: ImageDownloadError.cancelled) { try await harness.downloader.download(url) }
        #expect(harness.server.requests.count == 1)
        #expect(await harness.pipeline.shutdown(), "idempotent")
        harness.finish()
    }

    @Test func shutdownCancelsLoadsInFlight() async throws {
        let harness = try PipelineHarness.make()
        harness.server.setRoute("/stall", .fixed(.init(status: 200, headers: [("Content-Type", "image/png")],
                                                       body: .stall(declaredLength: 1_000, limit: .seconds(30)))))
        let url = harness.url("/stall")
        let load = Task { try await harness.pipeline.load(url) }
        for _ in 0..<6_000 where harness.server.requests.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        try #require(!harness.server.requests.isEmpty, "the load reached the server")
        await harness.pipeline.shutdown()
        await #expect(throws: ImageLoadError.cancelled) { try await load.value }
        harness.finish()
    }
}
