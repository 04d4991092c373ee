/// 4:2:0 chroma upsampling and YUV→RGB conversion as libwebp's default
/// ("fancy") output path does them (`dsp/upsampling.c`, `dsp/yuv.h`), so the
/// pixels equal `WebPDecodeRGBA`'s.
///
/// Each output row takes its chroma from the nearer chroma row (weight 3) and
/// the farther one (weight 1); horizontally, each pixel mixes its two nearest
/// chroma columns 3:1. libwebp rounds this in two steps (a diagonal mix
/// `(3a + b + c + 3d + 8) >> 3` of the four samples, then the average with the
/// nearest one), which equals `(9a + 3b + 3c + d + 8) >> 4` exactly (nested floor
/// divisions by 8 and 2 are one by 16), so the mix is done as a vertical blend
/// `v = 3 · near + far` per chroma column and `(3 · v[nearer] + v[farther] + 8) >> 4`
/// per pixel. The first row, and the last when the height is even, have no
/// farther row and use the nearer one twice; the first and last columns repeat
/// their edge column. The conversion is BT.601 in 14-bit fixed point with
/// libwebp's constants and its clip.
///
/// Both steps work in eight 16-bit lanes. The chroma of a row is upsampled per
/// plane into 16-bit entries in pixel order (the even and odd pixels of 16 come out
/// of separate lanes, so they are interleaved once), then the conversion takes
/// eight consecutive pixels at a time and interleaves its RG and BA halves into
/// RGBA words. Every vector is 128 bits wide: SSE2 (x86-64's baseline) has those
/// lanes' multiplies, min/max and unpacks, and Swift inlines conversions between
/// SIMD types of 128 bits or less (wider ones were out-of-line calls), which lets
/// LLVM form the multiply-high (`pmulhuw`), the saturating subtraction
/// (`psubusw`) and the interleaves (`punpck…`) libwebp writes with intrinsics
/// (`dsp/yuv_sse2.c`). Two output interleaves in a row (even/odd pixels, then
/// RG/BA) were compiled partly into scalar lane moves, hence the pixel-order
/// chroma rows.
extension WebP {
    enum LossyUpsampler {
        /// The nearer and the farther chroma row of luma `row` for fancy upsampling
        /// (libwebp's `UpsampleRgbaLinePair`): row 0 uses chroma row 0 twice; an odd row
        /// the chroma rows above and below it (the last twice), an even row its own and
        /// the one above.
        static func chromaRows(forLumaRow row: Int, chromaHeight: Int) -> (near: Int, far: Int) {
            if row == 0 { return (0, 0) }
            if row & 1 == 1 {
                let near = (row &- 1) >> 1
                return (near, (row &+ 1) >> 1 < chromaHeight ? (row &+ 1) >> 1 : near)
            }
            return (row >> 1, (row >> 1) &- 1)
        }

        private typealias Lanes = SIMD8<UInt16>
        private typealias SignedLanes = SIMD8<Int16>

        /// Bytes of scratch one plane needs for a row of `width` pixels: 16-bit vertical
        /// blends for the chroma columns with a padding entry on each side and room for
        /// the last vector store and read, then the upsampled row, 16 bits per pixel,
        /// with a guard entry in front, rounded up to whole vectors.
        static func scratchBytes(width: Int) -> Int { blendBytes(width: width) &+ 2 &* (width &+ 32) }

        private static func blendBytes(width: Int) -> Int { 2 &* ((width &+ 1) >> 1 &+ 24) }

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
        /// `(width + 1) / 2` chroma samples, rounded up to a multiple of 8, readable
        /// in each chroma row, `width` luma samples, `4 * width` writable bytes at
        /// `dst`, and ``scratchBytes(width:)`` bytes at each of `scratchU` and `scratchV`.
        static func convertRow(y: UnsafePointer<UInt8>,
                               nearU: UnsafePointer<UInt8>, nearV: UnsafePointer<UInt8>,
                               farU: UnsafePointer<UInt8>, farV: UnsafePointer<UInt8>,
                               dst: UnsafeMutablePointer<UInt8>, width: Int,
                               scratchU: UnsafeMutableRawPointer, scratchV: UnsafeMutableRawPointer) {
            // Each upsampled row starts one guard entry after the blends.
            let rowU = scratchU + (blendBytes(width: width) &+ 2), rowV = scratchV + (blendBytes(width: width) &+ 2)
            upsample(near: nearU, far: farU, width: width, blends: scratchU, into: rowU)
            upsample(near: nearV, far: farV, width: width, blends: scratchV, into: rowV)
            convert(y: y, u: rowU, v: rowV, dst: dst, width: width)
        }

