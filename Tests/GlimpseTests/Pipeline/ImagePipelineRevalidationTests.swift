import Foundation
import Glimpse
import LoopbackHTTPServer
import TestSupport
import Testing

extension PipelineTests {
    /// `refreshCached`: conditional requests from the stored validators
    /// (RFC 9110 §13.1); 304 keeps the cached image, 200 replaces it.
    @Suite(.timeLimit(.minutes(1)))
    struct ImagePipelineRevalidationTests {
        @Test func notModifiedReturnsTheCachedImage() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            harness.server.setRoute("/e.png", .etag("\"v1\"", body: png))
            let url = harness.url("/e.png")
            let first = try await harness.pipeline.load(ImageRequest(url: url, options: [.waitForDiskStore]))
            #expect(first.tier == .network)
            #expect(harness.cache.disk?.metadata(forKey: url.absoluteString)?.etag == "\"v1\"")

            await harness.cache.clear(.memory)
            let refreshed = try await harness.pipeline.load(ImageRequest(url: url, options: [.refreshCached]))
            #expect(refreshed.tier == .disk)
            #expect(refreshed.image == first.image)
            let requests = harness.requests("/e.png")
            #expect(requests.count == 2)
            #expect(requests.last?.header("If-None-Match") == "\"v1\"")

            // With the image in memory, a 304 answers from memory.
            let again = try await harness.pipeline.load(ImageRequest(url: url, options: [.refreshCached]))
            #expect(again.tier == .memory)
            #expect(harness.requests("/e.png").count == 3)
        }

        @Test func changedResourceReplacesBothTiers() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            let old = try Fixtures.bytes("png/ct6-d08-seq.png")
            let new = try Fixtures.bytes("png/size-9x9-seq.png")
            harness.server.setRoute("/c.png", .etag("\"v1\"", body: old))
            let url = harness.url("/c.png")
            _ = try await harness.pipeline.load(ImageRequest(url: url, options: [.waitForDiskStore]))

            harness.server.setRoute("/c.png", .etag("\"v2\"", body: new))
            let refreshed = try await harness.pipeline.load(ImageRequest(url: url, options: [.refreshCached, .waitForDiskStore]))
            #expect(refreshed.tier == .network)
            #expect(refreshed.response?.statusCode == 200)
            #expect(refreshed.image.width == 9)
            #expect(harness.requests("/c.png").last?.header("If-None-Match") == "\"v1\"")
            #expect(harness.cache.disk?.metadata(forKey: url.absoluteString)?.etag == "\"v2\"")

            let memory = try await harness.pipeline.load(url)
            #expect(memory.tier == .memory && memory.image.width == 9)
            await harness.cache.clear(.memory)
            let disk = try await harness.pipeline.load(url)
            #expect(disk.tier == .disk && disk.image.width == 9)
            #expect(harness.requests("/c.png").count == 2)
        }

        @Test func lastModifiedIsSentAsIfModifiedSince() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            let png = try Fixtures.bytes("png/size-9x9-seq.png")
            let stamp = "Sun, 22 Nov 2026 00:00:00 GMT"
            harness.server.setRoute("/lm.png", .handler { request in
                if request.header("If-Modified-Since") == stamp {
                    return LoopbackHTTPServer.Response(status: 304, headers: [("Last-Modified", stamp)], body: .bytes([]))
                }
                return LoopbackHTTPServer.Response(status: 200, headers: [("Content-Type", "image/png"), ("Last-Modified", stamp)],
                                                   body: .bytes(png))
            })
            let url = harness.url("/lm.png")
            _ = try await harness.pipeline.load(ImageRequest(url: url, options: [.waitForDiskStore]))
            await harness.cache.clear(.memory)
            let refreshed = try await harness.pipeline.load(ImageRequest(url: url, options: [.refreshCached]))
            #expect(refreshed.tier == .disk)
            #expect(harness.requests("/lm.png").last?.header("If-Modified-Since") == stamp)
            #expect(harness.requests("/lm.png").last?.header("If-None-Match") == nil)
        }
    }
}
