@testable import GlimpseCodec
import Testing

@Suite("Encoder registry")
struct EncoderRegistryTests {
    static func gradient(width: Int = 13, height: Int = 7, alpha: UInt8 = 255) -> Image {
        var pixels = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let offset = (y * width + x) * 4
                pixels.bytes[offset] = UInt8(x * 255 / width)
                pixels.bytes[offset + 1] = UInt8(y * 255 / height)
                pixels.bytes[offset + 2] = UInt8((x + y) % 256)
                pixels.bytes[offset + 3] = alpha
            }
        }
        return Image(pixels: pixels, format: .png)
    }

    @Test("standard registry writes PNG, APNG and GIF that decode back")
    func standardFormats() throws {
        let image = Self.gradient()
        let registry = EncoderRegistry.standard
        for format in [ImageFormat.png, .apng, .gif] {
            let bytes = try registry.encode(image, as: format)
            let decoded = try DecoderRegistry.standard.decode(bytes)
            #expect(decoded.width == image.width && decoded.height == image.height, "\(format)")
            if format != .gif { #expect(decoded.pixels == image.pixels, "\(format)") }
        }
    }

    @Test("a format without an encoder is a typed error")
    func unsupported() {
        #expect(throws: ImageEncodingError.unsupportedFormat(.tiff)) {
            try EncoderRegistry.standard.encode(Self.gradient(), as: .tiff)
        }
        var registry = EncoderRegistry.standard
        registry.unregister(.png)
        #expect(!registry.encodableFormats.contains(.png))
        #expect(throws: ImageEncodingError.unsupportedFormat(.png)) {
            try Self.gradient().encoded(as: .png, registry: registry)
        }
    }

    @Test("encoder failures arrive as ImageEncodingError")
    func failures() {
        let empty = Image(pixels: PixelBuffer(width: 0, height: 0), format: .png)
        #expect(throws: ImageEncodingError.self) { try empty.encoded(as: .png) }
        #expect(throws: ImageEncodingError.self) { try empty.encoded(as: .gif) }
        let options = EncodingOptions(png: PNG.Encoder.Options(colorMode: .grayscale))
        #expect(throws: ImageEncodingError.layoutLosesInformation) { try Self.gradient().encoded(as: .png, options: options) }
    }

    @Test("metadata policy none drops PNG metadata chunks")
    func metadataPolicy() throws {
        var image = Self.gradient()
        image.metadata.iccProfile = [UInt8](repeating: 7, count: 40)
        let kept = try DecoderRegistry.standard.decode(image.encoded(as: .png))
        #expect(kept.metadata.iccProfile == image.metadata.iccProfile)
        let dropped = try DecoderRegistry.standard.decode(image.encoded(as: .png, options: EncodingOptions(metadata: .none)))
        #expect(dropped.metadata.iccProfile == nil)
    }
}