        /// One chroma plane of a row at full width, into `out`: the vertical blends of
        /// every column into `blends` (entry 1 + c for column c, the edge columns
        /// repeated into the entries on either side), then the horizontal mix of each
        /// pixel's column and its neighbour, 16 pixels at a time. The vectors write one
        /// entry in front of the row and up to 15 past `width`, from blends past the row
        /// (the scratch has room for both).
        private static func upsample(near: UnsafePointer<UInt8>, far: UnsafePointer<UInt8>, width: Int,
                                     blends: UnsafeMutableRawPointer, into out: UnsafeMutableRawPointer) {
            let count = (width &+ 1) >> 1
            var i = 0
            while i < count {
                // Samples i … i + 7 lie inside the chroma row (its readable length is a multiple
                // of 8), and entries up to count + 8 fit in the scratch (`blendBytes`).
                let n = widen(UnsafeRawPointer(near + i).loadUnaligned(as: SIMD8<UInt8>.self))
                let f = widen(UnsafeRawPointer(far + i).loadUnaligned(as: SIMD8<UInt8>.self))
                blends.storeBytes(of: n &* 3 &+ f, toByteOffset: 2 &* (i &+ 1), as: Lanes.self)
                i &+= 8
            }
            blends.storeBytes(of: blends.loadUnaligned(fromByteOffset: 2, as: UInt16.self), as: UInt16.self)
            blends.storeBytes(of: blends.loadUnaligned(fromByteOffset: 2 &* count, as: UInt16.self),
                              toByteOffset: 2 &* (count &+ 1), as: UInt16.self)
            // Pixel 2k + 1 mixes column k with column k + 1, and pixel 2k + 2 column k + 1 with
            // column k: each pair of neighbouring columns gives the odd pixel between them and
            // the even one after it, so two vectors of blends (columns k and k + 1) make
            // 16 pixels, 2k + 1 … 2k + 16, interleaved. Starting at column −1 (the padding
            // entry) writes pixel −1 into the guard entry in front of the row. Each value goes to
            // the high byte of its 16-bit entry, as the conversion wants it: ((x >> 4) << 8) ==
            // (x << 4) & 0xff00, and x ≤ 16 · 255 + 8 keeps x << 4 within 16 bits.
            var x = 0
            while x <= width {
                // Entries x/2 … x/2 + 8 ≤ count + 8 are inside the blends; pixels x − 1 … x + 14 ≤
                // width + 14 inside `out` and its guard entry.
                let column = UnsafeRawPointer(blends) + x
                let first = column.loadUnaligned(as: Lanes.self), second = column.loadUnaligned(fromByteOffset: 2, as: Lanes.self)
                let odd = ((first &* 3 &+ second &+ 8) &<< 4) & 0xff00
                let even = ((second &* 3 &+ first &+ 8) &<< 4) & 0xff00
                out.storeBytes(of: interleave(odd, even), toByteOffset: 2 &* x &- 2, as: SIMD8<UInt32>.self)
                x &+= 16
            }
        }

        /// Converts `width` pixels of full-resolution Y (bytes) and U and V (16-bit
        /// entries, value in the high byte), eight at a time, the rest one by one.
        private static func convert(y: UnsafePointer<UInt8>, u: UnsafeRawPointer, v: UnsafeRawPointer,
                                    dst: UnsafeMutablePointer<UInt8>, width: Int) {
            @inline(__always) func eight(_ x: Int) {
                // Eight bytes are readable at y + x, 16 at u and v + 2x, and 32 writable at dst + 4x
                // (the callers' loop bounds).
                let luma = widen(UnsafeRawPointer(y + x).loadUnaligned(as: SIMD8<UInt8>.self))
                let (rg, ba) = rgba8(y: luma, u: u.loadUnaligned(fromByteOffset: 2 &* x, as: Lanes.self),
                                     v: v.loadUnaligned(fromByteOffset: 2 &* x, as: Lanes.self))
                UnsafeMutableRawPointer(dst + x &* 4).storeBytes(of: interleave(rg, ba), as: SIMD8<UInt32>.self)
            }
            var x = 0
            // Two vectors a step: the loop's bookkeeping is a tenth of a vector's work.
            while x &+ 16 <= width {
                eight(x)
                eight(x &+ 8)
                x &+= 16
            }
            if x &+ 8 <= width {
                eight(x)
                x &+= 8
            }
            while x < width {
                store(Int32(y[x]), Int32(u.loadUnaligned(fromByteOffset: 2 &* x &+ 1, as: UInt8.self)),
                      Int32(v.loadUnaligned(fromByteOffset: 2 &* x &+ 1, as: UInt8.self)), dst + x &* 4)
                x &+= 1
            }
        }

