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

    /// Fed in pieces, rows arrive one or two at a time: single rows, pairs
    /// and quads meet in every order.
    @Test("rows fed in pieces match one-shot decoding", arguments: [PNG.Encoder.Filtering.paeth, .average, .adaptive])
    func streamedRows(_ filtering: PNG.Encoder.Filtering) throws {
        var generator = SplitMix(seed: 0xC0FFEE)
        for format in [PixelFormat.rgba8, .rgba16] {
            for mode in [PNG.Encoder.ColorMode.rgb, .rgba] {
                for width in [2, 3, 17, 64] {
                    var pixels = PixelBuffer(width: width, height: 6, format: format)
                    // Smooth rows with noise, so that every filter choice occurs under `.adaptive`.
                    for i in pixels.bytes.indices { pixels.bytes[i] = UInt8(truncatingIfNeeded: i / 7 &+ Int(generator.next() % 9)) }
                    let options = PNG.Encoder.Options(colorMode: mode, compressionLevel: 0, filtering: filtering)
                    let encoded = try PNG.Encoder(options: options).encode(mode == .rgb ? Self.opaque(pixels) : pixels)
                    let oneShot = try PNG.Decoder.decode(encoded)
                    for chunking in [Chunking.fixed(1), .fixed(7), .fixed(100), .random(seed: UInt64(width), maximum: 300)] {
                        let streamed = try chunking.decode(PNG.Decoder.self, encoded).get()
                        #expect(streamed.pixels == oneShot.pixels, "\(format) \(mode) \(width) \(chunking)")
                    }
                }
            }
        }
    }

    /// Alpha at its maximum (both bytes of a 16-bit sample), so that RGB output loses nothing.
    private static func opaque(_ pixels: PixelBuffer) -> PixelBuffer {
        var pixels = pixels
        let sample = pixels.format == .rgba16 ? 2 : 1
        for pixel in stride(from: 0, to: pixels.bytes.count, by: 4 * sample) {
            for byte in 0..<sample { pixels.bytes[pixel + 3 * sample + byte] = 255 }
        }
        return pixels
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
                        if opaque { pixels = Self.opaque(pixels) }
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
