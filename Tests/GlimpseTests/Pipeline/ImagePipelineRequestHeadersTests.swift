import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Glimpse
import LoopbackHTTPServer
import TestSupport
import Testing

extension PipelineTests {
    /// Requests for one URL that differ in `Authorization`, `Cookie` or `Accept`
    /// never share a cache entry or a failed-URL entry; a request's own cache key
    /// joins them on purpose. Also: the per-request retry policy and warnings kept
    /// across the data tier.
    @Suite(.timeLimit(.minutes(1)))
    struct ImagePipelineRequestHeadersTests {
        static func request(_ url: URL, _ fields: [String: String], cacheKey: String? = nil) -> ImageRequest {
            var urlRequest = URLRequest(url: url)
            urlRequest.timeoutInterval = 0
            for (name, value) in fields { urlRequest.setValue(value, forHTTPHeaderField: name) }
            var request = ImageRequest(urlRequest: urlRequest, options: [.waitForDiskStore])
            request.cacheKey = cacheKey
            return request
        }

        @Test func credentialsAndAcceptKeepEntriesApart() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            let alice = try Fixtures.bytes("png/ct6-d08-seq.png")
            let bob = try Fixtures.bytes("png/size-9x9-seq.png")
            // The origin answers each user with their own image.
            harness.server.setRoute("/me.png", .handler { request in
                switch request.header("Authorization") ?? request.header("Cookie") {
                case "Bearer alice", "session=alice": .ok(alice)
                case "Bearer bob", "session=bob": .ok(bob)
                default: .status(401)
                }
            })
            let url = harness.url("/me.png")
            let forAlice = try await harness.pipeline.load(Self.request(url, ["Authorization": "Bearer alice"]))
            let forBob = try await harness.pipeline.load(Self.request(url, ["Authorization": "Bearer bob"]))
            #expect(forAlice.image.width != forBob.image.width)
            #expect(forBob.tier == .network)

            // Neither tier hands one user's image to the other, nor to a request without credentials.
            await harness.cache.clear(.memory)
            let again = try await harness.pipeline.load(Self.request(url, ["Authorization": "Bearer bob"]))
            #expect(again.tier == .disk && again.image == forBob.image)
            let cookie = try await harness.pipeline.load(Self.request(url, ["Cookie": "session=alice"]))
            #expect(cookie.tier == .network && cookie.image == forAlice.image)
            await #expect(throws: ImageLoadError.download(.badStatus(401))) {
                try await harness.pipeline.load(url)
            }
            // The anonymous failure is remembered for anonymous requests only.
            await #expect(throws: ImageLoadError.failedRecently(.download(.badStatus(401)))) {
                try await harness.pipeline.load(url)
            }
            let alive = try await harness.pipeline.load(Self.request(url, ["Authorization": "Bearer alice"]))
            #expect(alive.image == forAlice.image)

            // Credentials never appear in a key.
            let key = harness.pipeline.cacheKey(for: Self.request(url, ["Authorization": "Bearer alice"]))
            #expect(!key.base.contains("alice"))
            #expect(harness.requests("/me.png").count == 4)
        }

        @Test func acceptSeparatesNegotiatedFormats() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            harness.server.setRoute("/n.png", .fixed(.ok(png)))
            let url = harness.url("/n.png")
            let plain = harness.pipeline.cacheKey(for: ImageRequest(url: url))
            let pngOnly = harness.pipeline.cacheKey(for: Self.request(url, ["Accept": "image/png"]))
            let webp = harness.pipeline.cacheKey(for: Self.request(url, ["accept": "image/webp"]))
            #expect(Set([plain.base, pngOnly.base, webp.base]).count == 3)
            // Other fields do not split the cache.
            #expect(harness.pipeline.cacheKey(for: Self.request(url, ["X-Trace": "1"])) == plain)
        }

        @Test func anOwnCacheKeyJoinsThemOnPurpose() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            harness.server.setRoute("/shared.png", .fixed(.ok(png)))
            let url = harness.url("/shared.png")
            _ = try await harness.pipeline.load(Self.request(url, ["Authorization": "Bearer a"], cacheKey: "logo"))
            let other = try await harness.pipeline.load(Self.request(url, ["Authorization": "Bearer b"], cacheKey: "logo"))
            #expect(other.tier == .memory)
            #expect(harness.requests("/shared.png").count == 1)
        }

        @Test func requestRetryPolicyReachesTheDownload() async throws {
            // The harness's downloader never retries; the request asks for one retry.
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            let attempts = Collected<Int>()
            harness.server.setRoute("/flaky.png", .handler { _ in
                attempts.append(1)
                return attempts.values.count == 1 ? .status(503) : .ok(png)
            })
            var request = ImageRequest(url: harness.url("/flaky.png"))
            request.retryPolicy = RetryPolicy(maximumRetries: 1, baseDelay: .milliseconds(10))
            let loaded = try await harness.pipeline.load(request)
            #expect(loaded.tier == .network)
            #expect(harness.requests("/flaky.png").count == 2)
        }

        @Test func warningsSurviveTheDataTier() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            // Without its IEND chunk: decodes with a warning (PNG §11.2.5).
            let clean = try Fixtures.bytes("png/ct6-d08-seq.png")
            let damaged = Array(clean.dropLast(12))
            harness.server.setRoute("/d.png", .fixed(.ok(damaged)))
            let request = ImageRequest(url: harness.url("/d.png"), processors: [.resize(width: 8)],
                                       options: [.waitForDiskStore])
            let first = try await harness.pipeline.load(request)
            #expect(!first.image.warnings.isEmpty)
            await harness.cache.clear(.memory)
            let disk = try await harness.pipeline.load(request)
            #expect(disk.tier == .disk)
            #expect(disk.image.warnings == first.image.warnings)
            #expect(disk.image == first.image)
        }
    }
}
