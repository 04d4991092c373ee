/// The full 4×4 inverse DCT of ``WebP/LossyTransform`` on two horizontally
/// adjacent blocks at once, in eight 16-bit lanes (block A in lanes 0–3, block
/// B in 4–7), in the arithmetic of libwebp's SSE2 `Transform`, which is the one
/// libwebp runs on x86-64: every sum wraps modulo 2^16 and the multipliers
/// 20091/65536 + 1 and 35468/65536 are applied as `x + (x · k) >> 16` with
/// k = 20091 and k = 35468 − 65536 = −30068, both within `Int16`.
///
/// For coefficients whose intermediates stay within `Int16` (every block of a
/// real encoder's stream: |coefficient| ≤ 2048 keeps the largest sum, about
/// 14.8 × 2048, in range) this equals the scalar ``WebP/LossyTransform/inverseDCT(_:_:)``
/// exactly, which the tests check; beyond that both libwebp builds already
/// disagree with each other (its C transform computes in `int`), and this one
/// follows the SSE2 build.
///
/// Swift exposes no `pmulhw`; written lane by lane as a 32-bit product shifted
/// by 16, LLVM vectorises it into one (`highProduct`). The kernels are small
/// `@inline(__always)` functions using bit casts, lane arithmetic and lane
/// lists that compile to shuffles, so that they stay vector code (checked with
/// `objdump`). Lane lists are straight-line code for the Swift optimiser, where
/// the standard library's vector shifts, masks and conversions are loops that
/// count against its inlining budget and were left as calls.
extension WebP.LossyTransform {
    typealias Lanes = SIMD8<Int16>
    private typealias Interleave = WebP.LaneInterleave

    /// `(x · k) >> 16` in every lane (`pmulhw`).
    @inline(__always)
    private static func highProduct(_ x: Lanes, _ k: Int16) -> Lanes {
        @inline(__always) func lane(_ v: Int16) -> Int16 { Int16(truncatingIfNeeded: (Int32(v) &* Int32(k)) &>> 16) }
        return Lanes(lane(x[0]), lane(x[1]), lane(x[2]), lane(x[3]), lane(x[4]), lane(x[5]), lane(x[6]), lane(x[7]))
    }

    /// `(x · 85627) >> 16` (libwebp's `MUL1`, 20091/65536 + 1) as SSE2 computes it.
    @inline(__always)
    private static func multiply1(_ x: Lanes) -> Lanes { x &+ highProduct(x, 20091) }

    /// `(x · 35468) >> 16` (libwebp's `MUL2`) as SSE2 computes it, with 35468 − 65536.
    @inline(__always)
    private static func multiply2(_ x: Lanes) -> Lanes { x &+ highProduct(x, -30068) }

    /// One 1-D pass over four rows (or, after a transpose, columns) of both blocks.
    @inline(__always)
    private static func pass(_ i0: Lanes, _ i1: Lanes, _ i2: Lanes, _ i3: Lanes) -> (Lanes, Lanes, Lanes, Lanes) {
        let a = i0 &+ i2, b = i0 &- i2
        let c = multiply2(i1) &- multiply1(i3), d = multiply1(i1) &+ multiply2(i3)
        return (a &+ d, b &+ c, b &- c, a &- d)
    }

    /// Transposes the two 4×4 blocks (rows r0…r3, A in the low half, B in the high half).
    @inline(__always)
    private static func transpose(_ r0: Lanes, _ r1: Lanes, _ r2: Lanes, _ r3: Lanes) -> (Lanes, Lanes, Lanes, Lanes) {
        let t0 = Interleave.low16(r0, r1), t1 = Interleave.low16(r2, r3)
        let t2 = Interleave.high16(r0, r1), t3 = Interleave.high16(r2, r3)
        let u0 = Interleave.low32(t0, t1), u1 = Interleave.low32(t2, t3)
        let u2 = Interleave.high32(t0, t1), u3 = Interleave.high32(t2, t3)
        return (Interleave.low64(u0, u1), Interleave.high64(u0, u1), Interleave.low64(u2, u3), Interleave.high64(u2, u3))
    }

    /// Eight bytes as eight 16-bit lanes (an interleave with zeros: `punpcklbw`).
    @inline(__always)
    private static func widen(_ bytes: UInt64) -> Lanes {
        let b = unsafeBitCast(bytes, to: SIMD8<UInt8>.self)
        return Lanes(Int16(b[0]), Int16(b[1]), Int16(b[2]), Int16(b[3]), Int16(b[4]), Int16(b[5]), Int16(b[6]), Int16(b[7]))
    }

