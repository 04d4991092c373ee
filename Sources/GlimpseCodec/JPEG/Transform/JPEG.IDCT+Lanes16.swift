extension JPEG.IDCT {
    /// Eight 16-bit samples or coefficients: one row (or, after the transpose, one column) of a block.
    typealias Row16 = SIMD8<Int16>
    typealias Wide = SIMD8<Int32>

    /// One 8-point islow pass on eight 16-bit lanes with libjpeg-turbo's SIMD
    /// arithmetic (jidctint-sse2/-avx2): the factored odd part with its
    /// 16-bit sums (z3 = x7 + x3, z4 = x5 + x1), every product a 16 × 16 → 32-bit
    /// product of a pair (`pmaddwd`), 32-bit accumulation, then
    /// `(value + round) >> shift` in 32 bits.
    ///
    /// These are the same integers as jidctint.c whenever the 16-bit sums do
    /// not overflow, which holds for every coefficient an encoder produces;
    /// where they do (hostile data), the result is libjpeg-turbo's SIMD result.
    // `@inline(always)` (Swift 6.2+), not `@inline(__always)`: the latter is only a hint, and
    // the optimiser left this function as a call (its result tuple went through memory).
    @inline(always)
    static func pass16(_ x0: Row16, _ x1: Row16, _ x2: Row16, _ x3: Row16,
                       _ x4: Row16, _ x5: Row16, _ x6: Row16, _ x7: Row16,
                       round: Int32, shift: Int32)
        -> (Wide, Wide, Wide, Wide, Wide, Wide, Wide, Wide) {
        // Lane by lane: the generic `init(truncatingIfNeeded:)` is not always inlined.
        @inline(__always) func w(_ v: Row16) -> Wide {
            Wide(Int32(v[0]), Int32(v[1]), Int32(v[2]), Int32(v[3]), Int32(v[4]), Int32(v[5]), Int32(v[6]), Int32(v[7]))
        }
        // Even part. tmp0/tmp1 = (x0 ± x4) << 13, the sums taken in 16 bits as libjpeg-turbo does.
        let sum04 = w(x0 &+ x4) &<< Int32(constBits), diff04 = w(x0 &- x4) &<< Int32(constBits)
        let w2 = w(x2), w6 = w(x6)
        let tmp2e = w2 &* 4433 &+ w6 &* -10704          // x2·F_0_541 + x6·(F_0_541 − F_1_847)
        let tmp3e = w2 &* 10703 &+ w6 &* 4433           // x2·(F_0_541 + F_0_765) + x6·F_0_541
        let r = Wide(repeating: round)
        let tmp10 = sum04 &+ tmp3e &+ r, tmp13 = sum04 &- tmp3e &+ r
        let tmp11 = diff04 &+ tmp2e &+ r, tmp12 = diff04 &- tmp2e &+ r
        // Odd part.
        let w1 = w(x1), w3 = w(x3), w5 = w(x5), w7 = w(x7)
        let z3 = w(x7 &+ x3), z4 = w(x5 &+ x1)
        let z3p = z3 &* -6436 &+ z4 &* 9633              // z3·(F_1_175 − F_1_961) + z4·F_1_175
        let z4p = z3 &* 9633 &+ z4 &* 6437               // z3·F_1_175 + z4·(F_1_175 − F_0_390)
        let tmp0 = w7 &* -4927 &+ w1 &* -7373 &+ z3p     // x7·(F_0_298 − F_0_899) − x1·F_0_899
        let tmp3 = w7 &* -7373 &+ w1 &* 4926 &+ z4p      // −x7·F_0_899 + x1·(F_1_501 − F_0_899)
        let tmp1 = w5 &* -4176 &+ w3 &* -20995 &+ z4p    // x5·(F_2_053 − F_2_562) − x3·F_2_562
        let tmp2 = w5 &* -20995 &+ w3 &* 4177 &+ z3p     // −x5·F_2_562 + x3·(F_3_072 − F_2_562)
        @inline(__always) func out(_ v: Wide) -> Wide { v &>> shift }
        return (out(tmp10 &+ tmp3), out(tmp11 &+ tmp2), out(tmp12 &+ tmp1), out(tmp13 &+ tmp0),
                out(tmp13 &- tmp0), out(tmp12 &- tmp1), out(tmp11 &- tmp2), out(tmp10 &- tmp3))
    }

    /// The low 16 bits of each lane. libjpeg-turbo saturates here (`packssdw`); the two agree
    /// whenever the first pass's results fit in 16 bits, as they do for any coefficients an
    /// encoder writes. Wrapping keeps LLVM from turning the transpose that follows into
    /// 32-bit compares and blends (measured: ~100 more instructions per block).
    @inline(__always)
    static func narrow16(_ v: Wide) -> Row16 {
        Row16(Int16(truncatingIfNeeded: v[0]), Int16(truncatingIfNeeded: v[1]), Int16(truncatingIfNeeded: v[2]),
              Int16(truncatingIfNeeded: v[3]), Int16(truncatingIfNeeded: v[4]), Int16(truncatingIfNeeded: v[5]),
              Int16(truncatingIfNeeded: v[6]), Int16(truncatingIfNeeded: v[7]))
    }

    /// Two columns to bytes with unsigned saturation (`packssdw` + `packuswb`; the
    /// same as saturating to 16 bits first): `a` in the low half, `b` in the high half.
    @inline(__always)
    static func packBytes(_ a: Wide, _ b: Wide) -> SIMD16<UInt8> {
        var r = SIMD16<UInt8>()
        for i in 0..<8 {
            let x = a[i], y = b[i]
            r[i] = UInt8(truncatingIfNeeded: x < 0 ? 0 : (x > 255 ? 255 : x))
            r[i &+ 8] = UInt8(truncatingIfNeeded: y < 0 ? 0 : (y > 255 ? 255 : y))
        }
        return r
    }

    /// Transposes an 8x8 matrix of 16-bit values held as eight rows: three
    /// rounds of interleaving (16-, 32-, then 64-bit units), i.e. `punpck*`.
    @inline(__always)
    static func transpose(_ m: (Row16, Row16, Row16, Row16, Row16, Row16, Row16, Row16))
        -> (Row16, Row16, Row16, Row16, Row16, Row16, Row16, Row16) {
        @inline(__always) func lo16(_ a: Row16, _ b: Row16) -> Row16 { Row16(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3]) }
        @inline(__always) func hi16(_ a: Row16, _ b: Row16) -> Row16 { Row16(a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7]) }
        @inline(__always) func lo32(_ a: Row16, _ b: Row16) -> Row16 { Row16(a[0], a[1], b[0], b[1], a[2], a[3], b[2], b[3]) }
        @inline(__always) func hi32(_ a: Row16, _ b: Row16) -> Row16 { Row16(a[4], a[5], b[4], b[5], a[6], a[7], b[6], b[7]) }
        @inline(__always) func lo64(_ a: Row16, _ b: Row16) -> Row16 { Row16(a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]) }
        @inline(__always) func hi64(_ a: Row16, _ b: Row16) -> Row16 { Row16(a[4], a[5], a[6], a[7], b[4], b[5], b[6], b[7]) }
        let t0 = lo16(m.0, m.1), t1 = hi16(m.0, m.1), t2 = lo16(m.2, m.3), t3 = hi16(m.2, m.3)
        let t4 = lo16(m.4, m.5), t5 = hi16(m.4, m.5), t6 = lo16(m.6, m.7), t7 = hi16(m.6, m.7)
        let u0 = lo32(t0, t2), u1 = hi32(t0, t2), u2 = lo32(t1, t3), u3 = hi32(t1, t3)
        let u4 = lo32(t4, t6), u5 = hi32(t4, t6), u6 = lo32(t5, t7), u7 = hi32(t5, t7)
        return (lo64(u0, u4), hi64(u0, u4), lo64(u1, u5), hi64(u1, u5),
                lo64(u2, u6), hi64(u2, u6), lo64(u3, u7), hi64(u3, u7))
    }

    /// The full 8x8 islow transform of 16-bit coefficients (natural order)
    /// with a 16-bit quantisation table, as libjpeg-turbo's SIMD code does it:
    /// dequantisation by 16-bit multiplies (`pmullw`), columns, transpose,
    /// rows, transpose; the output saturated to 0…255 (`packsswb` + 128).
    @inline(__always)
    static func islow8x8(_ block: UnsafePointer<Int16>, _ quant: UnsafePointer<Int16>,
                         _ out: UnsafeMutablePointer<UInt8>, _ stride: Int) {
        let b = UnsafeRawPointer(block), q = UnsafeRawPointer(quant)
        // In bounds: a block and a table are 64 values each.
        @inline(__always) func row(_ r: Int) -> Row16 {
            b.loadUnaligned(fromByteOffset: r &* 16, as: Row16.self) &* q.loadUnaligned(fromByteOffset: r &* 16, as: Row16.self)
        }
        let r0 = row(0), r1 = row(1), r2 = row(2), r3 = row(3), r4 = row(4), r5 = row(5), r6 = row(6), r7 = row(7)
        // With every dequantised value within ±1024 no first-pass result leaves 16 bits (the
        // largest row sum of the pass's constants is 61214 / 2^11 ≈ 30 per unit), so wrapping
        // there equals libjpeg-turbo's saturation. Beyond that (only hostile data gets there)
        // the exact path runs. One test per variant: every lane of its non-zero rows, biased,
        // below 2^11 (zero rows pass anyway, so the lighter variants test fewer rows).
        let bias = Row16(repeating: 1024)
        @inline(__always) func outside(_ biased: Row16) -> Bool {
            let bits = unsafeBitCast(biased & Row16(repeating: ~2047), to: SIMD2<UInt64>.self)
            return bits[0] | bits[1] != 0
        }
        // Most blocks of a photo (nearly all chroma blocks) have no coefficient outside the
        // top-left 4x4 quadrant: then rows 4…7 are zero, and so are the first pass's columns
        // 4…7 ((0 + 2^10) >> 11 = 0), and both passes run with four zero inputs.
        let lower = unsafeBitCast(r4 | r5 | r6 | r7, to: SIMD2<UInt64>.self)
        let upper = unsafeBitCast(r0 | r1 | r2 | r3, to: SIMD2<UInt64>.self)
        if lower[0] | lower[1] | upper[1] == 0 {
            // Within 4x4; within 2x2 as well when rows 2 and 3 are zero and so are columns 2 and 3
            // of rows 0 and 1 (the upper 32 bits of the low half).
            let rows23 = unsafeBitCast(r2 | r3, to: SIMD2<UInt64>.self)[0]
            let rows01 = unsafeBitCast(r0 | r1, to: SIMD2<UInt64>.self)[0]
            if rows23 | (rows01 &>> 32) == 0 {
                if outside((r0 &+ bias) | (r1 &+ bias)) {
                    exact8x8(block, r0, r1, r2, r3, r4, r5, r6, r7, out, stride)
                } else {
                    corner8x8(r0, r1, out, stride)
                }
            } else if outside((r0 &+ bias) | (r1 &+ bias) | (r2 &+ bias) | (r3 &+ bias)) {
                exact8x8(block, r0, r1, r2, r3, r4, r5, r6, r7, out, stride)
            } else {
                quadrant8x8(r0, r1, r2, r3, out, stride)
            }
        } else if outside((r0 &+ bias) | (r1 &+ bias) | (r2 &+ bias) | (r3 &+ bias)
                          | (r4 &+ bias) | (r5 &+ bias) | (r6 &+ bias) | (r7 &+ bias)) {
            exact8x8(block, r0, r1, r2, r3, r4, r5, r6, r7, out, stride)
        } else {
            full8x8(r0, r1, r2, r3, r4, r5, r6, r7, out, stride)
        }
    }

    /// Both passes and the store for a block with coefficients anywhere.
    @inline(never)
    static func full8x8(_ r0: Row16, _ r1: Row16, _ r2: Row16, _ r3: Row16, _ r4: Row16, _ r5: Row16, _ r6: Row16,
                        _ r7: Row16, _ out: UnsafeMutablePointer<UInt8>, _ stride: Int) {
        let shift2 = constBits + pass1Bits + 3
        let m = pass16(r0, r1, r2, r3, r4, r5, r6, r7,
                       round: 1 << (constBits - pass1Bits - 1), shift: Int32(constBits - pass1Bits))
        let t = transpose((narrow16(m.0), narrow16(m.1), narrow16(m.2), narrow16(m.3),
                           narrow16(m.4), narrow16(m.5), narrow16(m.6), narrow16(m.7)))
        // The +128 level shift rides on the rounding constant: ⌊(v + 128·2^18) / 2^18⌋ = ⌊v / 2^18⌋ + 128.
        let o = pass16(t.0, t.1, t.2, t.3, t.4, t.5, t.6, t.7,
                       round: (1 << (shift2 - 1)) + (128 << shift2), shift: Int32(shift2))
        storeColumns(o, out, stride)
    }

    /// The full transform for coefficients too large for ``islow8x8(_:_:_:_:)``'s shortcut,
    /// as libjpeg-turbo's SIMD code computes it: when rows 1…7 of the (raw) coefficients are
    /// zero its first pass is a 16-bit shift of row 0, which wraps; otherwise the first pass
    /// saturates to 16 bits (`packssdw`).
    @inline(never)
    static func exact8x8(_ block: UnsafePointer<Int16>, _ r0: Row16, _ r1: Row16, _ r2: Row16, _ r3: Row16,
                         _ r4: Row16, _ r5: Row16, _ r6: Row16, _ r7: Row16,
                         _ out: UnsafeMutablePointer<UInt8>, _ stride: Int) {
        var rowsBelowZero = true
        for k in 8..<64 where block[k] != 0 { rowsBelowZero = false }
        @inline(__always) func saturate(_ v: Wide) -> Row16 {
            var r = Row16()
            for i in 0..<8 { r[i] = Int16(truncatingIfNeeded: min(max(v[i], -32768), 32767)) }
            return r
        }
        let shift2 = constBits + pass1Bits + 3
        let m = pass16(r0, r1, r2, r3, r4, r5, r6, r7,
                       round: 1 << (constBits - pass1Bits - 1), shift: Int32(constBits - pass1Bits))
        let n = rowsBelowZero
            ? (narrow16(m.0), narrow16(m.1), narrow16(m.2), narrow16(m.3), narrow16(m.4), narrow16(m.5), narrow16(m.6), narrow16(m.7))
            : (saturate(m.0), saturate(m.1), saturate(m.2), saturate(m.3), saturate(m.4), saturate(m.5), saturate(m.6), saturate(m.7))
        let t = transpose(n)
        let o = pass16(t.0, t.1, t.2, t.3, t.4, t.5, t.6, t.7,
                       round: (1 << (shift2 - 1)) + (128 << shift2), shift: Int32(shift2))
        storeColumns(o, out, stride)
    }

    /// The same transform when only the top-left 4x4 coefficients can be non-zero: the same
    /// integers, with the zero inputs folded away. Out of line so that LLVM folds them
    /// (inlined next to the full transform it did not).
    @inline(never)
    static func quadrant8x8(_ r0: Row16, _ r1: Row16, _ r2: Row16, _ r3: Row16,
                            _ out: UnsafeMutablePointer<UInt8>, _ stride: Int) {
        let z = Row16()
        let shift2 = constBits + pass1Bits + 3
        let m = pass16(r0, r1, r2, r3, z, z, z, z,
                       round: 1 << (constBits - pass1Bits - 1), shift: Int32(constBits - pass1Bits))
        let t = transpose((narrow16(m.0), narrow16(m.1), narrow16(m.2), narrow16(m.3),
                           narrow16(m.4), narrow16(m.5), narrow16(m.6), narrow16(m.7)))
        let o = pass16(t.0, t.1, t.2, t.3, z, z, z, z,
                       round: (1 << (shift2 - 1)) + (128 << shift2), shift: Int32(shift2))
        storeColumns(o, out, stride)
    }

    /// The same when only the top-left 2x2 coefficients can be non-zero.
    @inline(never)
    static func corner8x8(_ r0: Row16, _ r1: Row16, _ out: UnsafeMutablePointer<UInt8>, _ stride: Int) {
        let z = Row16()
        let shift2 = constBits + pass1Bits + 3
        let m = pass16(r0, r1, z, z, z, z, z, z,
                       round: 1 << (constBits - pass1Bits - 1), shift: Int32(constBits - pass1Bits))
        let t = transpose((narrow16(m.0), narrow16(m.1), narrow16(m.2), narrow16(m.3),
                           narrow16(m.4), narrow16(m.5), narrow16(m.6), narrow16(m.7)))
        let o = pass16(t.0, t.1, z, z, z, z, z, z,
                       round: (1 << (shift2 - 1)) + (128 << shift2), shift: Int32(shift2))
        storeColumns(o, out, stride)
    }

    /// Saturates the second pass's columns to bytes and stores them as rows.
    @inline(always)
    static func storeColumns(_ o: (Wide, Wide, Wide, Wide, Wide, Wide, Wide, Wide),
                             _ out: UnsafeMutablePointer<UInt8>, _ stride: Int) {
        // Columns to bytes, then an 8x8 byte transpose: pairs of columns (bytes), quads (16-bit
        // units), then rows (32-bit units), i.e. `punpck*bw`, `*wd`, `*dq`.
        typealias Bytes = SIMD16<UInt8>
        let p0 = packBytes(o.0, o.2), p1 = packBytes(o.1, o.3), p2 = packBytes(o.4, o.6), p3 = packBytes(o.5, o.7)
        @inline(__always) func lo8(_ a: Bytes, _ b: Bytes) -> Bytes {
            Bytes(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3], a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7])
        }
        @inline(__always) func hi8(_ a: Bytes, _ b: Bytes) -> Bytes {
            Bytes(a[8], b[8], a[9], b[9], a[10], b[10], a[11], b[11], a[12], b[12], a[13], b[13], a[14], b[14], a[15], b[15])
        }
        @inline(__always) func lo16(_ a: Bytes, _ b: Bytes) -> Bytes {
            Bytes(a[0], a[1], b[0], b[1], a[2], a[3], b[2], b[3], a[4], a[5], b[4], b[5], a[6], a[7], b[6], b[7])
        }
        @inline(__always) func hi16(_ a: Bytes, _ b: Bytes) -> Bytes {
            Bytes(a[8], a[9], b[8], b[9], a[10], a[11], b[10], b[11], a[12], a[13], b[12], b[13], a[14], a[15], b[14], b[15])
        }
        @inline(__always) func lo32(_ a: Bytes, _ b: Bytes) -> Bytes {
            Bytes(a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3], a[4], a[5], a[6], a[7], b[4], b[5], b[6], b[7])
        }
        @inline(__always) func hi32(_ a: Bytes, _ b: Bytes) -> Bytes {
            Bytes(a[8], a[9], a[10], a[11], b[8], b[9], b[10], b[11], a[12], a[13], a[14], a[15], b[12], b[13], b[14], b[15])
        }
        let q0 = lo8(p0, p1), q1 = hi8(p0, p1), q2 = lo8(p2, p3), q3 = hi8(p2, p3)
        let r0 = lo16(q0, q1), r1 = hi16(q0, q1), r2 = lo16(q2, q3), r3 = hi16(q2, q3)
        let rows01 = lo32(r0, r2), rows23 = hi32(r0, r2), rows45 = lo32(r1, r3), rows67 = hi32(r1, r3)
        // `out` addresses eight rows of eight samples `stride` apart. Byte stores of consecutive
        // lanes, which LLVM merges into one 8-byte store (generic `storeBytes` is not always inlined).
        @inline(__always) func store(_ v: Bytes, _ half: Int, _ row: Int) {
            let o = out + row &* stride
            for k in 0..<8 { o[k] = v[half &+ k] }
        }
        store(rows01, 0, 0); store(rows01, 8, 1); store(rows23, 0, 2); store(rows23, 8, 3)
        store(rows45, 0, 4); store(rows45, 8, 5); store(rows67, 0, 6); store(rows67, 8, 7)
    }
}
