extension JPEG.ForwardDCT {
    /// Eight 16-bit samples or coefficients: one row (or, after a transpose, one column) of a block.
    typealias Row16 = SIMD8<Int16>
    typealias Wide = SIMD8<Int32>
    typealias Block16 = (Row16, Row16, Row16, Row16, Row16, Row16, Row16, Row16)

    /// Transforms and quantises the 8 × 8 samples at `samples` (rows `stride`
    /// bytes apart) into `output` (natural order) with libjpeg-turbo's SIMD
    /// arithmetic (jfdctint-sse2/-avx2, jquanti-sse2/-avx2): 16-bit lanes,
    /// every product a paired 16 × 16 → 32-bit product (`pmaddwd`), 32-bit
    /// rounding shifts packed back to 16 bits, quantisation by two unsigned
    /// multiply-highs (`pmulhuw`). For 8-bit samples no 16-bit sum or packed
    /// result leaves its range (the DC sum of pass 2 peaks at 64 · 128 · 4 =
    /// 32768 in magnitude, −32768 exactly), so these are the same integers as
    /// ``transform(_:)`` followed by ``quantize(_:divisors:into:)``.
    /// Returns whether every AC coefficient is zero (then natural and zig-zag
    /// order are the same), which smooth images make the common case.
    @inline(__always)
    static func transformBlock(_ samples: UnsafePointer<UInt8>, stride: Int, divisors: UnsafePointer<SIMD8<UInt16>>,
                               into output: UnsafeMutablePointer<Row16>) -> Bool {
        // The two passes meet in `output` (64 values) rather than in registers: fused, LLVM
        // merged the widening, transposes and narrowing into byte gathers and emulated 32-bit
        // multiplies (`pmuludq`) instead of `pmaddwd` (measured: ~1000 instructions a block,
        // against ~560 for the two out-of-line passes).
        firstPass(samples, stride: stride, into: output)
        return secondPass(output, divisors: divisors)
    }

    /// Pass 1 on the rows of the 8 × 8 samples at `samples` (minus 128) into
    /// `block`, stored transposed (row j holds column j), ready for the column pass.
    @inline(never)
    static func firstPass(_ samples: UnsafePointer<UInt8>, stride: Int, into block: UnsafeMutablePointer<Row16>) {
        // Rows 2i and 2i + 1 side by side as 16-bit lanes (byte pairs): masking and shifting split
        // them into their even and odd columns, already widened (`pand`, `psrlw`). Widening each
        // row by itself, LLVM merged the widening into the transpose's first round and spent ~60
        // instructions on loads and shuffles where this takes ~30.
        @inline(__always) func rowPair(_ i: Int) -> (even: Row16, odd: Row16) {
            // Rows 2i and 2i + 1 (< 8): the caller's plane holds 8 rows of `stride` ≥ 8 bytes here.
            let a = UnsafeRawPointer(samples + (2 &* i) &* stride).loadUnaligned(as: SIMD4<UInt16>.self)
            let b = UnsafeRawPointer(samples + (2 &* i &+ 1) &* stride).loadUnaligned(as: SIMD4<UInt16>.self)
            let pairs = SIMD8<UInt16>(lowHalf: a, highHalf: b).littleEndianPairs
            return (unsafeBitCast(pairs & 0x00FF, to: Row16.self) &- 128, unsafeBitCast(pairs &>> 8, to: Row16.self) &- 128)
        }
        let r01 = rowPair(0), r23 = rowPair(1), r45 = rowPair(2), r67 = rowPair(3)
        let even = columns(r01.even, r23.even, r45.even, r67.even)
        let odd = columns(r01.odd, r23.odd, r45.odd, r67.odd)
        let p = pass((even.0, odd.0, even.1, odd.1, even.2, odd.2, even.3, odd.3), first: true)
        // Vector k holds coefficient k of every row: column k of the intermediate matrix.
        block[0] = p.0; block[1] = p.1; block[2] = p.2; block[3] = p.3
        block[4] = p.4; block[5] = p.5; block[6] = p.6; block[7] = p.7
    }

