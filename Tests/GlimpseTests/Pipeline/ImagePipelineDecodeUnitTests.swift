import Foundation
@testable import Glimpse
import GlimpseCache
import LoopbackHTTPServer
import Synchronization
import TestSupport
import Testing

extension PipelineTests {
    /// The decode unit: thumbnails decode the original reduced, and sizes that can share a
    /// reduced decode share it (with one download and one data-tier read before it).
    @Suite(.timeLimit(.minutes(1)))
    struct ImagePipelineDecodeUnitTests {
        /// A data tier that takes 100 ms per read and counts the reads of each key, so that
        /// concurrent loads overlap on it.
        final class SlowDataTier: ImageDataCaching {
            let inner = DictionaryDataTier()
            let reads = Lock<[String: Int]>([:])

            func entry(forKey key: String) async -> ImageDataEntry? {
                reads.withLock { $0[key, default: 0] += 1 }
                try? await Task.sleep(for: .milliseconds(100))
                return await inner.entry(forKey: key)
            }
            func containsEntry(forKey key: String) async -> Bool { await inner.containsEntry(forKey: key) }
            func store(_ entries: [ImageDataEntry]) async { await inner.store(entries) }
            func removeEntry(forKey key: String) async { await inner.removeEntry(forKey: key) }
            func removeAllEntries() async { await inner.removeAllEntries() }
            var entryCount: Int { inner.entryCount }
            var totalSize: Int { inner.totalSize }
        }

        @Test func twoSizesOfOneURLShareOneDownloadOneReadAndOneDecode() async throws {
            let jpeg = ImagePipelineExecutorTests.largeJPEG
            try #require(!jpeg.isEmpty)
            let tier = SlowDataTier()
            let harness = try PipelineHarness.make { configuration in
                configuration.cache = ImageCache(memory: MemoryCache(costLimit: 64 << 20), data: tier)
                configuration.dataCachePolicy = .both
            }
            defer { harness.finish() }
            // Two halves 100 ms apart, so that both loads attach while the body arrives.
            let half = jpeg.count / 2
            harness.server.setRoute("/photo.jpg", .fixed(LoopbackHTTPServer.Response(
                headers: [("Content-Type", "image/jpeg")],
                body: .chunked([Array(jpeg[..<half]), Array(jpeg[half...])], delay: .milliseconds(100)))))
            let url = harness.url("/photo.jpg")
            let pipeline = harness.pipeline

            // 640×480 into 40 and 56 pixels wide: both covered by the 1/8 scale (80×60).
            func load(_ widths: [Int]) async throws -> [Image] {
                try await withThrowingTaskGroup(of: Image.self) { group in
                    for width in widths {
                        group.addTask {
                            try await pipeline.image(for: ImageRequest(url: url, processors: [.resize(width: width)],
                                                                       options: .waitForDiskStore))
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            let fromNetwork = try await load([40, 56])
            #expect(Set(fromNetwork.map(\.width)) == [40, 56])
            #expect(Set(fromNetwork.map(\.height)) == [30, 42])
            #expect(harness.requests("/photo.jpg").count == 1)
            #expect(pipeline.decodesStarted.load(ordering: .relaxed) == 1)

            // From the data tier: two new sizes read the original once and decode it once.
            await harness.cache.clear(.memory)
            let readsBefore = tier.reads.withLock { $0[url.absoluteString, default: 0] }
            let fromDisk = try await load([44, 52])
            #expect(Set(fromDisk.map(\.width)) == [44, 52])
            #expect(harness.requests("/photo.jpg").count == 1)
            #expect(tier.reads.withLock { $0[url.absoluteString, default: 0] } == readsBefore + 1)
            #expect(pipeline.decodesStarted.load(ordering: .relaxed) == 2)
        }

        @Test func aFittingResizeDecodesTheJPEGReduced() throws {
            let resize = ImageTransformers.Resize(width: 256, height: 256, mode: .fit)
            // 5120×2880 into 256: 1/8 (640×360) still covers it either way up.
            #expect(ImagePipeline.DecodePlan.jpegDenominator(resize, width: 5120, height: 2880) == 8)
            // 1024 wide into 256: 1/4; turned, 768 into 256 needs 1/2.
            #expect(ImagePipeline.DecodePlan.jpegDenominator(ImageTransformers.Resize(width: 256),
                                                             width: 1024, height: 768) == 2)
            // Nothing to gain: already small, or enlarging.
            #expect(ImagePipeline.DecodePlan.jpegDenominator(resize, width: 300, height: 200) == nil)
        }

        /// `.resize(width:)` of a landscape PNG streams its rows into the resize (a square box
        /// on the long side scales by the same factor) and gives exactly the full decode's
        /// result; a portrait PNG, whose width is its short side, is decoded whole.
        @Test func aWidthOnlyResizeOfALandscapePNGStreamsAndMatchesTheFullDecode() throws {
            let landscape = try Fixtures.bytes("png/ct6-d08-seq.png")   // 33×7
            let resize = ImageTransformers.Resize(width: 16)
            #expect(ImagePipeline.DecodePlan.squareBox(resize, width: 33, height: 7, landscape) == 16)
            #expect(ImagePipeline.DecodePlan.squareBox(resize, width: 7, height: 33, landscape) == nil)
            #expect(ImagePipeline.DecodePlan.squareBox(ImageTransformers.Resize(height: 5), width: 7, height: 33, landscape) == 5)
            #expect(ImagePipeline.DecodePlan.squareBox(ImageTransformers.Resize(width: 16, height: 100), width: 33, height: 7,
                                                       landscape) == 16)
            #expect(ImagePipeline.DecodePlan.squareBox(ImageTransformers.Resize(width: 100, height: 4), width: 33, height: 7,
                                                       landscape) == nil, "the height limits, and it is the short side")
            let streamed = try ThumbnailDecoder.decode(landscape, maxPixelSize: 16)
            let whole = try resize.transform(try DecoderRegistry.standard.decode(landscape))
            #expect(streamed.width == whole.width && streamed.height == whole.height)
            #expect(streamed.pixels.bytes == whole.pixels.bytes)
        }

        @Test func thePNGChunkWalkFindsAnimations() throws {
            let still = try Fixtures.bytes("png/ct6-d08-seq.png")
            #expect(!PNGChunks.isAnimated(still))
            #expect(!PNGChunks.isAnimated(Array(still.prefix(20))), "a truncated file is not called animated")
            // An acTL chunk before IDAT (APNG §4.1), spliced in after IHDR.
            var animated = Array(still.prefix(33))
            animated += [0, 0, 0, 8, 0x61, 0x63, 0x54, 0x4C, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]
            animated += still.dropFirst(33)
            #expect(PNGChunks.isAnimated(animated))
        }
    }
}
