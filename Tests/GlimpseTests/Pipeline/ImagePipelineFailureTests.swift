import Foundation
import Glimpse
import LoopbackHTTPServer
import TestSupport
import Testing

extension PipelineTests {
    /// The failed-URL cache: permanent failures fail fast until the TTL ends;
    /// transient ones are never recorded.
    @Suite(.timeLimit(.minutes(1)))
    struct ImagePipelineFailureTests {
        @Test func notFoundFailsFastUntilTheTimeToLiveEnds() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            harness.server.setRoute("/gone.png", .fixed(.status(404)))
            let url = harness.url("/gone.png")
            await #expect(throws: ImageLoadError.download(.badStatus(404))) { try await harness.pipeline.load(url) }
            // The fail-fast answer keeps the original reason.
            await #expect(throws: ImageLoadError.failedRecently(.download(.badStatus(404)))) { try await harness.pipeline.load(url) }
            #expect(harness.requests("/gone.png").count == 1)

            harness.clock.advance(.seconds(599))
            await #expect(throws: ImageLoadError.failedRecently(.download(.badStatus(404)))) { try await harness.pipeline.load(url) }
            #expect(harness.requests("/gone.png").count == 1)

            // retryFailed goes to the network at once.
            await #expect(throws: ImageLoadError.download(.badStatus(404))) {
                try await harness.pipeline.load(ImageRequest(url: url, options: [.retryFailed]))
            }
            #expect(harness.requests("/gone.png").count == 2)

            // After the TTL the server is asked again, and this time it has the image.
            harness.server.setRoute("/gone.png", .fixed(.ok(try Fixtures.bytes("png/size-9x9-seq.png"))))
            harness.clock.advance(.seconds(601))
            #expect(try await harness.pipeline.load(url).tier == .network)
            #expect(harness.requests("/gone.png").count == 3)
        }

        /// A successful retry forgets the failure: later loads that miss memory go
        /// to the tiers again instead of failing fast for the rest of the time-to-live.
        @Test func aSuccessfulRetryClearsTheFailedURL() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            harness.server.setRoute("/back.png", .fixed(.status(404)))
            let url = harness.url("/back.png")
            await #expect(throws: ImageLoadError.download(.badStatus(404))) { try await harness.pipeline.load(url) }
            harness.server.setRoute("/back.png", .fixed(.ok(try Fixtures.bytes("png/size-9x9-seq.png"))))
            #expect(try await harness.pipeline.load(ImageRequest(url: url, options: [.retryFailed, .waitForDiskStore])).tier == .network)
            await harness.cache.clear(.memory)
            #expect(try await harness.pipeline.load(url).tier == .disk)
            await harness.cache.clear()
            #expect(try await harness.pipeline.load(url).tier == .network)
        }

        @Test func undecodableDataIsRecordedAndGoneIsToo() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            harness.server.setRoute("/junk.png", .fixed(.ok(Array("not an image at all".utf8))))
            harness.server.setRoute("/410.png", .fixed(.status(410)))
            await #expect(throws: ImageLoadError.self) { try await harness.pipeline.load(harness.url("/junk.png")) }
            await #expect {
                try await harness.pipeline.load(harness.url("/junk.png"))
            } throws: { error in
                guard case .failedRecently(.decoding)? = error as? ImageLoadError else { return false }
                return true
            }
            await #expect(throws: ImageLoadError.download(.badStatus(410))) { try await harness.pipeline.load(harness.url("/410.png")) }
            await #expect(throws: ImageLoadError.failedRecently(.download(.badStatus(410)))) {
                try await harness.pipeline.load(harness.url("/410.png"))
            }
            #expect(harness.server.requests.count == 2)
            #expect(harness.cache.disk?.count == 0)
        }

        @Test func transientFailuresAreNotRecorded() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            harness.server.setRoute("/reset.png", .fixed(LoopbackHTTPServer.Response(
                status: 200, headers: [("Content-Type", "image/png")], body: .reset(prefix: [0x89, 0x50], declaredLength: 1000))))
            harness.server.setRoute("/500.png", .fixed(.status(503)))
            for _ in 0..<2 {
                await #expect(throws: ImageLoadError.self) { try await harness.pipeline.load(harness.url("/reset.png")) }
                await #expect(throws: ImageLoadError.download(.badStatus(503))) {
                    try await harness.pipeline.load(harness.url("/500.png"))
                }
            }
            #expect(harness.requests("/reset.png").count == 2)
            #expect(harness.requests("/500.png").count == 2)
        }

        @Test func invalidURLsFailFastWithoutNetwork() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            let url = try #require(URL(string: "ftp://example.invalid/x.png"))
            await #expect(throws: ImageLoadError.download(.invalidURL)) { try await harness.pipeline.load(url) }
            await #expect(throws: ImageLoadError.failedRecently(.download(.invalidURL))) { try await harness.pipeline.load(url) }
        }
    }
}
