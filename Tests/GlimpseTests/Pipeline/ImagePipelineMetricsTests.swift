import Foundation
@testable import Glimpse
import GlimpseCache
import LoopbackHTTPServer
import Testing

extension PipelineTests {
    /// Each load's ``ImageTask/Metrics``: which stages ran (a duration) and which did not
    /// (`nil`), the tier and the bytes, for each way a load can be answered. Durations are
    /// never compared with a time: the harness's clock stands still, so each that ran is zero.
    @Suite(.timeLimit(.minutes(1)))
    struct ImagePipelineMetricsTests {
        static func request(_ url: URL) -> ImageRequest {
            ImageRequest(url: url, processors: [.resize(width: 48)], options: .waitForDiskStore)
        }

        @Test func aNetworkLoadReportsEveryStageItRan() async throws {
            // Portrait, so that a width-only resize is not folded into the decode (DecodePlan).
            let png = try ImagePipelineProcessedEncodingTests.gradientPNG(width: 64, height: 96)
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            harness.server.setRoute("/a.png", .fixed(.ok(png)))

            let loaded = try await harness.pipeline.load(Self.request(harness.url("/a.png?sig=1")))
            let metrics = loaded.metrics
            #expect(metrics.tier == .network && loaded.tier == .network)
            #expect(metrics.bytes == png.count)
            #expect(metrics.total != nil)
            #expect(metrics.dataLookup != nil, "the data tier was read (and missed)")
            #expect(metrics.queued != nil && metrics.download != nil && metrics.decode != nil)
            #expect(metrics.process != nil, "the resize")
            #expect(metrics.encode != nil && metrics.store != nil, "the thumbnail was encoded and stored")
            #expect(metrics.description.hasPrefix("tier=network queue=0.00 disk=0.00 download=0.00 decode=0.00 "))
            #expect(metrics.description.hasSuffix(" bytes=\(png.count)"))
        }

        @Test func aResizeFoldedIntoTheDecodeReportsNoProcessStage() async throws {
            // Landscape: the width limits the long side, so the PNG is streamed into the
            // resize (DecodePlan's thumbnail method) and the decode is the resize.
            let png = try ImagePipelineProcessedEncodingTests.gradientPNG(width: 96, height: 64)
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            harness.server.setRoute("/a.png", .fixed(.ok(png)))

            let loaded = try await harness.pipeline.load(Self.request(harness.url("/a.png")))
            #expect(loaded.image.width == 48 && loaded.image.height == 32)
            #expect(loaded.metrics.decode != nil && loaded.metrics.process == nil, "\(loaded.metrics)")
            #expect(loaded.metrics.encode != nil && loaded.metrics.store != nil)
        }

        @Test func aMemoryHitReportsOnlyItsTier() async throws {
            let png = try ImagePipelineProcessedEncodingTests.gradientPNG(width: 96, height: 64)
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            harness.server.setRoute("/a.png", .fixed(.ok(png)))
            let request = Self.request(harness.url("/a.png"))
            _ = try await harness.pipeline.load(request)

            let hit = try await harness.pipeline.load(request)
            #expect(hit.tier == .memory)
            #expect(hit.metrics == ImageTask.Metrics(tier: .memory), "no download, no read, no decode: \(hit.metrics)")
            #expect(hit.metrics.description
                == "tier=memory queue=- disk=- download=- decode=- process=- encode=- store=- bytes=-")
            let byURL = try await harness.pipeline.load(harness.url("/a.png"))
            #expect(byURL.tier == .network, "the original is another variant")
            let byURLAgain = try await harness.pipeline.load(harness.url("/a.png"))
            #expect(byURLAgain.metrics == ImageTask.Metrics(tier: .memory), "the front door's fast path too")
            #expect(harness.requests("/a.png").count == 2)
        }

        @Test func aDataTierHitAfterARestartDecodesTheStoredThumbnailOnly() async throws {
            let png = try ImagePipelineProcessedEncodingTests.gradientPNG(width: 96, height: 64)
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            harness.server.setRoute("/a.png", .fixed(.ok(png)))
            let request = Self.request(harness.url("/a.png"))
            _ = try await harness.pipeline.load(request)

            // A new pipeline on the same folder, with a loader that has nothing.
            let disk = try DiskCache(configuration: DiskCache.Configuration(directory: harness.directory))
            let restarted = ImagePipeline(configuration: ImagePipeline.Configuration(
                dataLoader: DictionaryLoader(files: [:]), cache: ImageCache(memory: MemoryCache(costLimit: 16 << 20), disk: disk)))
            let stored = try #require(await restarted.cache.entry(forDataKey: restarted.cacheKey(for: request).memoryKey))
            let hit = try await restarted.load(request)
            let metrics = hit.metrics
            #expect(metrics.tier == .disk && hit.tier == .disk)
            #expect(metrics.bytes == stored.data.count, "the thumbnail's bytes, not the original's")
            #expect(metrics.dataLookup != nil && metrics.decode != nil && metrics.queued != nil)
            #expect(metrics.download == nil && metrics.process == nil && metrics.encode == nil && metrics.store == nil)
        }

        @Test func twoLoadsThatShareOneJobReportItsTimings() async throws {
            let png = try ImagePipelineProcessedEncodingTests.gradientPNG(width: 96, height: 64)
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            // Two halves 100 ms apart, so that both loads attach while the body arrives.
            let half = png.count / 2
            harness.server.setRoute("/a.png", .fixed(LoopbackHTTPServer.Response(
                headers: [("Content-Type", "image/png")],
                body: .chunked([Array(png[..<half]), Array(png[half...])], delay: .milliseconds(100)))))
            let request = Self.request(harness.url("/a.png"))
            let pipeline = harness.pipeline
            async let first = pipeline.load(request)
            async let second = pipeline.load(request)
            let results = try await [first, second]
            #expect(harness.requests("/a.png").count == 1)
            #expect(results.allSatisfy { $0.tier == .network })
            #expect(results[0].metrics == results[1].metrics, "the waiter that joined reports the shared job's")
            #expect(results[0].metrics.download != nil && results[0].metrics.decode != nil)
            #expect(results[0].metrics.bytes == png.count)
        }

        @Test func durationsComeFromThePipelinesClock() async throws {
            // A clock that moves 1 ms each time it is read: every stage that ran is at least 1 ms.
            let ticks = Lock<Int64>(0)
            // Portrait, so that the resize is a stage of its own (see above).
            let png = try ImagePipelineProcessedEncodingTests.gradientPNG(width: 64, height: 96)
            let harness = try PipelineHarness.make { configuration in
                configuration.clock = CacheClock { .milliseconds(ticks.withLock { $0 += 1; return $0 }) }
            }
            defer { harness.finish() }
            harness.server.setRoute("/a.png", .fixed(.ok(png)))
            let metrics = try await harness.pipeline.load(Self.request(harness.url("/a.png"))).metrics
            for (name, value) in [("download", metrics.download), ("decode", metrics.decode),
                                  ("process", metrics.process), ("encode", metrics.encode), ("total", metrics.total)] {
                #expect((value ?? .zero) >= .milliseconds(1), "\(name)")
            }
        }
    }
}
