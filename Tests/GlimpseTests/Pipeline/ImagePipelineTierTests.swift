import Foundation
import Glimpse
import LoopbackHTTPServer
import TestSupport
import Testing

extension PipelineTests {
    /// Loads end to end against a loopback server: which tier answers, and how
    /// many requests the server sees at each stage.
    @Suite(.timeLimit(.minutes(1)))
    struct ImagePipelineTierTests {
        @Test func eachTierAnswersInTurnWithOneRequestPerNetworkStage() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            harness.server.setRoute("/a.png", .fixed(.ok(png)))
            let url = harness.url("/a.png")
            let request = ImageRequest(url: url, options: .waitForDiskStore)

            let cold = try await harness.pipeline.load(request)
            #expect(cold.tier == .network)
            #expect(cold.image.width == 33 && cold.image.height == 7)
            #expect(cold.data == png)
            #expect(cold.response?.statusCode == 200)
            #expect(harness.requests("/a.png").count == 1)

            let warm = try await harness.pipeline.load(request)
            #expect(warm.tier == .memory)
            #expect(warm.image == cold.image)
            #expect(harness.requests("/a.png").count == 1)

            await harness.cache.clear(.memory)
            let fromDisk = try await harness.pipeline.load(request)
            #expect(fromDisk.tier == .disk)
            #expect(fromDisk.image == cold.image)
            #expect(fromDisk.data == png)
            #expect(fromDisk.cacheMetadata?.originalURL == url.absoluteString)
            #expect(harness.requests("/a.png").count == 1)
            #expect(try await harness.pipeline.load(request).tier == .memory)

            await harness.cache.clear(.all)
            let again = try await harness.pipeline.load(request)
            #expect(again.tier == .network)
            #expect(harness.requests("/a.png").count == 2)
        }

