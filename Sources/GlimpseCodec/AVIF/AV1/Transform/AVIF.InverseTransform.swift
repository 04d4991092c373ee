extension AVIF {
    /// The inverse transform process (§7.13) and the reconstruct process that feeds it (§7.12.3),
    /// with the specification's working arrays `T`, `Dequant` and `Residual` kept between
    /// blocks so no transform block allocates.
    ///
    /// Arithmetic: `Dequant` is clamped to BitDepth + 8 signed bits (§7.12.3), every Hadamard
    /// step clamps to r ≤ 20 bits, a butterfly multiplies by at most 4096 twice and divides by
    /// 4096, and the residual between the passes is clamped to colClampRange; intermediate
    /// values therefore stay below 2^40 and the wrapping operators used here never wrap.
    struct InverseTransform: Sendable {
        /// `T`: the array the 1-D transforms work on in place (up to 64 entries). Inline, not
        /// an `Array`: each butterfly reads and writes it, and an array's write checks its
        /// buffer's uniqueness every time.
        var T: InlineArray<64, Int>
        /// `copyT`: the permutations' copy of `T`.
        var copyT: InlineArray<64, Int>
        /// `Dequant[ i ][ j ]` at `i * 32 + j` (at most 32×32 coefficients are coded).
        var dequant: [Int]
        /// `Residual[ i ][ j ]` at `i * 64 + j`.
        var residual: [Int]

        init() {
            T = InlineArray(repeating: 0)
            copyT = InlineArray(repeating: 0)
            dequant = [Int](repeating: 0, count: 32 * 32)
            residual = [Int](repeating: 0, count: 64 * 64)
        }

        /// Which 1-D transform a pass applies.
        enum Kind { case dct, adst, identity }

        /// The row (horizontal) transform of `PlaneTxType`, as §7.13.3 lists the types.
        static func rowKind(_ txType: Int) -> Kind {
            typealias K = AV1Tables
            switch txType {
            case K.DCT_DCT, K.ADST_DCT, K.FLIPADST_DCT, K.H_DCT: return .dct
            case K.DCT_ADST, K.ADST_ADST, K.DCT_FLIPADST, K.FLIPADST_FLIPADST, K.ADST_FLIPADST,
                 K.FLIPADST_ADST, K.H_ADST, K.H_FLIPADST: return .adst
            default: return .identity
            }
        }

        /// The column (vertical) transform of `PlaneTxType`, as §7.13.3 lists the types.
        static func columnKind(_ txType: Int) -> Kind {
            typealias K = AV1Tables
            switch txType {
            case K.DCT_DCT, K.DCT_ADST, K.DCT_FLIPADST, K.V_DCT: return .dct
            case K.ADST_DCT, K.ADST_ADST, K.FLIPADST_DCT, K.FLIPADST_FLIPADST, K.ADST_FLIPADST,
                 K.FLIPADST_ADST, K.V_ADST, K.V_FLIPADST: return .adst
            default: return .identity
            }
        }

        /// §7.13.2: one 1-D inverse transform of `1 << n` entries of `T` in place.
        ///
        /// The tile syntax only allows ADST up to 16 points and identity up to 32 (§5.11.47's
        /// transform sets); a longer ADST or identity, which no conforming stream gives, is
        /// done as the DCT of that length so every input still yields defined output.
        mutating func transform1D(_ kind: Kind, n: Int, r: Int) {
            switch kind {
            case .adst where n <= 4: inverseADST(n: n, r: r)
            case .identity where n <= 5: inverseIdentity(n: n)
            default: inverseDCT(n: n, r: r)
            }
        }

        /// §7.13.3, the 2D inverse transform process: `dequant` (coefficients i < 32, j < 32)
        /// to `residual` for `txSz` and `PlaneTxType` `txType`.
        mutating func inverseTransform2D(txSz txSzIn: Int, txType: Int, lossless: Bool, bitDepth: Int) {
            // The syntax only gives valid sizes; the bound keeps the table lookups in range regardless.
            let txSz = AV1Arithmetic.clip3(0, AV1Tables.TX_SIZES_ALL - 1, txSzIn)
            let log2W = AV1Tables.Tx_Width_Log2[txSz]
            let log2H = AV1Tables.Tx_Height_Log2[txSz]
            let w = 1 << log2W
            let h = 1 << log2H
            let rowShift = lossless ? 0 : AV1Tables.Transform_Row_Shift[txSz]
            let colShift = lossless ? 0 : 4
            let rowClampRange = bitDepth + 8
            let colClampRange = max(bitDepth + 6, 16)
            let rowKind = Self.rowKind(txType)
            let columnKind = Self.columnKind(txType)
            let rectangular = abs(log2W - log2H) == 1
            let colLow = -(1 << (colClampRange - 1))
            let colHigh = (1 << (colClampRange - 1)) - 1

            // Which residual rows the row pass leaves non-zero: with only row 0, a DCT column
            // pass is a constant per column (see `dcOnlyDCT`).
            var lastNonZeroRow = -1
            for i in 0..<h {
                // Every transform maps zeros to zeros, so a row without coefficients (all rows
                // from 32 on) gives a zero row without running the transform.
                var any = false
                var beyondFirst = false
                if i < 32 {
                    for j in 0..<min(w, 32) {
                        let v = dequant[i &* 32 &+ j]
                        T[j] = v
                        if v != 0 {
                            any = true
                            if j > 0 { beyondFirst = true }
                        }
                    }
                }
                if !any {
                    for j in 0..<w { residual[i &* 64 &+ j] = 0 }
                    continue
                }
                lastNonZeroRow = i
                if rectangular {
                    T[0] = AV1Arithmetic.round2(T[0] &* 2896, 12)
                    if beyondFirst { for j in 1..<min(w, 32) { T[j] = AV1Arithmetic.round2(T[j] &* 2896, 12) } }
                }
                if !lossless && rowKind == .dct && !beyondFirst {
                    // Round2, then the clamp §7.13.3 applies between the row and column passes.
                    let v = AV1Arithmetic.clip3(colLow, colHigh, AV1Arithmetic.round2(Self.dcOnlyDCT(T[0]), rowShift))
                    for j in 0..<w { residual[i &* 64 &+ j] = v }
                    continue
                }
                for j in min(w, 32)..<w { T[j] = 0 }
                if lossless {
                    inverseWHT(shift: 2)
                } else {
                    transform1D(rowKind, n: log2W, r: rowClampRange)
                }
                for j in 0..<w {
                    // Round2, then the clamp §7.13.3 applies between the row and column passes.
                    let v = AV1Arithmetic.round2(T[j], rowShift)
                    residual[i &* 64 &+ j] = AV1Arithmetic.clip3(colLow, colHigh, v)
                }
            }

            if !lossless && columnKind == .dct && lastNonZeroRow <= 0 {
                for j in 0..<w {
                    let v = AV1Arithmetic.round2(Self.dcOnlyDCT(residual[j]), colShift)
                    for i in 0..<h { residual[i &* 64 &+ j] = v }
                }
                return
            }
            for j in 0..<w {
                for i in 0..<h { T[i] = residual[i &* 64 &+ j] }
                if lossless {
                    inverseWHT(shift: 0)
                } else {
                    transform1D(columnKind, n: log2H, r: colClampRange)
                }
                for i in 0..<h { residual[i &* 64 &+ j] = AV1Arithmetic.round2(T[i], colShift) }
            }
        }

        /// Every output of §7.13.2.3's inverse DCT (any length) when only its first input,
        /// `t0`, is non-zero: step 12's butterfly B( 0, 1, 32, 1 ) makes T[ 0 ] and T[ 1 ]
        /// Round2( t0 · cos128( 32 ), 12 ) (cos128( 32 ) = sin128( 32 ) = 2896), and every other
        /// step either rotates zeros or is a Hadamard step adding a zero, which copies the value
        /// unclamped (|t0| < 2^(r − 1), so |t0| · 2896 / 4096 is inside the range). The 1-D
        /// transform and its butterflies are skipped for the DC-only rows and columns that
        /// most blocks of a still image are (callgrind, fox 8-bit 4:2:0, the whole 2-D process:
        /// 536 M → 471 M instructions).
        @inline(__always)
        static func dcOnlyDCT(_ t0: Int) -> Int {
            AV1Arithmetic.round2(t0 &* 2896, 12)
        }
    }
}