        // Lane-width conversions of our own, deliberately left to LLVM to inline: the
        // standard library's `init(truncatingIfNeeded:)` specialisations are emitted once
        // per module, and with the package's multi-threaded whole-module build (one LLVM
        // module per file) they stay out-of-line calls from every other file. Each loop
        // compiles to one unpack or pack, then inlines as such.
        private static func widen(_ a: SIMD8<UInt8>) -> Lanes {
            var r = Lanes()
            for i in 0..<8 { r[i] = UInt16(truncatingIfNeeded: a[i]) }
            return r
        }

        private static func widen(_ a: Lanes) -> SIMD8<UInt32> {
            var r = SIMD8<UInt32>()
            for i in 0..<8 { r[i] = UInt32(truncatingIfNeeded: a[i]) }
            return r
        }

        private static func narrow(_ a: SIMD8<UInt32>) -> Lanes {
            var r = Lanes()
            for i in 0..<8 { r[i] = UInt16(truncatingIfNeeded: a[i]) }
            return r
        }

        /// `(a · c) >> 16` per lane: SSE2's `pmulhuw`, which LLVM forms from this
        /// widened product.
        @inline(__always)
        private static func mulHigh(_ a: Lanes, _ c: UInt32) -> Lanes {
            narrow((widen(a) &* c) &>> 16)
        }

        /// libwebp's conversion of eight pixels, Y as bytes and U and V in the high
        /// byte of each lane (so `mulHigh(x << 8, c)` is libwebp's `(x · c) >> 8`), as the
        /// RG and BA halves of eight RGBA words. R and G stay within Int16 (−14234 … 30815,
        /// −10953 … 27710) and are clipped after the arithmetic shift by 6; B reaches 34237,
        /// so its offset is subtracted with unsigned saturation first.
        @inline(__always)
        private static func rgba8(y: Lanes, u: Lanes, v: Lanes) -> (rg: Lanes, ba: Lanes) {
            // y · 19077 >> 8 split as y · 74 + (y · 133 >> 8) (19077 = 74 · 256 + 133; both parts
            // fit 16 bits): a multiply-high of a value LLVM knows to be a shifted byte is
            // rewritten into 32-bit products, which SSE2 lacks.
            let luma = y &* 74 &+ ((y &* 133) &>> 8)
            let r = unsafeBitCast(luma &+ mulHigh(v, 26149) &- 14234, to: SignedLanes.self) &>> 6
            let g = unsafeBitCast(luma &+ 8708 &- mulHigh(u, 6419) &- mulHigh(v, 13320), to: SignedLanes.self) &>> 6
            let b = unsafeBitCast((pointwiseMax(luma &+ mulHigh(u, 33050), Lanes(repeating: 17685)) &- 17685) &>> 6,
                                  to: SignedLanes.self)
            let low = SignedLanes.zero, high = SignedLanes(repeating: 255)
            let r8 = unsafeBitCast(pointwiseMin(pointwiseMax(r, low), high), to: Lanes.self)
            let g8 = unsafeBitCast(pointwiseMin(pointwiseMax(g, low), high), to: Lanes.self)
            let b8 = unsafeBitCast(pointwiseMin(b, high), to: Lanes.self)
            return (r8 | (g8 &<< 8), b8 | 0xff00)
        }

        /// RGBA words from the RG and BA halves: the 16-bit lanes of `rg` and `ba`
        /// alternately (SSE2's `punpcklwd` and `punpckhwd`).
        @inline(__always)
        private static func interleave(_ rg: Lanes, _ ba: Lanes) -> SIMD8<UInt32> {
            widen(rg) | (widen(ba) &<< 16)
        }
    }
}
