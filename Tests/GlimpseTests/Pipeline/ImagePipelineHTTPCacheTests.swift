import Foundation
import Glimpse
import GlimpseCache
import LoopbackHTTPServer
import Synchronization
import TestSupport
import Testing

extension PipelineTests {
    /// ``HTTPCachePolicy/respect``: the tiers as a private HTTP cache (RFC 9111),
    /// against a loopback origin that sets the caching fields.
    @Suite(.timeLimit(.minutes(1)))
    struct ImagePipelineHTTPCacheTests {
        typealias Response = LoopbackHTTPServer.Response

        static func respecting() throws -> PipelineHarness {
            try PipelineHarness.make { $0.httpCachePolicy = .respect }
        }

        /// 200 with `fields`, an `ETag`, and 304 (with `notModifiedFields`) to a matching `If-None-Match`.
        static func origin(_ png: [UInt8], etag: String = "\"v1\"", fields: [(String, String)],
                           notModifiedFields: [(String, String)] = []) -> LoopbackHTTPServer.Route {
            .handler { request in
                if request.header("If-None-Match") == etag {
                    return Response(status: 304, headers: [("ETag", etag)] + notModifiedFields, body: .bytes([]))
                }
                return Response(status: 200, headers: [("Content-Type", "image/png"), ("ETag", etag)] + fields,
                                body: .bytes(png))
            }
        }

        @Test func freshEntryIsServedWithoutTheNetwork() async throws {
            let harness = try Self.respecting()
            defer { harness.finish() }
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            harness.server.setRoute("/f.png", Self.origin(png, fields: [("Cache-Control", "max-age=3600")]))
            let url = harness.url("/f.png")
            let first = try await harness.pipeline.load(ImageRequest(url: url, options: [.waitForDiskStore]))
            #expect(first.tier == .network)
            let stored = try #require(harness.cache.disk?.metadata(forKey: url.absoluteString)?.freshness)
            #expect(stored.lifetime == 3600)
            #expect(stored.isFresh(at: Date()))

            #expect(try await harness.pipeline.load(url).tier == .memory)
            await harness.cache.clear(.memory)
            let disk = try await harness.pipeline.load(url)
            #expect(disk.tier == .disk)
            #expect(disk.image == first.image)
            #expect(harness.requests("/f.png").count == 1)
        }

        @Test func staleEntryIsRevalidatedAnd304RefreshesItsFreshness() async throws {
            let harness = try Self.respecting()
            defer { harness.finish() }
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            // Already older than its lifetime when it arrives (RFC 9111 §4.2.3's Age).
            harness.server.setRoute("/s.png", Self.origin(png, fields: [("Cache-Control", "max-age=60"), ("Age", "120")],
                                                          notModifiedFields: [("Cache-Control", "max-age=3600")]))
            let url = harness.url("/s.png")
            let first = try await harness.pipeline.load(ImageRequest(url: url, options: [.waitForDiskStore]))
            #expect(first.tier == .network)

            // Stale in memory too: not served from there.
            let revalidated = try await harness.pipeline.load(ImageRequest(url: url, options: [.waitForDiskStore]))
            #expect(revalidated.tier == .disk)
            #expect(revalidated.response?.statusCode == 304)
            #expect(revalidated.image == first.image)
            #expect(harness.requests("/s.png").count == 2)
            #expect(harness.requests("/s.png").last?.header("If-None-Match") == "\"v1\"")
            let refreshed = try #require(harness.cache.disk?.metadata(forKey: url.absoluteString)?.freshness)
            #expect(refreshed.lifetime == 3600 && refreshed.isFresh(at: Date()))

            // Fresh now, in memory and on disk.
            #expect(try await harness.pipeline.load(url).tier == .memory)
            await harness.cache.clear(.memory)
            #expect(try await harness.pipeline.load(url).tier == .disk)
            #expect(harness.requests("/s.png").count == 2)
        }

        @Test func changedResourceReplacesAStaleEntry() async throws {
            let harness = try Self.respecting()
            defer { harness.finish() }
            let old = try Fixtures.bytes("png/ct6-d08-seq.png")
            let new = try Fixtures.bytes("png/size-9x9-seq.png")
            harness.server.setRoute("/r.png", Self.origin(old, fields: [("Cache-Control", "no-cache")]))
            let url = harness.url("/r.png")
            _ = try await harness.pipeline.load(ImageRequest(url: url, options: [.waitForDiskStore]))
            harness.server.setRoute("/r.png", Self.origin(new, etag: "\"v2\"", fields: [("Cache-Control", "max-age=600")]))
            let replaced = try await harness.pipeline.load(ImageRequest(url: url, options: [.waitForDiskStore]))
            #expect(replaced.tier == .network && replaced.image.width == 9)
            #expect(harness.requests("/r.png").last?.header("If-None-Match") == "\"v1\"")
            #expect(harness.cache.disk?.metadata(forKey: url.absoluteString)?.etag == "\"v2\"")
        }

        @Test func noCacheRevalidatesEveryLoad() async throws {
            let harness = try Self.respecting()
            defer { harness.finish() }
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            harness.server.setRoute("/n.png", Self.origin(png, fields: [("Cache-Control", "no-cache")]))
            let url = harness.url("/n.png")
            _ = try await harness.pipeline.load(ImageRequest(url: url, options: [.waitForDiskStore]))
            for _ in 0..<2 {
                let again = try await harness.pipeline.load(ImageRequest(url: url, options: [.waitForDiskStore]))
                #expect(again.response?.statusCode == 304)
            }
            #expect(harness.requests("/n.png").map { $0.header("If-None-Match") } == [nil, "\"v1\"", "\"v1\""])
            #expect(harness.cache.disk?.metadata(forKey: url.absoluteString)?.freshness?.mustRevalidate == true)
        }

