@testable import GlimpseCodec
import Testing
import TestSupport

/// ``EncodingOptions/colorPolicy``: the profile written follows the policy, and the pixels
/// are converted first when it converts.
@Suite("EncodingOptions.colorPolicy")
struct EncodingColorPolicyTests {
    static let adobe = ICCProfileBuilder.adobeRGB.build()
    static let proPhoto = ColorPolicyConvertTests.proPhoto

    static func tagged() -> Image {
        var image = EncoderRegistryTests.gradient()
        image.metadata.iccProfile = adobe
        return image
    }

    @Test("by default the image's pixels and profile are written as they are")
    func preserve() throws {
        #expect(EncodingOptions().colorPolicy == .preserve)
        let decoded = try DecoderRegistry.standard.decode(EncoderRegistry.standard.encode(Self.tagged(), as: .png))
        #expect(decoded.pixels == Self.tagged().pixels)
        #expect(decoded.metadata.iccProfile == Self.adobe)
    }

    @Test("convertToSRGB writes sRGB pixels and no profile")
    func toSRGB() throws {
        let options = EncodingOptions(colorPolicy: .convertToSRGB)
        let decoded = try DecoderRegistry.standard.decode(EncoderRegistry.standard.encode(Self.tagged(), as: .png, options: options))
        var expected = Self.tagged()
        ColorPolicy.convertToSRGB.apply(to: &expected)
        #expect(decoded.pixels == expected.pixels)
        #expect(decoded.pixels != Self.tagged().pixels)
        #expect(decoded.metadata.iccProfile == nil)
    }

    @Test("convert(to:) writes converted pixels and embeds the destination, in PNG, WebP and JPEG (also with a JPEG override)")
    func toProfile() throws {
        let destination = try ICC.Profile(parsing: Self.proPhoto)
        var expected = Self.tagged()
        ColorPolicy.convert(to: destination).apply(to: &expected)
        let options = EncodingOptions(colorPolicy: .convert(to: destination))
        let png = try DecoderRegistry.standard.decode(EncoderRegistry.standard.encode(Self.tagged(), as: .png, options: options))
        #expect(png.pixels == expected.pixels)
        #expect(png.metadata.iccProfile == Self.proPhoto)
        for format in [ImageFormat.jpeg, .webp] {
            let decoded = try DecoderRegistry.standard.decode(EncoderRegistry.standard.encode(Self.tagged(), as: format, options: options))
            #expect(decoded.metadata.iccProfile == Self.proPhoto, "\(format)")
        }
        var override = options
        override.jpeg = JPEG.EncodingOptions(quality: 95)
        let jpeg = try DecoderRegistry.standard.decode(EncoderRegistry.standard.encode(Self.tagged(), as: .jpeg, options: override))
        #expect(jpeg.metadata.iccProfile == Self.proPhoto)
        // Lossy, but near the converted pixels.
        let a = jpeg.pixels.pixel(x: 6, y: 3), b = expected.pixels.pixel(x: 6, y: 3)
        #expect((0..<3).allSatisfy { abs(Int(a[$0]) - Int(b[$0])) <= 8 }, "\(a) against \(b)")
    }

    @Test("metadata none with a converting policy converts the pixels and writes no profile")
    func noMetadata() throws {
        let options = EncodingOptions(metadata: .none, colorPolicy: .convert(to: try ICC.Profile(parsing: Self.proPhoto)))
        let decoded = try DecoderRegistry.standard.decode(EncoderRegistry.standard.encode(Self.tagged(), as: .png, options: options))
        var expected = Self.tagged()
        ColorPolicy.convert(to: try ICC.Profile(parsing: Self.proPhoto)).apply(to: &expected)
        #expect(decoded.pixels == expected.pixels)
        #expect(decoded.metadata.iccProfile == nil)
    }
}
