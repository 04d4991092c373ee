import GlimpseCodec
import Testing
import TestSupport

/// ColorTransform on built profiles: sRGB sources are identities, the 8- and
/// 16-bit kernels agree with the exact double-precision conversion.
@Suite("ColorTransform")
struct ColorTransformTests {
    @Test("an sRGB-tagged source is recognised by colorants and curves and left untouched")
    func sRGBIdentity() throws {
        let transform = try ColorTransform(source: ICC.Profile(parsing: ICCProfileBuilder.sRGB.build()))
        #expect(transform.isIdentity)
        var pixels = PixelBuffer(width: 2, height: 1)
        pixels.bytes = [10, 20, 30, 40, 250, 128, 1, 255]
        let before = pixels
        transform.apply(to: &pixels)
        #expect(pixels == before)
        #expect(try !ColorTransform(source: ICC.Profile(parsing: ICCProfileBuilder.adobeRGB.build())).isIdentity)
    }

    static func exact(_ transform: ColorTransform, _ device: [Double]) -> SIMD3<Double> {
        transform.convert(device) * 65535
    }

    @Test("8-bit and 16-bit matrix/TRC kernels agree with the exact conversion (16-bit within the grid's precision)")
    func matrixShaperKernels() throws {
        let transform = try ColorTransform(source: ICC.Profile(parsing: ICCProfileBuilder.adobeRGB.build()))
        #expect(transform.input == .rgb)
        let codes: [UInt8] = [0, 1, 17, 64, 128, 200, 254, 255]
        var pixels8 = PixelBuffer(width: codes.count * codes.count, height: 1)
        var pixels16 = PixelBuffer(width: codes.count * codes.count, height: 1, format: .rgba16)
        for (i, (r, g)) in codes.flatMap({ r in codes.map { (r, $0) } }).enumerated() {
            pixels8.bytes.replaceSubrange(i * 4..<i * 4 + 4, with: [r, g, 255 - r, 255])
            let wide = [UInt16(r) * 257, UInt16(g) * 257, UInt16(255 - r) * 257, 65535]
            pixels16.bytes.withUnsafeMutableBytes { raw in
                for k in 0..<4 { raw.storeBytes(of: wide[k], toByteOffset: i * 8 + k * 2, as: UInt16.self) }
            }
        }
        let device = pixels8.bytes
        transform.apply(to: &pixels8)
        transform.apply(to: &pixels16)
        var worst8 = 0.0, worst16 = 0.0
        for i in 0..<pixels8.pixelCount {
            let expected = Self.exact(transform, (0..<3).map { Double(device[i * 4 + $0]) / 255 })
            let got8 = pixels8.pixel(x: i, y: 0), got16 = pixels16.pixel(x: i, y: 0)
            for k in 0..<3 {
                worst8 = max(worst8, abs(Double(got8[k]) - expected[k] / 257))
                worst16 = max(worst16, abs(Double(got16[k]) - expected[k]))
            }
            #expect(got8[3] == 255 && got16[3] == 65535)
        }
        // 1.14 fixed point and an 8-bit result: within rounding. 16-bit pixels go through the 33³ grid
        // LittleCMS resamples 16-bit transforms into (gamma ≥ 1.6 sources): 192 steps (0.3 %) from the
        // exact value in the shadows here, which is what LittleCMS gives too (ProfileToProfileTests).
        #expect(worst8 <= 1)
        #expect(worst16 <= 256)
    }

    @Test("grey and CMYK sources go through a resampled grid that keeps white white")
    func gridKernels() throws {
        var gray = ICCProfileBuilder(colorSpace: "GRAY")
        gray.tags = [("kTRC", ICCProfileBuilder.curv([563]))]
        let grayTransform = try ColorTransform(source: ICC.Profile(parsing: gray.build()))
        #expect(grayTransform.input == .gray)
        var pixels = PixelBuffer(width: 256, height: 1)
        for v in 0..<256 { pixels.bytes.replaceSubrange(v * 4..<v * 4 + 4, with: [UInt8(v), UInt8(v), UInt8(v), 255]) }
        grayTransform.apply(to: &pixels)
        #expect(pixels.pixel(x: 255, y: 0) == SIMD4(255, 255, 255, 255))
        #expect(pixels.pixel(x: 0, y: 0) == SIMD4(0, 0, 0, 255))
        for v in 0..<256 {
            let expected = Self.exact(grayTransform, [Double(v) / 255]) / 257
            let got = pixels.pixel(x: v, y: 0)
            #expect(abs(Double(got[0]) - expected.x) <= 1.5, "grey \(v)")
            #expect(got[0] == got[1] && got[1] == got[2], "grey \(v) stays neutral")
        }

        // A 2⁴ CMYK grid to L*a*b*: no ink is L* 100, full ink L* 0, linear in between.
        var samples = [UInt16]()
        for c in 0..<2 { for m in 0..<2 { for y in 0..<2 { for k in 0..<2 {
            let ink = Double(c + m + y + 2 * k) / 5
            samples += [UInt16((1 - min(1, ink)) * 65280), 0x8000, 0x8000]
        } } } }
        var cmyk = ICCProfileBuilder(deviceClass: "prtr", colorSpace: "CMYK", connectionSpace: "Lab ")
        cmyk.version = 2
        cmyk.tags = [("A2B0", ICCProfileBuilder.mft2(inputs: 4, outputs: 3, points: 2, samples: samples))]
        let cmykTransform = try ColorTransform(source: ICC.Profile(parsing: cmyk.build()), intent: .relativeColorimetric)
        #expect(cmykTransform.input == .cmyk)
        let input: [UInt8] = [0, 0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 128]
        var rgba = [UInt8](repeating: 0, count: 12)
        input.withUnsafeBufferPointer { source in rgba.withUnsafeMutableBufferPointer { cmykTransform.convertCMYK(source, into: $0) } }
        #expect(Array(rgba[0..<4]) == [255, 255, 255, 255])
        #expect(Array(rgba[4..<8]) == [0, 0, 0, 255])
        let mid = Self.exact(cmykTransform, [0, 0, 0, 128.0 / 255]) / 257
        #expect(abs(Double(rgba[8]) - mid.x) <= 1.5)
    }
}
