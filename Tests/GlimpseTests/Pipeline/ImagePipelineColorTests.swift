import Foundation
import Glimpse
import GlimpseCodec
import Testing
import TestSupport

extension PipelineTests {
    /// The pipeline's colour policy: processed images converted to sRGB and stripped of their
    /// profile by default (what image proxies do), originals as stored, and `preserve` on request.
    @Suite(.timeLimit(.minutes(1)))
    struct ImagePipelineColorTests {
        /// A 96×64 gradient tagged with an Adobe RGB (1998)-like profile, as a PNG.
        static func taggedPNG() throws -> (png: [UInt8], profile: [UInt8]) {
            var bytes = [UInt8](repeating: 255, count: 96 * 64 * 4)
            for y in 0..<64 {
                for x in 0..<96 {
                    let offset = (y * 96 + x) * 4
                    bytes[offset] = UInt8(x * 255 / 95)
                    bytes[offset + 1] = UInt8(y * 255 / 63)
                    bytes[offset + 2] = 40
                }
            }
            let pixels = try #require(PixelBuffer(width: 96, height: 64, bytes: bytes))
            var metadata = ImageMetadata()
            let profile = ICCProfileBuilder.adobeRGB.build()
            metadata.iccProfile = profile
            return (try PNG.Encoder().encode(pixels, metadata: metadata), profile)
        }

        @Test(arguments: [
            // A square box: the PNG's rows stream into the resize (ThumbnailDecoder).
            ImageTransformers.Resize(width: 32, height: 32, mode: .fit),
            // Any other resize: decoded whole, then resized.
            ImageTransformers.Resize(width: 40, height: 20, mode: .fill),
        ])
        func aProcessedImageIsConvertedToSRGBAndLosesItsProfile(_ resize: ImageTransformers.Resize) async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            let (png, _) = try Self.taggedPNG()
            harness.server.setRoute("/tagged.png", .fixed(.ok(png)))
            let result = try await harness.pipeline.load(ImageRequest(url: harness.url("/tagged.png"), processors: [resize]))
            #expect(result.image.metadata.iccProfile == nil)

            // What the codecs make of the same bytes with the same resize and policy: the square
            // box through ThumbnailDecoder (which converts the thumbnail, after its resize), any
            // other resize on the whole image decoded and converted.
            var options = DecodingOptions()
            options.colorPolicy = .convertToSRGB
            let expected = resize.mode == .fit && resize.width == resize.height
                ? try ThumbnailDecoder.decode(png, maxPixelSize: resize.width ?? 0, options: options)
                : try resize.transform(try DecoderRegistry.standard.decode(png, options: options))
            #expect(result.image.pixels == expected.pixels)
            let asStored = try resize.transform(try DecoderRegistry.standard.decode(png))
            #expect(result.image.pixels != asStored.pixels, "the conversion changed the pixels")
        }

        @Test func anImageLoadedWithoutProcessorsKeepsItsPixelsAndProfile() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            let (png, profile) = try Self.taggedPNG()
            harness.server.setRoute("/tagged.png", .fixed(.ok(png)))
            let result = try await harness.pipeline.load(harness.url("/tagged.png"))
            #expect(result.image.metadata.iccProfile == profile)
            #expect(result.image.pixels == (try DecoderRegistry.standard.decode(png)).pixels)
        }

        @Test func preserveKeepsTheProfileOfProcessedImagesUnderAKeyOfItsOwn() async throws {
            let harness = try PipelineHarness.make { $0.colorPolicy = .preserve }
            defer { harness.finish() }
            let (png, profile) = try Self.taggedPNG()
            harness.server.setRoute("/tagged.png", .fixed(.ok(png)))
            let request = ImageRequest(url: harness.url("/tagged.png"), processors: [.resize(width: 32)])
            let result = try await harness.pipeline.load(request)
            #expect(result.image.metadata.iccProfile == profile)
            #expect(harness.pipeline.cacheKey(for: request).variant.hasSuffix("|color=preserve"))

            let converting = try PipelineHarness.make()
            defer { converting.finish() }
            #expect(!converting.pipeline.cacheKey(for: request).variant.contains("color="),
                    "the default adds nothing, so keys made before the policy stay valid")
            #expect(!harness.pipeline.cacheKey(for: ImageRequest(url: request.url!)).variant.contains("color="),
                    "an original is decoded as stored whatever the policy")
        }

        @Test func convertToAProfileCarriesItUnderAKeyNamingTheProfile() async throws {
            // ProPhoto RGB's D50 colorants with γ 1.8.
            let proPhoto = ICCProfileBuilder.matrixShaper(red: (0.7977, 0.2880, 0.0), green: (0.1352, 0.7119, 0.0),
                                                          blue: (0.0313, 0.0001, 0.8249), curve: ICCProfileBuilder.curv([461])).build()
            let destination = try ICC.Profile(parsing: proPhoto)
            let harness = try PipelineHarness.make { $0.colorPolicy = .convert(to: destination) }
            defer { harness.finish() }
            let (png, _) = try Self.taggedPNG()
            harness.server.setRoute("/tagged.png", .fixed(.ok(png)))
            let resize = ImageTransformers.Resize(width: 40, height: 20, mode: .fill)
            let request = ImageRequest(url: harness.url("/tagged.png"), processors: [resize])
            let result = try await harness.pipeline.load(request)
            #expect(result.image.metadata.iccProfile == proPhoto)
            var options = DecodingOptions()
            options.colorPolicy = .convert(to: destination)
            #expect(result.image.pixels == (try resize.transform(try DecoderRegistry.standard.decode(png, options: options))).pixels)
            let variant = harness.pipeline.cacheKey(for: request).variant
            #expect(variant.contains("|color=icc-") && variant.hasSuffix("-0"), "\(variant)")
            let relative = try PipelineHarness.make { $0.colorPolicy = .convert(to: destination, intent: .relativeColorimetric) }
            defer { relative.finish() }
            #expect(relative.pipeline.cacheKey(for: request).variant != variant, "the intent is part of the key")
        }
    }
}
