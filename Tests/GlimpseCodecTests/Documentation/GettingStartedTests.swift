import GlimpseCodec
import Testing

/// The code of `GlimpseCodec.docc/GettingStarted.md`, word for word inside these
/// functions: CI compiles and runs it, so the article cannot drift from the API.
@Suite("Documentation: GlimpseCodec getting started")
struct CodecGettingStartedTests {
    // MARK: - Article code

    /// "Decode a file"
    static func describe(_ bytes: [UInt8]) throws(ImageDecodingError) -> String {
        let image = try DecoderRegistry.standard.decode(bytes)
        // Every format decodes to straight-alpha RGBA, 8 bits a sample by default.
        let pixel = image.pixels.pixel(x: 0, y: 0)
        return "\(image.format) \(image.width)×\(image.height), \(image.frames.count) frame(s), first pixel \(pixel)"
    }

    /// "Decode as the bytes arrive"
    static func decodeProgressively(_ pieces: [[UInt8]]) throws(ImageDecodingError) -> (previews: Int, image: Image) {
        var decoder = AutoDecoder()
        var previews = 0
        for piece in pieces {
            if try decoder.append(piece) == .complete { break }
            if decoder.partialImage() != nil { previews += 1 }
        }
        return (previews, try decoder.finish())
    }

    /// "Untrusted input"
    static func decodeUntrusted(_ bytes: [UInt8]) -> Image? {
        var options = DecodingOptions()
        options.limits.maxPixelsPerFrame = 40_000_000
        options.firstFrameOnly = true
        do {
            return try DecoderRegistry.standard.decode(bytes, options: options)
        } catch .limitExceeded(let limit) {
            print("too large: \(limit)")
            return nil
        } catch {
            print("not an image: \(error)")
            return nil
        }
    }

    /// "Make a thumbnail and encode it"
    static func thumbnail(of bytes: [UInt8]) throws -> [UInt8] {
        let image = try DecoderRegistry.standard.decode(bytes)
        // Upright (EXIF orientation applied) and never enlarged.
        let small = try ImageTransformers.Resize(width: 256).transform(image)
        return try small.encoded(as: .jpeg, options: EncodingOptions(quality: 80))
    }

    /// `Transformers.md`: a composed thumbnail transformer and its cache key.
    static func roundedThumbnail(of image: Image) throws -> (small: Image, key: String) {
        let thumbnail = ImageTransformers.Composition(
            ImageTransformers.AutoOrient(),
            ImageTransformers.Resize(width: 256, height: 256, mode: .fill),
            ImageTransformers.RoundedCorners(radius: 12))
        let small = try thumbnail.transform(image)   // every frame of an animation
        let key = thumbnail.cacheKey                 // "orient|resize(256x256,fill,…)|corners(12.0)"
        return (small, key)
    }

    // MARK: - Checks

    /// A 300×200 gradient as PNG bytes.
    static let png: [UInt8] = {
        var pixels = PixelBuffer(width: 300, height: 200)
        for y in 0..<200 {
            for x in 0..<300 {
                let offset = (y * 300 + x) * 4
                pixels.bytes[offset] = UInt8(x * 255 / 299)
                pixels.bytes[offset + 1] = UInt8(y * 255 / 199)
                pixels.bytes[offset + 2] = 90
                pixels.bytes[offset + 3] = 255
            }
        }
        return (try? Image(pixels: pixels, format: .png).encoded(as: .png)) ?? []
    }()

    @Test func theArticleCodeRuns() throws {
        #expect(try Self.describe(Self.png).hasPrefix("png 300×200, 1 frame(s)"))
        let pieces = stride(from: 0, to: Self.png.count, by: 4096).map { Array(Self.png[$0..<min(Self.png.count, $0 + 4096)]) }
        let progressive = try Self.decodeProgressively(pieces)
        #expect(progressive.image == (try DecoderRegistry.standard.decode(Self.png)))
        #expect(Self.decodeUntrusted(Self.png)?.width == 300)
        #expect(Self.decodeUntrusted([0x89, 0x50, 0x4E, 0x47]) == nil)
        let jpeg = try Self.thumbnail(of: Self.png)
        let decoded = try DecoderRegistry.standard.decode(jpeg)
        #expect(decoded.format == .jpeg && decoded.width == 256 && decoded.height == 171)
        let rounded = try Self.roundedThumbnail(of: try DecoderRegistry.standard.decode(Self.png))
        #expect(rounded.small.width == rounded.small.height, "filled to the square box (never enlarged: 200×200)")
        #expect(rounded.small.pixels.pixel(x: 0, y: 0).w == 0, "the corner is cut away")
        #expect(rounded.key.hasPrefix("orient|resize(256x256,fill"))
    }
}
