import CZlib
import Foundation
import GlimpseCodec
import Testing
import TestSupport

/// PNG's own colour chunks under ``ColorPolicy/convertToSRGB``: `gAMA` with `cHRM` and `cICP`
/// against LittleCMS 2 (through imagecodecs' `cms_profile`, which builds an RGB profile from
/// primaries and a curve the way `cmsCreateRGBProfile` does), and the order of precedence of
/// PNG Third Edition §11.3.2.
@Suite("PNG colour chunks converted to sRGB")
struct PNGColorChunkTests {
    /// Whether python3 with imagecodecs (LittleCMS 2 inside) runs here.
    static let hasLittleCMS: Bool = {
        ReferenceDecoder.run("/usr/bin/env", ["python3", "-c", "import imagecodecs; imagecodecs.cms_profile('srgb')"])?.status == 0
    }()

    /// A 16-level RGB cube, 4096 pixels, as a 64×64 image.
    static let pattern: [UInt8] = {
        var bytes: [UInt8] = []
        for index in 0..<4096 {
            let red = UInt8(index & 15), green = UInt8(index >> 4 & 15), blue = UInt8(index >> 8)
            bytes += [red * 17, green * 17, blue * 17]
        }
        return bytes
    }()

    static func png(_ metadata: ImageMetadata) throws -> [UInt8] {
        var pixels = PixelBuffer(width: 64, height: 64)
        for index in 0..<4096 {
            pixels.bytes[index * 4] = pattern[index * 3]
            pixels.bytes[index * 4 + 1] = pattern[index * 3 + 1]
            pixels.bytes[index * 4 + 2] = pattern[index * 3 + 2]
            pixels.bytes[index * 4 + 3] = 255
        }
        return try PNG.Encoder().encode(pixels, metadata: metadata)
    }

    static func converted(_ png: [UInt8]) throws -> Image {
        var options = DecodingOptions()
        options.colorPolicy = .convertToSRGB
        return try DecoderRegistry.standard.decode(png, options: options)
    }

