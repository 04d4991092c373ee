@testable import GlimpseCodec
import TestSupport
import Testing

@Suite("PNG: unfilter wavefronts")
struct PNGUnfilterTests {
    @Test("the bounds form of Paeth equals the specification's predictor")
    func paethAbove() {
        var mismatches = 0
        for b in 0...255 {
            for c in 0...255 {
                // Sixteen left values per (b, c), rotating so that every a meets many (b, c).
                for half in 0..<2 {
                    let a = SIMD8<Int16>((0..<8).map { Int16((b &* 7 &+ c &* 13 &+ (half * 8 + $0) &* 16) % 256) })
                    let above = PNG.PaethAbove(b: SIMD8(repeating: Int16(b)), c: SIMD8(repeating: Int16(c)))
                    let predicted = above.offset(a &- above.c) &+ above.c
                    for lane in 0..<8 where Int(predicted[lane]) != PNGPaethTests.reference(Int(a[lane]), b, c) {
                        mismatches += 1
                    }
                }
            }
        }
        #expect(mismatches == 0)
    }

    @Test("every a for the extreme rows above")
    func paethAboveEdges() {
        let edges = [0, 1, 2, 127, 128, 129, 253, 254, 255]
        var mismatches = 0
        for b in edges {
            for c in 0...255 {
                for start in stride(from: 0, to: 256, by: 8) {
                    let a = SIMD8<Int16>((0..<8).map { Int16(start + $0) })
                    let above = PNG.PaethAbove(b: SIMD8(repeating: Int16(b)), c: SIMD8(repeating: Int16(c)))
                    let predicted = above.offset(a &- above.c) &+ above.c
                    for lane in 0..<8 where Int(predicted[lane]) != PNGPaethTests.reference(Int(a[lane]), b, c) {
                        mismatches += 1
                    }
                }
            }
        }
        #expect(mismatches == 0)
    }

    /// Narrow and short images, so that rows run as pairs and quads with their
    /// first and last pixels handled apart, against the encoder's filtering.
    @Test("pairs and quads of rows at every small width", arguments: [PNG.Encoder.Filtering.paeth, .average, .sub, .adaptive])
    func smallImages(_ filtering: PNG.Encoder.Filtering) throws {
        var generator = SplitMix(seed: 0x5EED)
        for format in [PixelFormat.rgba8, .rgba16] {
            for (mode, opaque) in [(PNG.Encoder.ColorMode.rgb, true), (.rgba, false)] {
                for width in 1...9 {
                    for height in [1, 2, 3, 4, 5, 7, 8, 9] {
                        var pixels = PixelBuffer(width: width, height: height, format: format)
                        for i in pixels.bytes.indices { pixels.bytes[i] = UInt8(truncatingIfNeeded: generator.next()) }
                        if opaque {
                            // RGB: alpha at its maximum, in both bytes of 16-bit samples.
                            let sample = format == .rgba16 ? 8 : 4
                            for pixel in 0..<(width * height) {
                                for byte in (sample * pixel + sample * 3 / 4)..<(sample * pixel + sample) { pixels.bytes[byte] = 255 }
                            }
                        }
                        let options = PNG.Encoder.Options(colorMode: mode, compressionLevel: 1, filtering: filtering)
                        let encoded = try PNG.Encoder(options: options).encode(pixels)
                        let decoded = try PNG.Decoder.decode(encoded)
                        #expect(decoded.pixels == pixels.converted(to: .rgba8), "\(format) \(mode) \(width)×\(height)")
                    }
                }
            }
        }
    }
}
