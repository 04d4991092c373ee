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
    @inline(__always)
    static func transformBlock(_ samples: UnsafePointer<UInt8>, stride: Int, divisors: UnsafePointer<UInt16>,
                               into output: UnsafeMutablePointer<Int16>) {
        // The two passes meet in `output` (64 values) rather than in registers: fused, LLVM
        // merged the widening, transposes and narrowing into byte gathers and emulated 32-bit
        // multiplies (`pmuludq`) instead of `pmaddwd` (measured: ~1000 instructions a block,
        // against ~560 for the two out-of-line passes).
        firstPass(samples, stride: stride, into: output)
        secondPass(output, divisors: divisors)
    }

    /// Loads the 8 rows of a 64-value block.
    @inline(__always)
    private static func load(_ block: UnsafePointer<Int16>) -> Block16 {
        // `block` holds 64 values: row i is bytes 16i ..< 16i + 16.
        let b = UnsafeRawPointer(block)
        @inline(__always) func row(_ i: Int) -> Row16 { b.loadUnaligned(fromByteOffset: i &* 16, as: Row16.self) }
        return (row(0), row(1), row(2), row(3), row(4), row(5), row(6), row(7))
    }

    /// Pass 1 on the rows of the 8 × 8 samples at `samples` (minus 128) into
    /// `block`, stored transposed (row j holds column j), ready for the column pass.
    @inline(never)
    static func firstPass(_ samples: UnsafePointer<UInt8>, stride: Int, into block: UnsafeMutablePointer<Int16>) {
        @inline(__always) func row(_ i: Int) -> Row16 {
            // Eight samples of row i: the caller's plane holds 8 rows of `stride` ≥ 8 bytes here.
            let b = UnsafeRawPointer(samples + i &* stride).loadUnaligned(as: SIMD8<UInt8>.self)
            return Row16(Int16(b[0]), Int16(b[1]), Int16(b[2]), Int16(b[3]),
                         Int16(b[4]), Int16(b[5]), Int16(b[6]), Int16(b[7])) &- 128
        }
        let p = pass(transpose((row(0), row(1), row(2), row(3), row(4), row(5), row(6), row(7))), first: true)
        // Vector k holds coefficient k of every row: column k of the intermediate matrix.
        let o = UnsafeMutableRawPointer(block)
        o.storeBytes(of: p.0, toByteOffset: 0, as: Row16.self)
        o.storeBytes(of: p.1, toByteOffset: 16, as: Row16.self)
        o.storeBytes(of: p.2, toByteOffset: 32, as: Row16.self)
        o.storeBytes(of: p.3, toByteOffset: 48, as: Row16.self)
        o.storeBytes(of: p.4, toByteOffset: 64, as: Row16.self)
        o.storeBytes(of: p.5, toByteOffset: 80, as: Row16.self)
        o.storeBytes(of: p.6, toByteOffset: 96, as: Row16.self)
        o.storeBytes(of: p.7, toByteOffset: 112, as: Row16.self)
    }

    /// Pass 2 on the columns (stored as rows by ``firstPass(_:)``), then
    /// quantisation; the coefficients go back into `block` in natural order.
    @inline(never)
    static func secondPass(_ block: UnsafeMutablePointer<Int16>, divisors: UnsafePointer<UInt16>) {
        // Vector i holds row i of the intermediate result again.
        let r = pass(transpose(load(block)), first: false)
        // Three 64-entry tables: reciprocals, corrections, scales (QuantizationTable.divisors16).
        let d = UnsafeRawPointer(divisors), o = UnsafeMutableRawPointer(block)
        @inline(__always) func quantize(_ v: Row16, _ i: Int) {
            let offset = i &* 16
            let q = quantize16(v, reciprocal: d.loadUnaligned(fromByteOffset: offset, as: SIMD8<UInt16>.self),
                               correction: d.loadUnaligned(fromByteOffset: 128 &+ offset, as: SIMD8<UInt16>.self),
                               scale: d.loadUnaligned(fromByteOffset: 256 &+ offset, as: SIMD8<UInt16>.self))
            // Row i is bytes 16i ..< 16i + 16 of the 64-value block.
            o.storeBytes(of: q, toByteOffset: offset, as: Row16.self)
        }
        quantize(r.0, 0); quantize(r.1, 1); quantize(r.2, 2); quantize(r.3, 3)
        quantize(r.4, 4); quantize(r.5, 5); quantize(r.6, 6); quantize(r.7, 7)
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

    @inline(always)
    private static func widen(_ v: Row16) -> Wide {
        Wide(Int32(v[0]), Int32(v[1]), Int32(v[2]), Int32(v[3]), Int32(v[4]), Int32(v[5]), Int32(v[6]), Int32(v[7]))
    }

    /// `(v + 2^(n−1)) >> n` in 32 bits, saturated to 16 (as libjpeg-turbo packs).
    @inline(always)
    private static func descale(_ v: Wide, _ n: Int32) -> Row16 {
        narrow16((v &+ Wide(repeating: 1 &<< (n &- 1))) &>> Wide(repeating: n))
    }

    /// One 8-point pass of jfdctint on eight lanes, arranged as libjpeg-turbo's
    /// SIMD code arranges it: the even part's z1 and the odd part's z1, z2, z5
    /// folded into the constants of paired products (the same integers, as
    /// multiplication distributes exactly).
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
        // Every constant below is positive (negative products are subtracted): LLVM turns a
        // 32-bit product of a sign-extended 16-bit value and a constant under 2^15 into
        // `pmaddwd`, but a negative constant into emulated 32-bit multiplies (`pmuludq`).
        let w12 = widen(tmp12), w13 = widen(tmp13)
        let out2 = descale(w13 &* (fix0_541196100 &+ fix0_765366865) &+ w12 &* fix0_541196100, bits)
        let out6 = descale(w13 &* fix0_541196100 &- w12 &* (fix1_847759065 &- fix0_541196100), bits)
        let w4 = widen(tmp4), w5 = widen(tmp5), w6 = widen(tmp6), w7 = widen(tmp7)
        let z3 = widen(tmp4 &+ tmp6), z4 = widen(tmp5 &+ tmp7)
        // z3·(F_1_175 − F_1_961) + z4·F_1_175 and z3·F_1_175 + z4·(F_1_175 − F_0_390).
        let z3p = z4 &* fix1_175875602 &- z3 &* (fix1_961570560 &- fix1_175875602)
        let z4p = z3 &* fix1_175875602 &+ z4 &* (fix1_175875602 &- fix0_390180644)
        // tmp4·(F_0_298 − F_0_899) − tmp7·F_0_899, −tmp4·F_0_899 + tmp7·(F_1_501 − F_0_899),
        // tmp5·(F_2_053 − F_2_562) − tmp6·F_2_562, −tmp5·F_2_562 + tmp6·(F_3_072 − F_2_562).
        let t4 = w4 &* (fix0_899976223 &- fix0_298631336) &+ w7 &* fix0_899976223
        let t7 = w7 &* (fix1_501321110 &- fix0_899976223) &- w4 &* fix0_899976223
        let t5 = w5 &* (fix2_562915447 &- fix2_053119869) &+ w6 &* fix2_562915447
        let t6 = w6 &* (fix3_072711026 &- fix2_562915447) &- w5 &* fix2_562915447
        let out7 = descale(z3p &- t4, bits)
        let out1 = descale(t7 &+ z4p, bits)
        let out5 = descale(z4p &- t5, bits)
        let out3 = descale(t6 &+ z3p, bits)
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