        @Test func noStoreIsNeitherStoredNorServed() async throws {
            let harness = try Self.respecting()
            defer { harness.finish() }
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            harness.server.setRoute("/x.png", Self.origin(png, fields: [("Cache-Control", "no-store, max-age=3600")]))
            let url = harness.url("/x.png")
            for _ in 0..<2 {
                let load = try await harness.pipeline.load(ImageRequest(url: url, options: [.waitForDiskStore]))
                #expect(load.tier == .network)
            }
            #expect(harness.requests("/x.png").count == 2)
            #expect(harness.cache.disk?.metadata(forKey: url.absoluteString) == nil)
        }

        @Test func varyOnAnythingButContentNegotiationIsNotStored() async throws {
            let harness = try Self.respecting()
            defer { harness.finish() }
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            harness.server.setRoute("/cookie.png", Self.origin(png, fields: [("Cache-Control", "max-age=600"),
                                                                             ("Vary", "Cookie")]))
            harness.server.setRoute("/accept.png", Self.origin(png, fields: [("Cache-Control", "max-age=600"),
                                                                             ("Vary", "Accept, Accept-Encoding")]))
            for path in ["/cookie.png", "/accept.png"] {
                _ = try await harness.pipeline.load(ImageRequest(url: harness.url(path), options: [.waitForDiskStore]))
            }
            #expect(harness.cache.disk?.metadata(forKey: harness.url("/cookie.png").absoluteString) == nil)
            #expect(harness.cache.disk?.metadata(forKey: harness.url("/accept.png").absoluteString) != nil)
        }

        @Test func expiresInThePastIsStale() async throws {
            let harness = try Self.respecting()
            defer { harness.finish() }
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            let now = Date()
            let date = HTTPTestDate.format(now)
            let expires = HTTPTestDate.format(now.addingTimeInterval(-60))
            harness.server.setRoute("/e.png", Self.origin(png, fields: [("Date", date), ("Expires", expires)]))
            let url = harness.url("/e.png")
            _ = try await harness.pipeline.load(ImageRequest(url: url, options: [.waitForDiskStore]))
            #expect(harness.cache.disk?.metadata(forKey: url.absoluteString)?.freshness?.lifetime == 0)
            await harness.cache.clear(.memory)
            let again = try await harness.pipeline.load(url)
            #expect(again.response?.statusCode == 304)
        }

        @Test func staleEntryIsServedWhenTheOriginFailsUnlessMustRevalidate() async throws {
            let harness = try Self.respecting()
            defer { harness.finish() }
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            harness.server.setRoute("/down.png", Self.origin(png, fields: [("Cache-Control", "max-age=0")]))
            harness.server.setRoute("/strict.png", Self.origin(png, fields: [("Cache-Control", "max-age=0, must-revalidate")]))
            for path in ["/down.png", "/strict.png"] {
                _ = try await harness.pipeline.load(ImageRequest(url: harness.url(path), options: [.waitForDiskStore]))
                harness.server.setRoute(path, .fixed(.status(503)))
            }
            let served = try await harness.pipeline.load(harness.url("/down.png"))
            #expect(served.tier == .disk)
            await #expect(throws: ImageLoadError.download(.badStatus(503))) {
                try await harness.pipeline.load(harness.url("/strict.png"))
            }
        }

        @Test func processedVariantKeepsTheResponsesFreshnessAndValidators() async throws {
            let harness = try Self.respecting()
            defer { harness.finish() }
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            harness.server.setRoute("/v.png", Self.origin(png, fields: [("Cache-Control", "max-age=60"), ("Age", "100")],
                                                          notModifiedFields: [("Cache-Control", "max-age=3600")]))
            let request = ImageRequest(url: harness.url("/v.png"), processors: [.resize(width: 8)],
                                       options: [.waitForDiskStore])
            let first = try await harness.pipeline.load(request)
            let key = harness.pipeline.cacheKey(for: request)
            let variant = try #require(harness.cache.disk?.metadata(forKey: key.memoryKey))
            #expect(variant.etag == "\"v1\"" && variant.freshness?.lifetime == 60)

            await harness.cache.clear(.memory)
            let revalidated = try await harness.pipeline.load(request)
            #expect(revalidated.tier == .disk && revalidated.response?.statusCode == 304)
            #expect(revalidated.image == first.image)
            #expect(harness.cache.disk?.metadata(forKey: key.memoryKey)?.freshness?.lifetime == 3600)
            await harness.cache.clear(.memory)
            #expect(try await harness.pipeline.load(request).tier == .disk)
            #expect(harness.requests("/v.png").count == 2)
        }

        @Test func ignorePolicyStoresAndServesEverything() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            harness.server.setRoute("/i.png", Self.origin(png, fields: [("Cache-Control", "no-store"), ("Vary", "Cookie")]))
            let url = harness.url("/i.png")
            _ = try await harness.pipeline.load(ImageRequest(url: url, options: [.waitForDiskStore]))
            #expect(harness.cache.disk?.metadata(forKey: url.absoluteString)?.freshness == nil)
            await harness.cache.clear(.memory)
            #expect(try await harness.pipeline.load(url).tier == .disk)
            #expect(harness.requests("/i.png").count == 1)
        }
    }
}

/// IMF-fixdate (RFC 9110 §5.6.7) for test origins.
enum HTTPTestDate {
    static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