    /// Pass 2 on the columns (stored as rows by ``firstPass(_:)``), then
    /// quantisation; the coefficients go back into `block` in natural order.
    /// Returns whether every AC coefficient is zero.
    @inline(never)
    static func secondPass(_ block: UnsafeMutablePointer<Row16>, divisors: UnsafePointer<SIMD8<UInt16>>) -> Bool {
        // Vector i holds row i of the intermediate result again.
        let r = pass(transpose((block[0], block[1], block[2], block[3], block[4], block[5], block[6], block[7])), first: false)
        // Three tables of eight vectors: reciprocals, corrections, scales (QuantizationTable.divisors16),
        // 16-byte aligned like `block`, so that LLVM folds the loads into `pmulhuw`, `paddw`.
        @inline(__always) func quantize(_ v: Row16, _ i: Int) -> Row16 {
            let q = quantize16(v, reciprocal: divisors[i], correction: divisors[8 &+ i], scale: divisors[16 &+ i])
            block[i] = q
            return q
        }
        // The OR of every coefficient but the DC (lane 0 of row 0).
        var ac = quantize(r.0, 0) & Row16(0, -1, -1, -1, -1, -1, -1, -1)
        ac |= quantize(r.1, 1); ac |= quantize(r.2, 2); ac |= quantize(r.3, 3)
        ac |= quantize(r.4, 4); ac |= quantize(r.5, 5); ac |= quantize(r.6, 6); ac |= quantize(r.7, 7)
        let halves = unsafeBitCast(ac, to: SIMD2<UInt64>.self)
        return halves[0] | halves[1] == 0
    }

    /// The high 16 bits of the unsigned 32-bit products (`pmulhuw`).
    @inline(__always)
    static func multiplyHigh(_ a: SIMD8<UInt16>, _ b: SIMD8<UInt16>) -> SIMD8<UInt16> {
        var r = SIMD8<UInt16>()
        for i in 0..<8 { r[i] = UInt16(truncatingIfNeeded: (UInt32(a[i]) &* UInt32(b[i])) &>> 16) }
        return r
    }

    /// libjpeg-turbo's quantiser: |v| + correction, times the reciprocal
    /// (high half), times 2^(32 − shift) (high half), i.e. ⌊(|v| + c) · r / 2^shift⌋,
    /// with v's sign. |v| < 2^15 and c ≤ 1021, so the sum fits 16 unsigned bits.
    @inline(__always)
    static func quantize16(_ v: Row16, reciprocal: SIMD8<UInt16>, correction: SIMD8<UInt16>,
                           scale: SIMD8<UInt16>) -> Row16 {
        let sign = v &>> 15
        let magnitude = unsafeBitCast((v ^ sign) &- sign, to: SIMD8<UInt16>.self)
        let q = multiplyHigh(multiplyHigh(magnitude &+ correction, reciprocal), scale)
        return (unsafeBitCast(q, to: Row16.self) ^ sign) &- sign
    }

    /// Two 32-bit halves (lanes 0..<4, 4..<8) of a row of products.
    typealias Halves = (SIMD4<Int32>, SIMD4<Int32>)