        /// By default a load returns after the memory store and the disk write follows in
        /// the background; it still happens, and a later load can rely on it once drained.
        @Test func defaultLoadsWriteTheDiskInTheBackground() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            let paths = (0..<6).map { "/background-\($0).png" }
            for path in paths { harness.server.setRoute(path, .fixed(.ok(png))) }
            for path in paths {
                #expect(try await harness.pipeline.load(harness.url(path)).tier == .network)
            }
            await harness.cache.pendingWritesFinished()
            #expect(harness.cache.pendingWriteCount == 0 && harness.cache.pendingWriteBytes == 0)
            for path in paths {
                let stored = harness.cache.disk?.entry(forKey: harness.url(path).absoluteString)
                #expect(stored?.data == Data(png), "\(path)")
                #expect(stored?.metadata.originalURL == harness.url(path).absoluteString)
            }
            await harness.cache.clear(.memory)
            for path in paths {
                #expect(try await harness.pipeline.load(harness.url(path)).tier == .disk)
                #expect(harness.requests(path).count == 1)
            }
        }

        @Test func concurrentLoadsShareOneRequest() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            // Slow enough that every caller joins while the transfer runs.
            harness.server.setRoute("/slow.png", .fixed(LoopbackHTTPServer.Response(
                status: 200, headers: [("Content-Type", "image/png")],
                body: .drip(png, chunkSize: 64, interval: .milliseconds(20)))))
            let url = harness.url("/slow.png")
            let manager = harness.pipeline
            let results = try await withThrowingTaskGroup(of: ImageResult.self) { group in
                for _ in 0..<8 { group.addTask { try await manager.load(url) } }
                var results: [ImageResult] = []
                for try await result in group { results.append(result) }
                return results
            }
            #expect(results.count == 8)
            #expect(Set(results.map(\.image)).count == 1)
            #expect(harness.requests("/slow.png").count == 1)
        }

        @Test func memoryCacheOnlyLeavesTheDiskAlone() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            harness.server.setRoute("/m.png", .fixed(.ok(try Fixtures.bytes("png/size-9x9-seq.png"))))
            let request = ImageRequest(url: harness.url("/m.png"), options: [.memoryCacheOnly, .waitForDiskStore])
            #expect(try await harness.pipeline.load(request).tier == .network)
            #expect(harness.cache.disk?.count == 0)
            await harness.cache.clear(.memory)
            #expect(try await harness.pipeline.load(request).tier == .network)
            #expect(harness.requests("/m.png").count == 2)
        }

        @Test func fromCacheOnlyNeverDownloadsAndHooksCanRefuse() async throws {
            let refused = try PipelineHarness.make { $0.hooks.shouldDownload = { !$0.path.hasSuffix("no.png") } }
            defer { refused.finish() }
            refused.server.setRoute("/no.png", .fixed(.ok(try Fixtures.bytes("png/size-9x9-seq.png"))))
            await #expect(throws: ImageLoadError.notCached) {
                try await refused.pipeline.load(ImageRequest(url: refused.url("/no.png"), options: [.fromCacheOnly]))
            }
            await #expect(throws: ImageLoadError.downloadRefused) {
                try await refused.pipeline.load(refused.url("/no.png"))
            }
            #expect(refused.server.requests.isEmpty)
        }

        @Test func downloadedImageHookRunsBeforeCaching() async throws {
            let harness = try PipelineHarness.make {
                $0.hooks.transformDownloadedImage = { image, _ in
                    (try? ImageTransformers.Flip(.horizontal).transform(image)) ?? image
                }
            }
            defer { harness.finish() }
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            harness.server.setRoute("/h.png", .fixed(.ok(png)))
            let loaded = try await harness.pipeline.load(harness.url("/h.png"))
            let flipped = try ImageTransformers.Flip(.horizontal).transform(DecoderRegistry.standard.decode(png))
            #expect(loaded.image.pixels == flipped.pixels)
            #expect(try await harness.pipeline.load(harness.url("/h.png")).image.pixels == flipped.pixels)
        }

        @Test func scaleDownUsesJPEGDCTScalingAndResizesOtherFormats() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            harness.server.setRoute("/p.jpg", .fixed(.ok(try Fixtures.bytes("jpeg/pillow-420.jpg"), contentType: "image/jpeg")))
            harness.server.setRoute("/p.png", .fixed(.ok(try Fixtures.bytes("png/ct6-d08-seq.png"))))
            // 40×30 JPEG at a quarter of its pixel bytes: exactly the 1/2 DCT scale.
            let jpeg = try await harness.pipeline.load(ImageRequest(url: harness.url("/p.jpg"), maximumPixelBytes: 40 * 30))
            #expect(jpeg.image.width == 20 && jpeg.image.height == 15)
            let png = try await harness.pipeline.load(ImageRequest(url: harness.url("/p.png"), maximumPixelBytes: 33 * 7))
            #expect(png.image.pixels.bytes.count <= 33 * 7)
            #expect(png.image.width >= 1 && png.image.width < 33)
            // The full-size variant is another cache entry.
            let full = try await harness.pipeline.load(harness.url("/p.jpg"))
            #expect(full.image.width == 40)
        }

        @Test func firstFrameOnlyIsItsOwnVariantOfOneDownload() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            harness.server.setRoute("/anim.gif", .fixed(.ok(try Fixtures.bytes("gif/loop-forever.gif"), contentType: "image/gif")))
            let url = harness.url("/anim.gif")
            let all = try await harness.pipeline.load(ImageRequest(url: url, options: [.waitForDiskStore]))
            #expect(all.tier == .network && all.image.frames.count == 2)
            let first = try await harness.pipeline.load(ImageRequest(url: url, options: [.firstFrameOnly]))
            #expect(first.tier == .disk && first.image.frames.count == 1)
            #expect(first.image.pixels == all.image.pixels)
            #expect(try await harness.pipeline.load(ImageRequest(url: url, options: [.firstFrameOnly])).tier == .memory)
            #expect(harness.requests("/anim.gif").count == 1)
        }
    }
}
