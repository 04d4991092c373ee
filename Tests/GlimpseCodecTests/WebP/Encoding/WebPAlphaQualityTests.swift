import Foundation
import Testing
import TestSupport
@testable import GlimpseCodec

/// `alphaQuality` (`cwebp -alpha_q`): level reduction of the alpha plane of lossy output.
@Suite(.enabled(if: WebPEncoderTestSupport.dwebp != nil)) struct WebPAlphaQualityTests {
    typealias T = WebPEncoderTestSupport

    /// Transparent on the left, opaque on the right, a noisy ramp between.
    static func softEdge(width: Int, height: Int) -> PixelBuffer {
        var pixels = T.photoLike(width: width, height: height, seed: 11)
        var random = SplitMix(seed: 12)
        for y in 0..<height {
            for x in 0..<width {
                let alpha: Int
                if x < width / 3 { alpha = 0 } else if x >= 2 * width / 3 { alpha = 255 } else {
                    alpha = min(max((x - width / 3) * 255 / (width / 3) + Int(random.next() % 9) - 4, 1), 254)
                }
                pixels.bytes[(y * width + x) * 4 + 3] = UInt8(alpha)
            }
        }
        return pixels
    }

    static func alphas(_ pixels: PixelBuffer) -> [UInt8] {
        stride(from: 3, to: pixels.bytes.count, by: 4).map { pixels.bytes[$0] }
    }

    @Test("100 is exact; lower qualities shrink ALPH, keep 0 and 255 exact, and libwebp decodes what Glimpse does")
    func levelReduction() throws {
        let pixels = Self.softEdge(width: 64, height: 40)
        let source = Self.alphas(pixels)
        var sizes: [Int] = []
        for quality in [100, 60, 20] {
            let bytes = try WebP.Encoder(options: .init(quality: 80, alphaQuality: quality)).encode(pixels)
            let alph = try #require(WebPLosslessTestSupport.chunks(bytes)?.first { $0.fourCC == "ALPH" }?.payload)
            sizes.append(alph.count)
            let ours = try WebP.Decoder.decode(bytes).pixels
            #expect(try T.libwebpPixels(bytes) == ours, "alpha quality \(quality)")
            let decoded = Self.alphas(ours)
            let preprocessing = (alph.first ?? 0) >> 4 & 3
            if quality == 100 {
                #expect(decoded == source)
                #expect(preprocessing == 0)
            } else {
                #expect(preprocessing == 1, "ALPH signals level reduction")
                #expect(zip(source, decoded).allSatisfy { ($0 == 0) == ($1 == 0) && ($0 == 255) == ($1 == 255) },
                        "alpha quality \(quality): 0 and 255 stay exact")
                #expect(Set(decoded).count <= WebP.AlphaLevelReduction.levelCount(quality: quality))
                let error = zip(source, decoded).map { abs(Int($0) - Int($1)) }.max() ?? 0
                #expect(error <= 256 / WebP.AlphaLevelReduction.levelCount(quality: quality) + 4)
            }
        }
        #expect(zip(sizes, sizes.dropFirst()).allSatisfy { $0 > $1 }, "ALPH sizes \(sizes)")
        // Where fewer levels would not code smaller, the exact plane is kept.
        let gentle = try WebP.Encoder(options: .init(quality: 80, alphaQuality: 95)).encode(pixels)
        let gentleAlph = try #require(WebPLosslessTestSupport.chunks(gentle)?.first { $0.fourCC == "ALPH" }?.payload)
        #expect(gentleAlph.count <= sizes[0])
    }

    @Test("the level counts follow cwebp's mapping; few values are left alone; out of range is refused")
    func levelCounts() throws {
        #expect([0, 50, 70, 71, 99, 100].map(WebP.AlphaLevelReduction.levelCount) == [2, 12, 16, 24, 248, 256])
        let plane: [UInt8] = [0, 7, 255, 7, 0, 200]
        #expect(WebP.AlphaLevelReduction.reduce(plane, quality: 0) != plane)
        // Two levels allowed and both taken by 0 and 255: the values between still get a level of
        // their own, never 0 or 255 (a fuzz finding, Fuzz/Regressions/roundtrip/webp-alpha-quality-2-levels.bin).
        for quality in 0..<5 {
            let reduced = WebP.AlphaLevelReduction.reduce(plane, quality: quality)
            #expect(zip(plane, reduced).allSatisfy { ($0 == 0) == ($1 == 0) && ($0 == 255) == ($1 == 255) }, "quality \(quality): \(reduced)")
            #expect(Set(reduced).count == 3)
        }
        #expect(WebP.AlphaLevelReduction.reduce(plane, quality: 10) == plane)
        #expect(throws: WebP.Encoder.EncodingError.invalidOptions("alpha quality 101 outside 0...100")) {
            try WebP.Encoder(options: .init(alphaQuality: 101)).encode(PixelBuffer(width: 1, height: 1))
        }
    }

    @Test("lossy animation frames with reduced alpha compose in libwebp as in Glimpse",
          .enabled(if: PillowAnimationReader.isAvailable))
    func animation() throws {
        let base = Self.softEdge(width: 40, height: 24)
        let frames = WebPAnimationEncoderTests.movingSquare(over: base, steps: 4)
        let bytes = try WebP.Encoder(options: .init(quality: 70, alphaQuality: 30)).encode(Image(frames: frames, format: .gif))
        let ours = try WebP.Decoder.decode(bytes)
        let theirs = try #require(try PillowAnimationReader.read(bytes))
        #expect(theirs.frames == ours.frames.map(\.pixels.bytes))
    }
}
