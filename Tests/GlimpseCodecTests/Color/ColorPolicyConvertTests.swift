@testable import GlimpseCodec
import Testing
import TestSupport

/// ``ColorPolicy/convert(to:intent:)`` on decoded images, with profiles built in memory:
/// what the pixels and the metadata become, and the cases that cost nothing.
@Suite("ColorPolicy.convert(to:)")
struct ColorPolicyConvertTests {
    /// ProPhoto RGB's D50 colorants with γ 1.8, version 4.
    static let proPhoto = ICCProfileBuilder.matrixShaper(red: (0.7977, 0.2880, 0.0), green: (0.1352, 0.7119, 0.0),
                                                         blue: (0.0313, 0.0001, 0.8249), curve: ICCProfileBuilder.curv([461])).build()
    /// A grey profile: `kTRC` γ 2.2 with an XYZ PCS.
    static let gray = ICCProfileBuilder(colorSpace: "GRAY", tags: [("wtpt", ICCProfileBuilder.xyz(0.9642, 1, 0.8249)),
                                                                   ("kTRC", ICCProfileBuilder.curv([563]))]).build()

    static func image(profile: [UInt8]?) -> Image {
        var pixels = PixelBuffer(width: 16, height: 16)
        for i in 0..<256 {
            pixels.bytes[i * 4] = UInt8(i)
            pixels.bytes[i * 4 + 1] = UInt8((i * 7) & 255)
            pixels.bytes[i * 4 + 2] = UInt8(255 - i)
            pixels.bytes[i * 4 + 3] = UInt8(i | 1)
        }
        var image = Image(pixels: pixels, format: .png)
        image.metadata.iccProfile = profile
        return image
    }

    @Test("an Adobe RGB image converted to ProPhoto carries ProPhoto, pixels as the transform makes them")
    func toProPhoto() throws {
        let adobe = ICCProfileBuilder.adobeRGB.build()
        var image = Self.image(profile: adobe)
        let destination = try ICC.Profile(parsing: Self.proPhoto)
        ColorPolicy.convert(to: destination).apply(to: &image)
        var expected = Self.image(profile: nil).pixels
        try ColorTransform(source: ICC.Profile(parsing: adobe), destination: destination).apply(to: &expected)
        #expect(image.pixels == expected)
        #expect(image.pixels != Self.image(profile: nil).pixels)
        #expect(image.metadata.iccProfile == Self.proPhoto)
        #expect(image.warnings.isEmpty)
        // Alpha is untouched.
        let alpha = image.pixels.bytes
        #expect((0..<256).allSatisfy { (i: Int) -> Bool in alpha[i * 4 + 3] == UInt8(i | 1) })

        var relative = Self.image(profile: adobe)
        ColorPolicy.convert(to: destination, intent: .relativeColorimetric).apply(to: &relative)
        var expectedRelative = Self.image(profile: nil).pixels
        try ColorTransform(source: ICC.Profile(parsing: adobe), destination: destination, intent: .relativeColorimetric)
            .apply(to: &expectedRelative)
        #expect(relative.pixels == expectedRelative)
    }

    @Test("an image already in the destination profile is left exactly as it is")
    func alreadyThere() throws {
        let original = Self.image(profile: Self.proPhoto)
        var image = original
        ColorPolicy.convert(to: try ICC.Profile(parsing: Self.proPhoto)).apply(to: &image)
        #expect(image.pixels == original.pixels)
        #expect(image.metadata == original.metadata)
        // The transform between a profile and itself is an identity too.
        let profile = try ICC.Profile(parsing: Self.proPhoto)
        #expect(try ColorTransform(source: profile, destination: profile).isIdentity)
    }

    @Test("an sRGB destination behaves as convertToSRGB: sRGB pixels, no profile")
    func sRGBDestination() throws {
        let adobe = ICCProfileBuilder.adobeRGB.build()
        var converted = Self.image(profile: adobe), reference = Self.image(profile: adobe)
        ColorPolicy.convert(to: try ICC.Profile(parsing: ICCProfileBuilder.sRGB.build())).apply(to: &converted)
        ColorPolicy.convertToSRGB.apply(to: &reference)
        #expect(converted.pixels == reference.pixels)
        #expect(converted.metadata.iccProfile == nil)
    }

    @Test("an untagged image is taken for sRGB and converted to the destination")
    func untagged() throws {
        var image = Self.image(profile: nil)
        let destination = try ICC.Profile(parsing: Self.proPhoto)
        ColorPolicy.convert(to: destination).apply(to: &image)
        var expected = Self.image(profile: nil).pixels
        try ColorTransform(source: ICC.Profile(parsing: ICCProfileBuilder.sRGB.build()), destination: destination).apply(to: &expected)
        let worst = zip(image.pixels.bytes, expected.bytes).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "Glimpse's own sRGB and the built one differ by their s15Fixed16 rounding only")
        #expect(image.metadata.iccProfile == Self.proPhoto)
    }

    @Test("a grey destination turns RGB pixels grey (R = G = B) and carries the grey profile")
    func grayDestination() throws {
        var image = Self.image(profile: ICCProfileBuilder.adobeRGB.build())
        ColorPolicy.convert(to: try ICC.Profile(parsing: Self.gray)).apply(to: &image)
        let bytes = image.pixels.bytes
        let grey = (0..<256).allSatisfy { (i: Int) -> Bool in
            let r = bytes[i * 4], g = bytes[i * 4 + 1], b = bytes[i * 4 + 2]
            return r == g && r == b
        }
        #expect(grey)
        #expect(image.metadata.iccProfile == Self.gray)
        // White stays white, black black.
        var extremes = PixelBuffer(width: 2, height: 1)
        extremes.bytes = [0, 0, 0, 255, 255, 255, 255, 255]
        try ColorTransform(source: ICC.Profile(parsing: ICCProfileBuilder.adobeRGB.build()),
                           destination: ICC.Profile(parsing: Self.gray)).apply(to: &extremes)
        #expect(extremes.bytes == [0, 0, 0, 255, 255, 255, 255, 255])
    }

    @Test("a CMYK or Lab destination cannot be converted to: the image stays as it is, with a warning")
    func unusableDestination() throws {
        let cmyk = try ICC.Profile(parsing: ICCProfileBuilder(deviceClass: "prtr", colorSpace: "CMYK").build())
        #expect(throws: ColorTransformError.unsupportedColorSpace("CMYK")) {
            try ColorTransform(source: ICC.Profile(parsing: ICCProfileBuilder.adobeRGB.build()), destination: cmyk)
        }
        let original = Self.image(profile: ICCProfileBuilder.adobeRGB.build())
        var image = original
        ColorPolicy.convert(to: cmyk).apply(to: &image)
        #expect(image.pixels == original.pixels)
        #expect(image.metadata == original.metadata)
        #expect(image.warnings.count == 1)
    }
}
