import Testing
import TestSupport
@testable import GlimpseCodec

/// The vectorised chroma upsampler and YUV→RGB conversion (``WebP/LossyUpsampler``,
/// blends and 16-bit lanes) equal libwebp's scalar fancy upsampler (`dsp/upsampling.c`:
/// the diagonal mix rounded in two steps, edges repeated) followed by its per-pixel
/// conversion (`VP8YuvToRgba`, ``WebP/LossyUpsampler/store(_:_:_:_:)``), for every row
/// width up to 70 (vector blocks and the per-pixel tail, odd and even widths) and for
/// every Y with a spread of U and V.
@Suite struct WebPLossyUpsamplerTests {
    /// libwebp's `UpsampleRgbaLinePair` for one output row, written out per pixel.
    static func reference(y: [UInt8], nearU: [UInt8], nearV: [UInt8], farU: [UInt8], farV: [UInt8],
                          width: Int) -> [UInt8] {
        func upsample(_ near: [UInt8], _ far: [UInt8]) -> [Int32] {
            var out = [Int32](repeating: 0, count: width)
            var n0 = Int32(near[0]), f0 = Int32(far[0])
            out[0] = (3 * n0 + f0 + 2) >> 2
            var x = 1
            while x <= (width - 1) >> 1 {
                let n1 = Int32(near[x]), f1 = Int32(far[x])
                let sum = n0 + n1 + f0 + f1 + 8
                let diagonal = (sum + 2 * (n1 + f0)) >> 3, anti = (sum + 2 * (n0 + f1)) >> 3
                out[2 * x - 1] = (diagonal + n0) >> 1
                out[2 * x] = (anti + n1) >> 1
                n0 = n1
                f0 = f1
                x += 1
            }
            if width & 1 == 0 { out[width - 1] = (3 * n0 + f0 + 2) >> 2 }
            return out
        }
        let u = upsample(nearU, farU), v = upsample(nearV, farV)
        var rgba = [UInt8](repeating: 0, count: 4 * width)
        rgba.withUnsafeMutableBufferPointer { out in
            for x in 0..<width { WebP.LossyUpsampler.store(Int32(y[x]), u[x], v[x], out.baseAddress! + 4 * x) }
        }
        return rgba
    }

    static func convert(y: [UInt8], nearU: [UInt8], nearV: [UInt8], farU: [UInt8], farV: [UInt8],
                        width: Int) -> [UInt8] {
        let scratch = WebP.LossyUpsampler.scratchBytes(width: width)
        let scratchU = UnsafeMutableRawPointer.allocate(byteCount: scratch, alignment: 16)
        let scratchV = UnsafeMutableRawPointer.allocate(byteCount: scratch, alignment: 16)
        defer { scratchU.deallocate(); scratchV.deallocate() }
        var rgba = [UInt8](repeating: 0, count: 4 * width)
        rgba.withUnsafeMutableBufferPointer { out in
            WebP.LossyUpsampler.convertRow(y: y, nearU: nearU, nearV: nearV, farU: farU, farV: farV,
                                           dst: out.baseAddress!, width: width, scratchU: scratchU, scratchV: scratchV)
        }
        return rgba
    }

    @Test func randomRowsEqualLibwebpsScalarPath() {
        var random = SplitMix(seed: 16)
        var mismatches: [Int] = []
        for width in 1...70 {
            for _ in 0..<4 {
                // Chroma rows are readable to a multiple of 8 samples, as the decoder's cache rows are.
                let chroma = ((width + 1) / 2 + 7) / 8 * 8
                func row(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
                let y = row(width), nearU = row(chroma), nearV = row(chroma), farU = row(chroma), farV = row(chroma)
                if Self.convert(y: y, nearU: nearU, nearV: nearV, farU: farU, farV: farV, width: width)
                    != Self.reference(y: y, nearU: nearU, nearV: nearV, farU: farU, farV: farV, width: width) {
                    mismatches.append(width)
                }
            }
        }
        #expect(mismatches.isEmpty, "widths \(mismatches)")
    }

    /// Flat chroma rows upsample to themselves, so a row of every Y checks the conversion
    /// of each (Y, U, V) on the vector path.
    @Test func everyLumaWithSpreadChromaEqualsScalarConversion() {
        let y = (0...255).map { UInt8($0) }
        var mismatches = 0
        for u in stride(from: 0, through: 255, by: 17) {
            for v in stride(from: 3, through: 255, by: 21) {
                let rowU = [UInt8](repeating: UInt8(u), count: 128), rowV = [UInt8](repeating: UInt8(v), count: 128)
                if Self.convert(y: y, nearU: rowU, nearV: rowV, farU: rowU, farV: rowV, width: 256)
                    != Self.reference(y: y, nearU: rowU, nearV: rowV, farU: rowU, farV: rowV, width: 256) {
                    mismatches += 1
                }
            }
        }
        #expect(mismatches == 0)
    }
}
