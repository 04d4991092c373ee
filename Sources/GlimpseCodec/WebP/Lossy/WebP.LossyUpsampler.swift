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
            // 16 pairs at a time in 16-bit lanes (every intermediate stays below 2^11).
            while x &+ 15 <= lastPair {
                // Samples x − 1 … x + 15 are readable (x + 15 ≤ lastPair), and outputs
                // 2x − 1 … 2x + 30 ≤ 2·lastPair ≤ width − 1 are writable.
                let nearLeft = Wide(truncatingIfNeeded: UnsafeRawPointer(near + (x &- 1)).loadUnaligned(as: SIMD16<UInt8>.self))
                let nearRight = Wide(truncatingIfNeeded: UnsafeRawPointer(near + x).loadUnaligned(as: SIMD16<UInt8>.self))
                let farLeft = Wide(truncatingIfNeeded: UnsafeRawPointer(far + (x &- 1)).loadUnaligned(as: SIMD16<UInt8>.self))
                let farRight = Wide(truncatingIfNeeded: UnsafeRawPointer(far + x).loadUnaligned(as: SIMD16<UInt8>.self))
                let sum = nearLeft &+ nearRight &+ farLeft &+ farRight &+ 8
                let diagonal = (sum &+ ((nearRight &+ farLeft) &<< 1)) &>> 3
                let anti = (sum &+ ((nearLeft &+ farRight) &<< 1)) &>> 3
                let odd = (diagonal &+ nearLeft) &>> 1, even = (anti &+ nearRight) &>> 1
                // Little-endian 16-bit lanes put `odd` at byte 2x − 1 + 2k and `even` right after it.
                UnsafeMutableRawPointer(out + (2 &* x &- 1)).storeBytes(of: odd | (even &<< 8), as: Wide.self)
                x &+= 16
            }
            if x > 1 {
                n0 = Int32(near[x &- 1]); f0 = Int32(far[x &- 1])
            }
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

        /// Sixteen 16-bit lanes: SSE2 multiplies, shifts and compares them natively
        /// (32-bit lane multiplies are emulated there, several instructions each).
        private typealias Wide = SIMD16<UInt16>

        /// libwebp's clip of a 14-bit fixed-point channel to 0…255, for a value held
        /// modulo 2^16. Every channel value lies in −19660…34237, so after the logical
        /// shift by 6 the in-range and too-large values are 0…534 and the negative ones
        /// 716…1023: 640 separates them.
        @inline(__always)
        private static func clip8(_ v: Wide) -> Wide {
            // The masks come from arithmetic shifts of small signed differences: SIMD
            // comparisons with `replacing(with:where:)` were compiled lane by lane.
            let q = unsafeBitCast(v &>> 6, to: SIMD16<Int16>.self)
            let tooLarge = (255 &- q) &>> 15, negative = (639 &- q) &>> 15
            return unsafeBitCast((q | tooLarge) & ~negative & 255, to: Wide.self)
        }

        /// 16 pixels of ``store(_:_:_:_:)`` at once, written as 64 bytes of RGBA.
        ///
        /// Each product `(x · c) >> 8` is split as `x · (c >> 8) + ((x · (c & 255)) >> 8)`,
        /// exact because `x · c = 256 · x · (c >> 8) + x · (c & 255)`; both parts fit 16 bits.
        /// The sums are taken modulo 2^16, as the clip expects. Checked
        /// against the scalar formula for every (Y, U, V).
        @inline(__always)
        private static func convert16(_ y: UnsafePointer<UInt8>, _ u: UnsafePointer<UInt8>, _ v: UnsafePointer<UInt8>,
                                      _ dst: UnsafeMutablePointer<UInt8>) {
            // 16 bytes are readable at y, u and v, and 64 writable at dst (checked by the caller's loop bound).
            let yy = Wide(truncatingIfNeeded: UnsafeRawPointer(y).loadUnaligned(as: SIMD16<UInt8>.self))
            let uu = Wide(truncatingIfNeeded: UnsafeRawPointer(u).loadUnaligned(as: SIMD16<UInt8>.self))
            let vv = Wide(truncatingIfNeeded: UnsafeRawPointer(v).loadUnaligned(as: SIMD16<UInt8>.self))
            let luma = yy &* 74 &+ ((yy &* 133) &>> 8)                                   // y · 19077 >> 8
            let r = clip8(luma &+ vv &* 102 &+ ((vv &* 37) &>> 8) &- 14234)              // v · 26149 >> 8
            let g = clip8(luma &- (uu &* 25 &+ ((uu &* 19) &>> 8))                       // u · 6419 >> 8
                          &- (vv &* 52 &+ (vv &>> 5)) &+ 8708)                           // v · 13320 >> 8
            let b = clip8(luma &+ uu &* 129 &+ ((uu &* 26) &>> 8) &- 17685)              // u · 33050 >> 8
            let rg = r | (g &<< 8), ba = b | 0xff00
            let rgba = SIMD16<UInt32>(truncatingIfNeeded: rg) | (SIMD16<UInt32>(truncatingIfNeeded: ba) &<< 16)
            // Little-endian lanes put R in the lowest byte, so memory reads R, G, B, A.
            UnsafeMutableRawPointer(dst).storeBytes(of: rgba, as: SIMD16<UInt32>.self)
        }
    }
}