    /// Lanes 0..<4 (`punpcklwd`) or 4..<8 (`punpckhwd`) of `a` and `b` interleaved: a0 b0 a1 b1 ….
    @inline(__always)
    private static func interleave(_ a: Row16, _ b: Row16) -> (low: Row16, high: Row16) {
        (Row16(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3]), Row16(a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7]))
    }

    /// Per lane a · c0 + b · c1 in 32 bits, from `interleave(a, b)`: two `pmaddwd`.
    @inline(__always)
    private static func multiplyAdd(_ pairs: (low: Row16, high: Row16), _ c0: Int32, _ c1: Int32) -> Halves {
        (pairProducts(pairs.low, Int16(c0), Int16(c1)), pairProducts(pairs.high, Int16(c0), Int16(c1)))
    }

    /// Lanes 2i · c0 + 2i+1 · c1 of `v`: `pmaddwd`, written as the widened
    /// product whose even and odd lanes are added, which LLVM recognises.
    /// Each result must stay a separate 4-lane vector up to its rounding
    /// shift: joined into 8 lanes, or summed with other products before the
    /// pairs are formed, LLVM regrouped the sums and fell back to one
    /// `pmaddwd` per product plus shuffles (~50 instructions more per pass).
    @inline(__always)
    private static func pairProducts(_ v: Row16, _ c0: Int16, _ c1: Int16) -> SIMD4<Int32> {
        let c = Row16(c0, c1, c0, c1, c0, c1, c0, c1)
        let p = Wide(Int32(v[0]), Int32(v[1]), Int32(v[2]), Int32(v[3]), Int32(v[4]), Int32(v[5]), Int32(v[6]), Int32(v[7]))
            &* Wide(Int32(c[0]), Int32(c[1]), Int32(c[2]), Int32(c[3]), Int32(c[4]), Int32(c[5]), Int32(c[6]), Int32(c[7]))
        return SIMD4<Int32>(p[0], p[2], p[4], p[6]) &+ SIMD4<Int32>(p[1], p[3], p[5], p[7])
    }

    @inline(__always)
    private static func add(_ a: Halves, _ b: Halves) -> Halves { (a.0 &+ b.0, a.1 &+ b.1) }

    /// `(v + 2^(n−1)) >> n` in 32 bits, saturated to 16 (as libjpeg-turbo packs).
    @inline(__always)
    private static func descale(_ v: Halves, _ n: Int32) -> Row16 {
        let rounding = SIMD4<Int32>(repeating: 1 &<< (n &- 1))
        return narrow16(Wide(lowHalf: (v.0 &+ rounding) &>> n, highHalf: (v.1 &+ rounding) &>> n))
    }

    /// One 8-point pass of jfdctint on eight lanes, arranged as libjpeg-turbo's
    /// SIMD code arranges it: z1 of the even part and z1, z2, z5 of the odd
    /// part folded into the constants of paired products (the same integers,
    /// as multiplication distributes exactly and no sum of two products
    /// leaves 32 bits).
    @inline(always)
    private static func pass(_ d: Block16, first: Bool) -> Block16 {
        let tmp0 = d.0 &+ d.7, tmp7 = d.0 &- d.7
        let tmp1 = d.1 &+ d.6, tmp6 = d.1 &- d.6
        let tmp2 = d.2 &+ d.5, tmp5 = d.2 &- d.5
        let tmp3 = d.3 &+ d.4, tmp4 = d.3 &- d.4
        let tmp10 = tmp0 &+ tmp3, tmp13 = tmp0 &- tmp3
        let tmp11 = tmp1 &+ tmp2, tmp12 = tmp1 &- tmp2
        let out0: Row16, out4: Row16
        if first {
            out0 = (tmp10 &+ tmp11) &<< 2
            out4 = (tmp10 &- tmp11) &<< 2
        } else {
            out0 = (tmp10 &+ tmp11 &+ 2) &>> 2
            out4 = (tmp10 &- tmp11 &+ 2) &>> 2
        }
        let bits = first ? constBits &- pass1Bits : constBits &+ pass1Bits
        // Even part: tmp13·(F_0_541 + F_0_765) + tmp12·F_0_541, tmp13·F_0_541 + tmp12·(F_0_541 − F_1_847).
        let even = interleave(tmp13, tmp12)
        let out2 = descale(multiplyAdd(even, fix0_541196100 &+ fix0_765366865, fix0_541196100), bits)
        let out6 = descale(multiplyAdd(even, fix0_541196100, fix0_541196100 &- fix1_847759065), bits)
        // Odd part: z3·(F_1_175 − F_1_961) + z4·F_1_175 and z3·F_1_175 + z4·(F_1_175 − F_0_390);
        // tmp4·(F_0_298 − F_0_899) − tmp7·F_0_899, −tmp4·F_0_899 + tmp7·(F_1_501 − F_0_899),
        // tmp5·(F_2_053 − F_2_562) − tmp6·F_2_562, −tmp5·F_2_562 + tmp6·(F_3_072 − F_2_562).
        let z = interleave(tmp4 &+ tmp6, tmp5 &+ tmp7)
        let z3 = multiplyAdd(z, fix1_175875602 &- fix1_961570560, fix1_175875602)
        let z4 = multiplyAdd(z, fix1_175875602, fix1_175875602 &- fix0_390180644)
        let p47 = interleave(tmp4, tmp7), p56 = interleave(tmp5, tmp6)
        let t4 = multiplyAdd(p47, fix0_298631336 &- fix0_899976223, 0 &- fix0_899976223)
        let t7 = multiplyAdd(p47, 0 &- fix0_899976223, fix1_501321110 &- fix0_899976223)
        let t5 = multiplyAdd(p56, fix2_053119869 &- fix2_562915447, 0 &- fix2_562915447)
        let t6 = multiplyAdd(p56, 0 &- fix2_562915447, fix3_072711026 &- fix2_562915447)
        let out7 = descale(add(t4, z3), bits)
        let out1 = descale(add(t7, z4), bits)
        let out5 = descale(add(t5, z4), bits)
        let out3 = descale(add(t6, z3), bits)
        return (out0, out1, out2, out3, out4, out5, out6, out7)
    }

    /// Each lane saturated to 16 bits (`packssdw`, as libjpeg-turbo packs; for
    /// 8-bit samples every value fits anyway). Saturating rather than wrapping
    /// matters for the code LLVM makes: with a truncation it needs only the low
    /// bits of each product, rewrites the constants modulo 2^27 and loses `pmaddwd`.
    @inline(always)
    private static func narrow16(_ v: Wide) -> Row16 {
        var r = Row16()
        for i in 0..<8 { r[i] = Int16(truncatingIfNeeded: min(max(v[i], -32768), 32767)) }
        return r
    }

    /// Four of the eight columns of an 8 × 8 matrix, as vectors with the rows
    /// as lanes, from four vectors each holding those columns of two rows
    /// (`p01` = row 0's four, then row 1's; `p23`, `p45`, `p67` likewise):
    /// three rounds of interleaving, as in ``transpose(_:)``.
    @inline(__always)
    private static func columns(_ p01: Row16, _ p23: Row16, _ p45: Row16, _ p67: Row16) -> (Row16, Row16, Row16, Row16) {
        typealias W = SIMD4<Int32>
        @inline(__always) func lo16(_ a: Row16, _ b: Row16) -> W { unsafeBitCast(Row16(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3]), to: W.self) }
        @inline(__always) func hi16(_ a: Row16, _ b: Row16) -> W { unsafeBitCast(Row16(a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7]), to: W.self) }
        @inline(__always) func lo32(_ a: W, _ b: W) -> Row16 { unsafeBitCast(W(a[0], b[0], a[1], b[1]), to: Row16.self) }
        @inline(__always) func hi32(_ a: W, _ b: W) -> Row16 { unsafeBitCast(W(a[2], b[2], a[3], b[3]), to: Row16.self) }
        // Rows (0, 2), (1, 3), (4, 6), (5, 7) paired per column…
        let a = lo16(p01, p23), b = hi16(p01, p23), c = lo16(p45, p67), d = hi16(p45, p67)
        // …rows 0, 2, 4, 6 and 1, 3, 5, 7 of the first two columns (e, g) and the last two (f, h)…
        let e = lo32(a, c), f = hi32(a, c), g = lo32(b, d), h = hi32(b, d)
        // …interleaved into rows 0…7.
        return (Row16(e[0], g[0], e[1], g[1], e[2], g[2], e[3], g[3]), Row16(e[4], g[4], e[5], g[5], e[6], g[6], e[7], g[7]),
                Row16(f[0], h[0], f[1], h[1], f[2], h[2], f[3], h[3]), Row16(f[4], h[4], f[5], h[5], f[6], h[6], f[7], h[7]))
    }

    /// Transposes an 8 × 8 matrix of 16-bit values held as eight rows: three
    /// rounds of interleaving (16-, 32-, then 64-bit units), i.e. `punpck*`.
    /// Each round is written in its own lane width: written as 16-bit
    /// shuffles throughout, LLVM merged the rounds into shuffles SSE2 lacks
    /// (~240 instructions instead of ~50).
    @inline(__always)
    private static func transpose(_ m: Block16) -> Block16 {
        typealias W = SIMD4<Int32>
        typealias Q = SIMD2<Int64>
        @inline(__always) func lo16(_ a: Row16, _ b: Row16) -> W { unsafeBitCast(Row16(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3]), to: W.self) }
        @inline(__always) func hi16(_ a: Row16, _ b: Row16) -> W { unsafeBitCast(Row16(a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7]), to: W.self) }
        @inline(__always) func lo32(_ a: W, _ b: W) -> Q { unsafeBitCast(W(a[0], b[0], a[1], b[1]), to: Q.self) }
        @inline(__always) func hi32(_ a: W, _ b: W) -> Q { unsafeBitCast(W(a[2], b[2], a[3], b[3]), to: Q.self) }
        @inline(__always) func lo64(_ a: Q, _ b: Q) -> Row16 { unsafeBitCast(Q(a[0], b[0]), to: Row16.self) }
        @inline(__always) func hi64(_ a: Q, _ b: Q) -> Row16 { unsafeBitCast(Q(a[1], b[1]), to: Row16.self) }
        let t0 = lo16(m.0, m.1), t1 = hi16(m.0, m.1), t2 = lo16(m.2, m.3), t3 = hi16(m.2, m.3)
        let t4 = lo16(m.4, m.5), t5 = hi16(m.4, m.5), t6 = lo16(m.6, m.7), t7 = hi16(m.6, m.7)
        let u0 = lo32(t0, t2), u1 = hi32(t0, t2), u2 = lo32(t1, t3), u3 = hi32(t1, t3)
        let u4 = lo32(t4, t6), u5 = hi32(t4, t6), u6 = lo32(t5, t7), u7 = hi32(t5, t7)
        return (lo64(u0, u4), hi64(u0, u4), lo64(u1, u5), hi64(u1, u5),
                lo64(u2, u6), hi64(u2, u6), lo64(u3, u7), hi64(u3, u7))
    }
}
