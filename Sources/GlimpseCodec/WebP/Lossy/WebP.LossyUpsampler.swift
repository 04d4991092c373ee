/// 4:2:0 chroma upsampling and YUV→RGB conversion as libwebp's default
/// ("fancy") output path does them (`dsp/upsampling.c`, `dsp/yuv.h`), so the
/// pixels equal `WebPDecodeRGBA`'s.
///
/// Each output row takes its chroma from the nearer chroma row (weight 3) and
/// the farther one (weight 1); horizontally, each pixel mixes its two nearest
/// chroma columns 3:1 through libwebp's two-step diagonal rounding. The first
/// row, and the last when the height is even, have no farther row and use the
/// nearer one twice. The conversion is BT.601 in 14-bit fixed point with
/// libwebp's constants and its clip.
extension WebP {
    enum LossyUpsampler {
        @inline(__always)
        private static func mulHi(_ v: Int32, _ c: Int32) -> Int32 { (v &* c) &>> 8 }

        @inline(__always)
        private static func clip8(_ v: Int32) -> UInt8 {
            // In range when no bit outside 0..<(256 << 6) is set.
            (v & ~16383) == 0 ? UInt8(truncatingIfNeeded: v &>> 6) : v < 0 ? 0 : 255
        }

        /// Writes one RGBA pixel (alpha 255) from Y, U and V (libwebp `VP8YuvToRgba`).
        @inline(__always)
        static func store(_ y: Int32, _ u: Int32, _ v: Int32, _ dst: UnsafeMutablePointer<UInt8>) {
            let luma = mulHi(y, 19077)
            dst[0] = clip8(luma &+ mulHi(v, 26149) &- 14234)
            dst[1] = clip8(luma &- mulHi(u, 6419) &- mulHi(v, 13320) &+ 8708)
            dst[2] = clip8(luma &+ mulHi(u, 33050) &- 17685)
            dst[3] = 255
        }

        /// Converts one output row of `width` pixels. `nearU`/`nearV` are the
        /// chroma row nearer to this luma row, `farU`/`farV` the other one
        /// (the same row at the image's top and bottom). The caller guarantees
        /// `(width + 1) / 2` readable chroma samples, `width` luma samples,
        /// `4 * width` writable bytes at `dst` and `width + 16` bytes in each
        /// of `scratchU` and `scratchV`, which receive the upsampled chroma.
        static func convertRow(y: UnsafePointer<UInt8>,
                               nearU: UnsafePointer<UInt8>, nearV: UnsafePointer<UInt8>,
                               farU: UnsafePointer<UInt8>, farV: UnsafePointer<UInt8>,
                               dst: UnsafeMutablePointer<UInt8>, width: Int,
                               scratchU: UnsafeMutablePointer<UInt8>, scratchV: UnsafeMutablePointer<UInt8>) {
            upsample(near: nearU, far: farU, into: scratchU, width: width)
            upsample(near: nearV, far: farV, into: scratchV, width: width)
            var x = 0
            // 16 pixels at a time; the tail is converted one pixel at a time.
            while x &+ 16 <= width {
                convert16(y + x, scratchU + x, scratchV + x, dst + x &* 4)
                x &+= 16
            }
            while x < width {
                store(Int32(y[x]), Int32(scratchU[x]), Int32(scratchV[x]), dst + x &* 4)
                x &+= 1
            }
        }

        /// One chroma plane of a row at full width: libwebp's diagonal
        /// formulation, where both pixels of a pair share the 4-sample sum.
        @inline(__always)
        private static func upsample(near: UnsafePointer<UInt8>, far: UnsafePointer<UInt8>,
                                     into out: UnsafeMutablePointer<UInt8>, width: Int) {
            let lastPair = (width &- 1) >> 1
            var n0 = Int32(near[0]), f0 = Int32(far[0])
            out[0] = UInt8(truncatingIfNeeded: (3 &* n0 &+ f0 &+ 2) &>> 2)
            var x = 1
            while x <= lastPair {
                let n1 = Int32(near[x]), f1 = Int32(far[x])
                let sum = n0 &+ n1 &+ f0 &+ f1 &+ 8
                let diagonal = (sum &+ 2 &* (n1 &+ f0)) &>> 3, anti = (sum &+ 2 &* (n0 &+ f1)) &>> 3
                out[2 &* x &- 1] = UInt8(truncatingIfNeeded: (diagonal &+ n0) &>> 1)
                out[2 &* x] = UInt8(truncatingIfNeeded: (anti &+ n1) &>> 1)
                n0 = n1; f0 = f1
                x &+= 1
            }
            if width & 1 == 0 {
                out[width &- 1] = UInt8(truncatingIfNeeded: (3 &* n0 &+ f0 &+ 2) &>> 2)
            }
        }

        private typealias Lanes = SIMD16<Int32>

        @inline(__always)
        private static func clip8(_ v: Lanes) -> Lanes {
            // Same as the scalar clip: in range values are v >> 6, the rest saturate.
            // Clamped to 0...255 with shifts and masks, which compile to vector
            // instructions (the generic pointwiseMin/Max go lane by lane).
            let x = v &>> 6
            let low = x & ~(x &>> 31)
            let over = low &- 255
            return 255 &+ (over & (over &>> 31))
        }

        /// 16 pixels of ``store(_:_:_:_:)`` at once, written as 64 bytes of RGBA.
        @inline(__always)
        private static func convert16(_ y: UnsafePointer<UInt8>, _ u: UnsafePointer<UInt8>, _ v: UnsafePointer<UInt8>,
                                      _ dst: UnsafeMutablePointer<UInt8>) {
            // 16 bytes are readable at y, u and v, and 64 writable at dst (checked by the caller's loop bound).
            let yy = Lanes(truncatingIfNeeded: UnsafeRawPointer(y).loadUnaligned(as: SIMD16<UInt8>.self))
            let uu = Lanes(truncatingIfNeeded: UnsafeRawPointer(u).loadUnaligned(as: SIMD16<UInt8>.self))
            let vv = Lanes(truncatingIfNeeded: UnsafeRawPointer(v).loadUnaligned(as: SIMD16<UInt8>.self))
            let luma = (yy &* 19077) &>> 8
            let r = clip8(luma &+ ((vv &* 26149) &>> 8) &- 14234)
            let g = clip8(luma &- ((uu &* 6419) &>> 8) &- ((vv &* 13320) &>> 8) &+ 8708)
            let b = clip8(luma &+ ((uu &* 33050) &>> 8) &- 17685)
            let rgba = SIMD16<UInt32>(truncatingIfNeeded: r | (g &<< 8) | (b &<< 16)) | SIMD16<UInt32>(repeating: 0xff00_0000)
            // Little-endian lanes put R in the lowest byte, so memory reads R, G, B, A.
            UnsafeMutableRawPointer(dst).storeBytes(of: rgba, as: SIMD16<UInt32>.self)
        }
    }
}