    /// What LittleCMS makes of ``pattern`` from an RGB profile with `primaries` (white, red,
    /// green, blue) and `curve` (`gamma=G` or `srgb`) to sRGB, perceptual intent.
    static func littleCMS(primaries: Chromaticities, curve: String) throws -> [UInt8] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-chunks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.rgb"), output = directory.appendingPathComponent("out.rgb")
        try Data(pattern).write(to: input)
        let script = """
        import sys, numpy as np, imagecodecs
        src, dst, curve = sys.argv[1], sys.argv[2], sys.argv[3]
        wx, wy, rx, ry, gx, gy, bx, by = map(float, sys.argv[4:12])
        if curve == "srgb":
            v = np.arange(4096) / 4095
            table = np.where(v > 0.04045, ((v + 0.055) / 1.055) ** 2.4, v / 12.92).astype(np.float32)
            profile = imagecodecs.cms_profile("rgb", whitepoint=[wx, wy], primaries=[rx, ry, gx, gy, bx, by], transferfunction=table)
        else:
            profile = imagecodecs.cms_profile("rgb", whitepoint=[wx, wy], primaries=[rx, ry, gx, gy, bx, by], gamma=float(curve))
        pixels = np.frombuffer(open(src, "rb").read(), dtype=np.uint8).reshape(64, 64, 3).copy()
        out = imagecodecs.cms_transform(pixels, profile, imagecodecs.cms_profile("srgb"),
                                        colorspace="rgb", outcolorspace="rgb", intent=0)
        open(dst, "wb").write(out.tobytes())
        """
        let p = primaries
        let values = [p.whiteX, p.whiteY, p.redX, p.redY, p.greenX, p.greenY, p.blueX, p.blueY].map { String($0) }
        let result = try #require(ReferenceDecoder.run("/usr/bin/env", ["python3", "-c", script, input.path, output.path, curve] + values))
        try #require(result.status == 0, "\(result.output)")
        return try Fixtures.bytes(at: output)
    }

    static func expectClose(_ image: Image, to expected: [UInt8], _ label: String) {
        var withinOne = 0, worst = 0
        for index in 0..<4096 {
            let pixel = image.pixels.pixel(x: index % 64, y: index / 64)
            for k in 0..<3 {
                let difference = abs(Int(pixel[k]) - Int(expected[index * 3 + k]))
                worst = max(worst, difference)
                if difference <= 1 { withinOne += 1 }
            }
        }
        let fraction = Double(withinOne) / Double(4096 * 3)
        #expect(fraction >= 0.99 && worst <= 2, "\(label): \(fraction * 100) % within 1, worst \(worst)")
    }

    static let d65 = (x: 0.3127, y: 0.3290)
    static let displayP3 = Chromaticities(whiteX: d65.x, whiteY: d65.y, redX: 0.680, redY: 0.320,
                                          greenX: 0.265, greenY: 0.690, blueX: 0.150, blueY: 0.060)

    struct GammaCase: Sendable, CustomStringConvertible {
        var name: String
        var gamma: Double
        var primaries: Chromaticities
        var description: String { name }
    }

    static let gammaCases = [
        GammaCase(name: "linear, Rec. 709 primaries", gamma: 1.0,
                  primaries: Chromaticities(whiteX: d65.x, whiteY: d65.y, redX: 0.64, redY: 0.33,
                                            greenX: 0.30, greenY: 0.60, blueX: 0.15, blueY: 0.06)),
        GammaCase(name: "1/2.2, Adobe RGB (1998) primaries", gamma: 0.45455,
                  primaries: Chromaticities(whiteX: d65.x, whiteY: d65.y, redX: 0.64, redY: 0.33,
                                            greenX: 0.21, greenY: 0.71, blueX: 0.15, blueY: 0.06)),
        GammaCase(name: "1/2.0, Display P3 primaries", gamma: 0.5, primaries: displayP3),
        GammaCase(name: "1/1.8, ProPhoto primaries, D50 white", gamma: 0.55556,
                  primaries: Chromaticities(whiteX: 0.3457, whiteY: 0.3585, redX: 0.7347, redY: 0.2653,
                                            greenX: 0.1596, greenY: 0.8404, blueX: 0.0366, blueY: 0.0001)),
    ]

    @Test("gAMA with cHRM converts as LittleCMS converts from the same primaries and gamma",
          .enabled(if: hasLittleCMS), arguments: gammaCases)
    func gammaAndChromaticities(_ testCase: GammaCase) throws {
        var metadata = ImageMetadata()
        metadata.gamma = testCase.gamma
        metadata.chromaticities = testCase.primaries
        let image = try Self.converted(try Self.png(metadata))
        let expected = try Self.littleCMS(primaries: testCase.primaries, curve: String(1 / testCase.gamma))
        Self.expectClose(image, to: expected, testCase.name)
        #expect(image.metadata.gamma == nil && image.metadata.chromaticities == nil, "the chunks no longer fit the pixels")
        #expect(image.warnings.isEmpty)
    }

    struct PrimariesCase: Sendable, CustomStringConvertible {
        var code: UInt16
        var primaries: Chromaticities
        var description: String { "colour primaries \(code)" }
    }

    /// H.273 Table 2, written out here rather than read from the decoder's table; 4 and 8 have
    /// illuminant C for their white, which the profile adapts to D50 as LittleCMS does.
    static let primariesCases = [
        PrimariesCase(code: 12, primaries: displayP3),
        PrimariesCase(code: 9, primaries: Chromaticities(whiteX: d65.x, whiteY: d65.y, redX: 0.708, redY: 0.292,
                                                         greenX: 0.170, greenY: 0.797, blueX: 0.131, blueY: 0.046)),
        PrimariesCase(code: 4, primaries: Chromaticities(whiteX: 0.310, whiteY: 0.316, redX: 0.67, redY: 0.33,
                                                         greenX: 0.21, greenY: 0.71, blueX: 0.14, blueY: 0.08)),
        PrimariesCase(code: 8, primaries: Chromaticities(whiteX: 0.310, whiteY: 0.316, redX: 0.681, redY: 0.319,
                                                         greenX: 0.243, greenY: 0.692, blueX: 0.145, blueY: 0.049)),
        PrimariesCase(code: 22, primaries: Chromaticities(whiteX: d65.x, whiteY: d65.y, redX: 0.630, redY: 0.340,
                                                          greenX: 0.295, greenY: 0.605, blueX: 0.155, blueY: 0.077)),
    ]

    @Test("cICP primaries with the sRGB transfer function convert as LittleCMS converts from them",
          .enabled(if: hasLittleCMS), arguments: primariesCases)
    func codePointPrimaries(_ testCase: PrimariesCase) throws {
        var metadata = ImageMetadata()
        metadata.cicp = CodingIndependentCodePoints(colorPrimaries: testCase.code, transferCharacteristics: 13,
                                                    matrixCoefficients: 0, isFullRange: true)
        let png = try Self.png(metadata)
        #expect(try PNG.Decoder.decode(png).metadata.cicp == metadata.cicp, "cICP written and read back")
        let image = try Self.converted(png)
        Self.expectClose(image, to: try Self.littleCMS(primaries: testCase.primaries, curve: "srgb"), "\(testCase)")
        #expect(image.metadata.cicp == nil)
        #expect(image.warnings.isEmpty)
    }

    @Test("cICP primaries 10 (CIE XYZ: a blue at y = 0) and reserved code points are left as they are, with a warning")
    func degenerateAndReservedPrimaries() throws {
        let plain = try PNG.Decoder.decode(try Self.png(ImageMetadata()))
        for code: UInt16 in [10, 0, 3, 13, 23, 255] {
            var metadata = ImageMetadata()
            metadata.cicp = CodingIndependentCodePoints(colorPrimaries: code, transferCharacteristics: 13,
                                                        matrixCoefficients: 0, isFullRange: true)
            let image = try Self.converted(try Self.png(metadata))
            #expect(image.pixels == plain.pixels, "primaries \(code)")
            #expect(image.warnings.count == 1, "primaries \(code)")
        }
    }

    @Test("sRGB by description costs nothing: cICP 1/13, the sRGB chunk, gAMA 1/2.2 alone")
    func srgbDescriptions() throws {
        let plain = try PNG.Decoder.decode(try Self.png(ImageMetadata()))
        var cicp = ImageMetadata()
        cicp.cicp = CodingIndependentCodePoints(colorPrimaries: 1, transferCharacteristics: 13, matrixCoefficients: 0, isFullRange: true)
        var chunk = ImageMetadata()
        chunk.sRGBIntent = 0
        var gamma = ImageMetadata()
        gamma.gamma = 0.45455
        for metadata in [cicp, chunk, gamma] {
            let image = try Self.converted(try Self.png(metadata))
            #expect(image.pixels == plain.pixels)
            #expect(image.warnings.isEmpty)
        }
    }

    @Test("cICP overrides an ICC profile, gAMA and cHRM (PNG Third Edition §11.3.2)")
    func codePointsComeFirst() throws {
        var metadata = ImageMetadata()
        metadata.cicp = CodingIndependentCodePoints(colorPrimaries: 1, transferCharacteristics: 13, matrixCoefficients: 0, isFullRange: true)
        metadata.iccProfile = ICCProfileBuilder.adobeRGB.build()
        metadata.gamma = 1.0
        let image = try Self.converted(try Self.png(metadata))
        #expect(image.pixels == (try PNG.Decoder.decode(try Self.png(ImageMetadata()))).pixels, "sRGB by cICP: untouched")
    }

    @Test("An ICC profile overrides gAMA and cHRM, and the conversion drops them all")
    func profileBeforeGamma() throws {
        var tagged = ImageMetadata()
        tagged.iccProfile = ICCProfileBuilder.adobeRGB.build()
        var both = tagged
        both.gamma = 1.0
        both.chromaticities = Self.displayP3
        let viaProfile = try Self.converted(try Self.png(tagged))
        let image = try Self.converted(try Self.png(both))
        #expect(image.pixels == viaProfile.pixels)
        #expect(image.metadata.iccProfile == nil && image.metadata.gamma == nil && image.metadata.chromaticities == nil)
        let written = try PNG.Decoder.decode(try PNG.Encoder().encode(image.pixels, metadata: image.metadata))
        #expect(written.metadata.gamma == nil && written.metadata.chromaticities == nil, "a re-encode carries no stale chunk")
    }

    @Test("HDR (PQ, HLG) and narrow-range code points are left as they are, with a warning")
    func unusableCodePoints() throws {
        let plain = try PNG.Decoder.decode(try Self.png(ImageMetadata()))
        for (transfer, range) in [(16, true), (18, true), (13, false)] {
            var metadata = ImageMetadata()
            metadata.cicp = CodingIndependentCodePoints(colorPrimaries: 9, transferCharacteristics: UInt16(transfer),
                                                        matrixCoefficients: 0, isFullRange: range)
            let image = try Self.converted(try Self.png(metadata))
            #expect(image.pixels == plain.pixels)
            #expect(image.metadata.cicp != nil)
            #expect(image.warnings.count == 1, "transfer \(transfer), full range \(range)")
        }
    }

    @Test("A cICP chunk with matrix coefficients other than 0 is invalid for PNG and ignored")
    func invalidCodePoints() throws {
        var metadata = ImageMetadata()
        metadata.cicp = CodingIndependentCodePoints(colorPrimaries: 12, transferCharacteristics: 13, matrixCoefficients: 0, isFullRange: true)
        var png = try Self.png(metadata)
        // The chunk follows the signature and IHDR: 8 + 25 bytes; its data starts 8 bytes in.
        let chunk = 8 + 25
        try #require(Array(png[(chunk + 4)..<(chunk + 8)]) == Array("cICP".utf8))
        png[chunk + 8 + 2] = 1
        let covered = Array(png[(chunk + 4)..<(chunk + 12)])
        let crc = UInt32(covered.withUnsafeBufferPointer { CZlib.crc32(0, $0.baseAddress, uInt($0.count)) })
        png.replaceSubrange((chunk + 12)..<(chunk + 16), with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        #expect(try PNG.Decoder.decode(png).metadata.cicp == nil)
    }
}
