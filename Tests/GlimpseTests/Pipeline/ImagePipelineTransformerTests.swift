import Foundation
import Glimpse
import GlimpseCache
import TestSupport
import Testing

extension PipelineTests {
    /// Transformer keys separate variants in memory; every variant decodes from
    /// the one copy of the original bytes on disk.
    @Suite(.timeLimit(.minutes(1)))
    struct ImagePipelineTransformerTests {
        @Test func newVariantsReuseTheOriginalBytes() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            harness.server.setRoute("/t.png", .fixed(.ok(png)))
            let url = harness.url("/t.png")
            let original = try await harness.pipeline.load(ImageRequest(url: url, options: [.waitForDiskStore]))
            #expect(original.tier == .network)

            let resize = ImageTransformers.Resize(width: 11)
            let small = try await harness.pipeline.load(ImageRequest(url: url, processors: [resize]))
            #expect(small.tier == .disk)
            #expect(small.image.width == 11)
            #expect(small.image == (try resize.transform(original.image)))

            let memory = try await harness.pipeline.load(ImageRequest(url: url, processors: [resize]))
            #expect(memory.tier == .memory && memory.image == small.image)

            let flip = ImageTransformers.Flip(.vertical)
            let flipped = try await harness.pipeline.load(ImageRequest(url: url, processors: [flip]))
            #expect(flipped.tier == .disk)
            #expect(flipped.image.width == 33)
            #expect(flipped.image != original.image)
            #expect(try await harness.pipeline.load(url).image == original.image)

            // Composition keys differ from their parts.
            let both = ImageTransformers.Composition([resize, flip])
            #expect(both.cacheKey != resize.cacheKey && both.cacheKey != flip.cacheKey)
            #expect(try await harness.pipeline.load(ImageRequest(url: url, processors: [both])).tier == .disk)
            #expect(harness.requests("/t.png").count == 1)
        }

        /// The data tier keeps the processed image under its variant key (automatic
        /// policy), or the original, or both, as configured.
        @Test(arguments: [ImagePipeline.DataCachePolicy.automatic, .originalOnly, .both])
        func aProcessedFirstLoadStoresWhatThePolicySays(_ policy: ImagePipeline.DataCachePolicy) async throws {
            let harness = try PipelineHarness.make { $0.dataCachePolicy = policy }
            defer { harness.finish() }
            harness.server.setRoute("/f.png", .fixed(.ok(try Fixtures.bytes("png/ct6-d08-seq.png"))))
            let url = harness.url("/f.png")
            let request = ImageRequest(url: url, processors: [ImageTransformers.Resize(width: 5)], options: .waitForDiskStore)
            let thumb = try await harness.pipeline.load(request)
            #expect(thumb.tier == .network && thumb.image.width == 5)
            let key = harness.pipeline.cacheKey(for: request)
            let disk = try #require(harness.cache.disk)
            #expect(disk.contains(key.memoryKey) == (policy != .originalOnly))
            #expect(disk.contains(key.base) == (policy != .automatic))

            await harness.cache.clear(.memory)
            let again = try await harness.pipeline.load(request)
            #expect(again.tier == .disk && again.image == thumb.image)
            let full = try await harness.pipeline.load(url)
            #expect(full.tier == (policy == .automatic ? .network : .disk) && full.image.width == 33)
            #expect(harness.requests("/f.png").count == (policy == .automatic ? 2 : 1))
        }

        @Test func keysCombineTheFilterAndTheTransformer() async throws {
            // A key filter that drops the query: signed URLs share one entry.
            let harness = try PipelineHarness.make { configuration in
                configuration.cacheKeyFilter = { url in url.absoluteString.split(separator: "?").first.map(String.init) ?? "" }
            }
            defer { harness.finish() }
            harness.server.setRoute("/k.png", .fixed(.ok(try Fixtures.bytes("png/size-9x9-seq.png"))))
            let first = try await harness.pipeline.load(harness.url("/k.png?sig=1"))
            let second = try await harness.pipeline.load(harness.url("/k.png?sig=2"))
            #expect(first.tier == .network && second.tier == .memory)
            let key = ImageCacheKey(base: harness.url("/k.png").absoluteString)
            #expect(harness.cache.image(forKey: key) != nil)
        }
    }
}

extension PipelineTests.ImagePipelineTransformerTests {
    /// A 6×6 icon asked for at 256 stays 6×6 through the pipeline, whichever way the
    /// resize is spelled; enlarging is an explicit opt-in.
    @Test func smallImagesAreNeverEnlargedUnlessAsked() async throws {
        let icon = try PipelineTests.ImagePipelineProcessedEncodingTests.gradientPNG(width: 6, height: 6)
        let cache = ImageCache(memory: MemoryCache(costLimit: 1 << 20), disk: nil)
        let pipeline = ImagePipeline(configuration: ImagePipeline.Configuration(
            dataLoader: DictionaryLoader(files: ["/icon.png": icon]), cache: cache))
        let url = try #require(URL(string: "https://images.example/icon.png"))
        for resize in [ImageTransformers.Resize.resize(width: 256), ImageTransformers.Resize(width: 256),
                       ImageTransformers.Resize(width: 256, height: 256, mode: .stretch)] {
            let image = try await pipeline.image(for: ImageRequest(url: url, processors: [resize]))
            #expect((image.width, image.height) == (6, 6), "\(resize.cacheKey)")
        }
        let enlarged = try await pipeline.image(for: ImageRequest(
            url: url, processors: [ImageTransformers.Resize(width: 256, allowsUpscaling: true)]))
        #expect((enlarged.width, enlarged.height) == (256, 256))
    }
}
