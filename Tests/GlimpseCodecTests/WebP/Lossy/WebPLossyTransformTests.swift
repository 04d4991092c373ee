import Testing
import TestSupport
@testable import GlimpseCodec

/// The vector inverse DCT (``WebP/LossyTransform/vectorDCT(_:_:)``, two blocks
/// at a time in 16-bit lanes) equals the scalar reference (libwebp's C
/// `TransformOne`) for every coefficient a real stream can carry, and libwebp's
/// SSE2 `Transform` (16-bit wrapping arithmetic, modelled here one value at a
/// time) for any `Int16` coefficients.
@Suite struct WebPLossyTransformTests {
    private static let stride = WebP.LossyPrediction.stride

    private static func randomBlock(_ random: inout SplitMix, range: Int) -> [Int16] {
        (0..<16).map { _ in
            // Mostly small values, as in real streams, with a share of extremes.
            let r = random.next()
            let magnitude = r % 4 == 0 ? range : Swift.min(range, 64)
            return Int16(truncatingIfNeeded: Int((r >> 8) % UInt64(2 * magnitude + 1)) - magnitude)
        }
    }

    private static func randomPixels(_ random: inout SplitMix) -> [UInt8] {
        (0..<stride * 4).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }

    /// libwebp's SSE2 transform one value at a time: sums wrap modulo 2^16,
    /// `MUL(x, K) = x + (x · k) >> 16` with k = 20091 or −30068.
    private static func wrappingModel(_ input: [Int16], _ dst: inout [UInt8], at origin: Int) {
        func mul(_ x: Int16, _ k: Int32) -> Int16 { Int16(truncatingIfNeeded: (Int32(x) * k) >> 16) &+ x }
        func pass(_ v: [Int16]) -> [Int16] {  // v: 16 values, rows of 4; returns columns transformed, transposed
            var out = [Int16](repeating: 0, count: 16)
            for i in 0..<4 {
                let a = v[i] &+ v[8 + i], b = v[i] &- v[8 + i]
                let c = mul(v[4 + i], -30068) &- mul(v[12 + i], 20091)
                let d = mul(v[4 + i], 20091) &+ mul(v[12 + i], -30068)
                out[i * 4] = a &+ d; out[i * 4 + 1] = b &+ c; out[i * 4 + 2] = b &- c; out[i * 4 + 3] = a &- d
            }
            return out
        }
        // The second pass adds the rounding term to the DC values.
        var t = pass(input)
        for i in 0..<4 { t[i] = t[i] &+ 4 }
        let second = pass(t)
        for y in 0..<4 {
            for x in 0..<4 {
                let sum = Int16(dst[origin + y * stride + x]) &+ (second[y * 4 + x] >> 3)
                dst[origin + y * stride + x] = UInt8(clamping: sum)
            }
        }
    }

    @Test func vectorDCTEqualsScalarOnStreamRange() {
        var random = SplitMix(seed: 16)
        var mismatches = 0
        for _ in 0..<3000 {
            let a = Self.randomBlock(&random, range: 2048), b = Self.randomBlock(&random, range: 2048)
            var reference = Self.randomPixels(&random)
            var single = reference, pair = reference
            (a + b).withUnsafeBufferPointer { coefficients in
                let input = coefficients.baseAddress!
                reference.withUnsafeMutableBufferPointer { d in
                    WebP.LossyTransform.inverseDCT(input, d.baseAddress!)
                    WebP.LossyTransform.inverseDCT(input + 16, d.baseAddress! + 4)
                }
                single.withUnsafeMutableBufferPointer { d in
                    WebP.LossyTransform.vectorDCT(input, d.baseAddress!)
                    WebP.LossyTransform.vectorDCT(input + 16, d.baseAddress! + 4)
                }
                pair.withUnsafeMutableBufferPointer { d in WebP.LossyTransform.vectorDCTPair(input, d.baseAddress!) }
            }
            if single != reference || pair != reference { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }

    @Test func vectorDCTWrapsLikeLibwebpSSE2() {
        var random = SplitMix(seed: 17)
        var mismatches = 0
        for _ in 0..<2000 {
            let a = Self.randomBlock(&random, range: 32767), b = Self.randomBlock(&random, range: 32767)
            var model = Self.randomPixels(&random)
            var pair = model
            Self.wrappingModel(a, &model, at: 0)
            Self.wrappingModel(b, &model, at: 4)
            (a + b).withUnsafeBufferPointer { coefficients in
                pair.withUnsafeMutableBufferPointer { d in
                    WebP.LossyTransform.vectorDCTPair(coefficients.baseAddress!, d.baseAddress!)
                }
            }
            if pair != model { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }
}