    /// The low bytes of eight 16-bit lanes, each clamped to 0…255 first (`packuswb`).
    @inline(__always)
    private static func narrowClamping(_ x: Lanes) -> UInt64 {
        // Selects through masks (single instructions for the optimiser; see the loop filter),
        // which LLVM folds with the truncation below into `packuswb`.
        typealias Mask = SIMDMask<Lanes>
        @inline(__always) func select(_ m: Mask, _ a: Lanes, _ b: Lanes) -> Lanes {
            unsafeBitCast((m .& unsafeBitCast(a, to: Mask.self)) .| (.!m .& unsafeBitCast(b, to: Mask.self)), to: Lanes.self)
        }
        let zero = Lanes(), high = Lanes(repeating: 255)
        let raised = select(x .< zero, zero, x)
        let v = select(raised .> high, high, raised)
        let b = unsafeBitCast(v, to: SIMD16<UInt8>.self)
        return unsafeBitCast(SIMD8<UInt8>(b[0], b[2], b[4], b[6], b[8], b[10], b[12], b[14]), to: UInt64.self)
    }

    /// Adds a row of residue to eight (or, with `two` false, four) pixels at `p`,
    /// wrapping in 16 bits and saturating to 0…255 like SSE2's `paddw` + `packuswb`.
    @inline(__always)
    private static func addRow(_ p: UnsafeMutablePointer<UInt8>, _ residue: Lanes, two: Bool) {
        let raw = UnsafeMutableRawPointer(p)
        // The caller guarantees 8 (or 4) bytes at p; with `two` false the upper lanes hold a
        // copy of the four bytes (not zeros, as in `transform`) and are never stored.
        let bytes = two ? raw.loadUnaligned(as: UInt64.self) : UInt64(raw.loadUnaligned(as: UInt32.self)) &* 0x1_0000_0001
        let packed = narrowClamping(widen(bytes) &+ residue)
        if two {
            raw.storeBytes(of: packed, as: UInt64.self)
        } else {
            raw.storeBytes(of: UInt32(truncatingIfNeeded: packed), as: UInt32.self)
        }
    }

    @inline(__always)
    private static func transform(_ input: UnsafePointer<Int16>, _ dst: UnsafeMutablePointer<UInt8>, two: Bool) {
        let raw = UnsafeRawPointer(input)
        @inline(__always) func row(_ k: Int) -> Lanes {
            // Row k of block A (4 Int16 at offset 8k bytes) and, when `two`, of block B 32 bytes on.
            let a = raw.loadUnaligned(fromByteOffset: k &* 8, as: UInt64.self)
            // A single block fills the upper lanes with a copy of itself: with zeros there,
            // LLVM proves half the lanes constant and turns the first pass into scalar code.
            let b = two ? raw.loadUnaligned(fromByteOffset: 32 &+ k &* 8, as: UInt64.self) : a
            return unsafeBitCast(SIMD2<UInt64>(a, b), to: Lanes.self)
        }
        let (v0, v1, v2, v3) = pass(row(0), row(1), row(2), row(3))
        let (h0, h1, h2, h3) = transpose(v0, v1, v2, v3)
        let (w0, w1, w2, w3) = pass(h0 &+ Lanes(repeating: 4), h1, h2, h3)
        let (o0, o1, o2, o3) = transpose(w0 &>> 3, w1 &>> 3, w2 &>> 3, w3 &>> 3)
        let s = WebP.LossyPrediction.stride
        addRow(dst, o0, two: two)
        addRow(dst + s, o1, two: two)
        addRow(dst + 2 &* s, o2, two: two)
        addRow(dst + 3 &* s, o3, two: two)
    }

    /// The full inverse DCT of one block (16 coefficients at `input`) added to `dst`.
    static func vectorDCT(_ input: UnsafePointer<Int16>, _ dst: UnsafeMutablePointer<UInt8>) {
        transform(input, dst, two: false)
    }

    /// The full inverse DCT of two blocks, 16 coefficients apart at `input`,
    /// added to the 4×4 areas at `dst` and `dst + 4`.
    static func vectorDCTPair(_ input: UnsafePointer<Int16>, _ dst: UnsafeMutablePointer<UInt8>) {
        transform(input, dst, two: true)
    }
}
