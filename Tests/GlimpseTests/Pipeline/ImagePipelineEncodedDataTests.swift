import Foundation
@testable import Glimpse
import GlimpseCache
import LoopbackHTTPServer
import Testing

extension PipelineTests {
    /// ``ImagePipeline/data(for:format:)``: the bytes a handler sends, encoded once and then
    /// served from the data tier without a decode or an encode (shown by the call's metrics
    /// and the decode unit's count, never by time).
    @Suite(.timeLimit(.minutes(1)))
    struct ImagePipelineEncodedDataTests {
        static func request(_ url: URL) -> ImageRequest {
            ImageRequest(url: url, processors: [.resize(width: 48)], options: .waitForDiskStore)
        }

        static func harness() throws -> (PipelineHarness, URL, [UInt8]) {
            let png = try ImagePipelineProcessedEncodingTests.gradientPNG(width: 96, height: 64)
            let harness = try PipelineHarness.make()
            harness.server.setRoute("/a.png", .fixed(.ok(png)))
            return (harness, harness.url("/a.png"), png)
        }

        @Test func theFirstCallLoadsAndEncodesTheSecondIsADataTierHit() async throws {
            let (harness, url, png) = try Self.harness()
            defer { harness.finish() }
            let pipeline = harness.pipeline

            let first = try await pipeline.data(for: Self.request(url), format: nil)
            #expect(first.format == .jpeg && first.contentType == "image/jpeg", "opaque: the processed-format rule's JPEG")
            #expect(first.width == 48 && first.height == 32 && first.sourceFormat == .png)
            #expect(first.metrics.tier == .network && first.metrics.bytes == png.count)
            #expect(first.metrics.download != nil && first.metrics.decode != nil && first.metrics.encode != nil)
            #expect(Array(first.bytes.prefix(3)) == [0xFF, 0xD8, 0xFF])

            let decodes = pipeline.decodesStarted.load(ordering: .relaxed)
            let second = try await pipeline.data(for: Self.request(url), format: nil)
            #expect(second.bytes == first.bytes)
            #expect(second.metrics.tier == .disk && second.metrics.dataLookup != nil)
            #expect(second.metrics.decode == nil && second.metrics.encode == nil && second.metrics.download == nil,
                    "\(second.metrics)")
            #expect(second.metrics.bytes == first.bytes.count)
            #expect(second.width == 48 && second.height == 32 && second.sourceFormat == .png)
            #expect(pipeline.decodesStarted.load(ordering: .relaxed) == decodes)
            #expect(harness.requests("/a.png").count == 1)
        }

        @Test(arguments: [(ImageFormat.jpeg, "image/jpeg"), (.png, "image/png"), (.webp, "image/webp"), (.gif, "image/gif")])
        func eachFormatDecodesBackToTheThumbnail(format: ImageFormat, contentType: String) async throws {
            let (harness, url, _) = try Self.harness()
            defer { harness.finish() }
            let pipeline = harness.pipeline

            let encoded = try await pipeline.data(for: Self.request(url), format: format)
            #expect(encoded.format == format && encoded.contentType == contentType)
            let decoded = try DecoderRegistry.standard.decode(encoded.bytes)
            #expect(decoded.format == format)
            #expect(decoded.width == 48 && decoded.height == 32)
            #expect(encoded.width == 48 && encoded.height == 32)

            // Stored beside the variant: a new pipeline on the same folder reads it back as it is.
            let disk = try DiskCache(configuration: DiskCache.Configuration(directory: harness.directory))
            let restarted = ImagePipeline(configuration: ImagePipeline.Configuration(
                dataLoader: DictionaryLoader(files: [:]), cache: ImageCache(memory: MemoryCache(costLimit: 16 << 20), disk: disk)))
            let again = try await restarted.data(for: Self.request(url), format: format)
            #expect(again.bytes == encoded.bytes && again.contentType == contentType)
            #expect(again.metrics.tier == .disk && again.metrics.decode == nil && again.metrics.encode == nil)
            #expect(restarted.decodesStarted.load(ordering: .relaxed) == 0)
        }

        @Test func aStoredVariantInTheAskedFormatIsServedAsItIs() async throws {
            let (harness, url, _) = try Self.harness()
            defer { harness.finish() }
            // A load stores the thumbnail as JPEG (opaque); data(for:format: .jpeg) then needs no encode.
            _ = try await harness.pipeline.load(Self.request(url))
            let stored = try #require(await harness.cache.entry(
                forDataKey: harness.pipeline.cacheKey(for: Self.request(url)).memoryKey))
            let encoded = try await harness.pipeline.data(for: Self.request(url), format: .jpeg)
            #expect(encoded.bytes == stored.data)
            #expect(encoded.metrics.tier == .disk && encoded.metrics.encode == nil && encoded.metrics.decode == nil)
        }

        @Test func concurrentCallsForOneVariantAndFormatShareOneEncode() async throws {
            let png = try ImagePipelineProcessedEncodingTests.gradientPNG(width: 96, height: 64)
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            let half = png.count / 2
            harness.server.setRoute("/a.png", .fixed(LoopbackHTTPServer.Response(
                headers: [("Content-Type", "image/png")],
                body: .chunked([Array(png[..<half]), Array(png[half...])], delay: .milliseconds(100)))))
            let request = Self.request(harness.url("/a.png"))
            let pipeline = harness.pipeline
            async let first = pipeline.data(for: request, format: .webp)
            async let second = pipeline.data(for: request, format: .webp)
            let results = try await [first, second]
            #expect(results[0].bytes == results[1].bytes)
            #expect(results[0].metrics == results[1].metrics, "one call's work, reported to both")
            #expect(results[0].metrics.encode != nil)
            #expect(harness.requests("/a.png").count == 1)
            #expect(pipeline.decodesStarted.load(ordering: .relaxed) == 1)
        }

        @Test func aFormatWithoutAnEncoderFailsAsAnEncodingError() async throws {
            let (harness, url, _) = try Self.harness()
            defer { harness.finish() }
            await #expect(throws: ImageLoadError.encoding(.unsupportedFormat(.avif))) {
                _ = try await harness.pipeline.data(for: Self.request(url), format: .avif)
            }
        }

        @Test func removingTheKeyRemovesItsEncodings() async throws {
            let (harness, url, _) = try Self.harness()
            defer { harness.finish() }
            let request = Self.request(url)
            _ = try await harness.pipeline.data(for: request, format: .webp)
            let key = harness.pipeline.cacheKey(for: request)
            #expect(await harness.cache.entry(forDataKey: key.encodingKey(.webp)) != nil)
            await harness.cache.remove(key)
            #expect(await harness.cache.entry(forDataKey: key.encodingKey(.webp)) == nil)
            let again = try await harness.pipeline.data(for: request, format: .webp)
            #expect(again.metrics.encode != nil, "encoded again")
        }

        @Test func webPIsChosenWhenTheClientAcceptsIt() {
            let chrome = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"
            #expect(ImagePipeline.preferredFormat(accepting: chrome) == .webp)
            #expect(ImagePipeline.preferredFormat(accepting: "image/WebP;q=0.5", fallback: .jpeg) == .webp)
            #expect(ImagePipeline.preferredFormat(accepting: "image/webp;q=0", fallback: .jpeg) == .jpeg)
            #expect(ImagePipeline.preferredFormat(accepting: "image/png,image/*;q=0.8") == nil)
            #expect(ImagePipeline.preferredFormat(accepting: nil, fallback: .png) == .png)
        }
    }
}
