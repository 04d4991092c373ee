import Foundation
import Glimpse
import TestSupport
import Testing

extension PipelineTests {
    /// Transformer keys separate variants in memory; every variant decodes from
    /// the one copy of the original bytes on disk.
    @Suite(.timeLimit(.minutes(1)))
    struct ImageManagerTransformerTests {
        @Test func newVariantsReuseTheOriginalBytes() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            harness.server.setRoute("/t.png", .fixed(.ok(png)))
            let url = harness.url("/t.png")
            let original = try await harness.manager.load(url, options: ImageManager.Options(waitForDiskStore: true))
            #expect(original.tier == .network)

            let resize = ImageTransformers.Resize(width: 11)
            let small = try await harness.manager.load(url, options: ImageManager.Options(transformer: resize))
            #expect(small.tier == .disk)
            #expect(small.image.width == 11)
            #expect(small.image == (try resize.transform(original.image)))

            let memory = try await harness.manager.load(url, options: ImageManager.Options(transformer: resize))
            #expect(memory.tier == .memory && memory.image == small.image)

            let flip = ImageTransformers.Flip(.vertical)
            let flipped = try await harness.manager.load(url, options: ImageManager.Options(transformer: flip))
            #expect(flipped.tier == .disk)
            #expect(flipped.image.width == 33)
            #expect(flipped.image != original.image)
            #expect(try await harness.manager.load(url).image == original.image)

            // Composition keys differ from their parts.
            let both = ImageTransformers.Composition([resize, flip])
            #expect(both.cacheKey != resize.cacheKey && both.cacheKey != flip.cacheKey)
            #expect(try await harness.manager.load(url, options: ImageManager.Options(transformer: both)).tier == .disk)
            #expect(harness.requests("/t.png").count == 1)
        }

        @Test func aTransformedFirstLoadStoresTheOriginalBytes() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            harness.server.setRoute("/f.png", .fixed(.ok(try Fixtures.bytes("png/ct6-d08-seq.png"))))
            let url = harness.url("/f.png")
            let thumb = try await harness.manager.load(url, options: ImageManager.Options(
                waitForDiskStore: true, transformer: ImageTransformers.Resize(width: 5)))
            #expect(thumb.tier == .network && thumb.image.width == 5)
            let full = try await harness.manager.load(url)
            #expect(full.tier == .disk && full.image.width == 33)
            #expect(harness.requests("/f.png").count == 1)
        }

        @Test func keysCombineTheFilterAndTheTransformer() async throws {
            // A key filter that drops the query: signed URLs share one entry.
            let harness = try PipelineHarness.make { configuration in
                configuration.cacheKeyFilter = { url in url.absoluteString.split(separator: "?").first.map(String.init) ?? "" }
            }
            defer { harness.finish() }
            harness.server.setRoute("/k.png", .fixed(.ok(try Fixtures.bytes("png/size-9x9-seq.png"))))
            let first = try await harness.manager.load(harness.url("/k.png?sig=1"))
            let second = try await harness.manager.load(harness.url("/k.png?sig=2"))
            #expect(first.tier == .network && second.tier == .memory)
            let key = ImageCacheKey(base: harness.url("/k.png").absoluteString)
            #expect(harness.cache.image(forKey: key) != nil)
        }
    }
}
