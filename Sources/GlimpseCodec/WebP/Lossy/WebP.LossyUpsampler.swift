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
        /// `(width + 1) / 2` readable chroma samples, `width` luma samples and
        /// `4 * width` writable bytes.
        static func convertRow(y: UnsafePointer<UInt8>,
                               nearU: UnsafePointer<UInt8>, nearV: UnsafePointer<UInt8>,
                               farU: UnsafePointer<UInt8>, farV: UnsafePointer<UInt8>,
                               dst: UnsafeMutablePointer<UInt8>, width: Int) {
            let lastPair = (width &- 1) >> 1
            var nu0 = Int32(nearU[0]), nv0 = Int32(nearV[0])
            var fu0 = Int32(farU[0]), fv0 = Int32(farV[0])
            store(Int32(y[0]), (3 &* nu0 &+ fu0 &+ 2) &>> 2, (3 &* nv0 &+ fv0 &+ 2) &>> 2, dst)
            var x = 1
            while x <= lastPair {
                let nu1 = Int32(nearU[x]), nv1 = Int32(nearV[x])
                let fu1 = Int32(farU[x]), fv1 = Int32(farV[x])
                // libwebp's diagonal formulation: both pixels share the 4-sample sum.
                let sumU = nu0 &+ nu1 &+ fu0 &+ fu1 &+ 8, sumV = nv0 &+ nv1 &+ fv0 &+ fv1 &+ 8
                let diagonalU = (sumU &+ 2 &* (nu1 &+ fu0)) &>> 3, antiU = (sumU &+ 2 &* (nu0 &+ fu1)) &>> 3
                let diagonalV = (sumV &+ 2 &* (nv1 &+ fv0)) &>> 3, antiV = (sumV &+ 2 &* (nv0 &+ fv1)) &>> 3
                store(Int32(y[2 &* x &- 1]), (diagonalU &+ nu0) &>> 1, (diagonalV &+ nv0) &>> 1, dst + (2 &* x &- 1) &* 4)
                store(Int32(y[2 &* x]), (antiU &+ nu1) &>> 1, (antiV &+ nv1) &>> 1, dst + 2 &* x &* 4)
                nu0 = nu1; nv0 = nv1; fu0 = fu1; fv0 = fv1
                x &+= 1
            }
            if width & 1 == 0 {
                store(Int32(y[width &- 1]), (3 &* nu0 &+ fu0 &+ 2) &>> 2, (3 &* nv0 &+ fv0 &+ 2) &>> 2,
                      dst + (width &- 1) &* 4)
            }
        }
    }
}
