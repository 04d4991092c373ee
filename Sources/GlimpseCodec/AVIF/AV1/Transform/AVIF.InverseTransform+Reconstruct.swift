extension AVIF.InverseTransform {
    /// What the reconstruct process (§7.12.3) reads besides the coefficients: the values the
    /// tile decoder knows for the current transform block.
    struct BlockQuantizer: Sendable, Equatable {
        /// `get_dc_quant( plane )` and `get_ac_quant( plane )` (see ``AVIF/Dequantizer``).
        var dcQuant: Int
        var acQuant: Int
        /// `using_qmatrix`.
        var usingQmatrix: Bool
        /// `SegQMLevel[ plane ][ segment_id ]` (15: no matrix).
        var qmLevel: Int
        /// `Lossless` (the segment's, §7.12.2).
        var lossless: Bool
        /// `BitDepth`.
        var bitDepth: Int

        init(dcQuant: Int, acQuant: Int, usingQmatrix: Bool = false, qmLevel: Int = 15,
             lossless: Bool = false, bitDepth: Int) {
            self.dcQuant = dcQuant
            self.acQuant = acQuant
            self.usingQmatrix = usingQmatrix
            self.qmLevel = qmLevel
            self.lossless = lossless
            self.bitDepth = bitDepth
        }
    }

    /// `dqDenom` of §7.12.3: 2 for the transforms of 512 or 1024 samples with a side of 32 or
    /// 64, 4 for those of 2048 or 4096 samples, 1 otherwise.
    static func dqDenom(_ txSz: Int) -> Int {
        typealias K = AVIF.AV1Tables
        switch txSz {
        case K.TX_32X32, K.TX_16X32, K.TX_32X16, K.TX_16X64, K.TX_64X16: return 2
        case K.TX_64X64, K.TX_32X64, K.TX_64X32: return 4
        default: return 1
        }
    }

    /// Step 1 of §7.12.3: `Quant` (coded coefficients, `Quant[ i * tw + j ]` for i < th,
    /// j < tw, tw = Min( 32, w ), th = Min( 32, h )) to `Dequant`.
    ///
    /// `quant` holds at least th × tw values (missing ones count as 0), of any integer type
    /// (`[Int]`, `[Int32]`, a buffer pointer); each is first limited to ±2^40, which no coded
    /// coefficient reaches (§5.11.39's Golomb codes are < 2^33), so the product with q2 (< 2^19)
    /// cannot wrap.
    mutating func dequantize<C: RandomAccessCollection>(quant: C, plane: Int, txSz txSzIn: Int, txType: Int,
                                                       _ q: BlockQuantizer) where C.Element: FixedWidthInteger, C.Index == Int {
        let txSz = AVIF.AV1Arithmetic.clip3(0, AVIF.AV1Tables.TX_SIZES_ALL - 1, txSzIn)
        let log2W = AVIF.AV1Tables.Tx_Width_Log2[txSz]
        let log2H = AVIF.AV1Tables.Tx_Height_Log2[txSz]
        let tw = min(32, 1 << log2W)
        let th = min(32, 1 << log2H)
        let denom = Self.dqDenom(txSz)
        let useMatrix = q.usingQmatrix && txType < AVIF.AV1Tables.IDTX && q.qmLevel >= 0 && q.qmLevel < 15
        let qmOffset = AVIF.AV1Tables.Qm_Offset[txSz]
        let high = (1 << (7 + q.bitDepth)) - 1
        let low = -(1 << (7 + q.bitDepth))
        let bound = 1 << 40
        for i in 0..<th {
            for j in 0..<tw {
                let k = i * tw + j
                let coefficient = k < quant.count
                    ? AVIF.AV1Arithmetic.clip3(-bound, bound, Int(clamping: quant[quant.startIndex + k])) : 0
                if coefficient == 0 {
                    dequant[i &* 32 &+ j] = 0
                    continue
                }
                let qv = (i == 0 && j == 0) ? q.dcQuant : q.acQuant
                var q2 = qv
                if useMatrix {
                    let m = Int(AVIF.AV1Tables.Quantizer_Matrix[q.qmLevel][plane > 0 ? 1 : 0][qmOffset + k])
                    q2 = AVIF.AV1Arithmetic.round2(qv &* m, 5)
                }
                let dq = coefficient &* q2
                let magnitude = (dq < 0 ? 0 &- dq : dq) & 0xFFFFFF
                // C evaluates sign * ( Abs( dq ) & 0xFFFFFF ) / dqDenom left to right: the
                // division truncates towards zero after the sign is applied.
                let dq2 = (dq < 0 ? -magnitude : magnitude) / denom
                dequant[i &* 32 &+ j] = AVIF.AV1Arithmetic.clip3(low, high, dq2)
            }
        }
    }

    /// §7.12.3, the reconstruct process: dequantizes `quant`, inverse transforms it
    /// (§7.13.3) and adds the residual into `frame` at (`x`, `y`) with Clip1, flipping it as
    /// FLIPADST types require. `txType` is `PlaneTxType`. Samples outside the plane are skipped.
    mutating func reconstruct<C: RandomAccessCollection>(into frame: inout AVIF.AV1Plane, plane: Int, x: Int, y: Int,
                                                         txSz: Int, txType: Int, quant: C, _ q: BlockQuantizer)
        where C.Element: FixedWidthInteger, C.Index == Int {
        dequantize(quant: quant, plane: plane, txSz: txSz, txType: txType, q)
        inverseTransform2D(txSz: txSz, txType: txType, lossless: q.lossless, bitDepth: q.bitDepth)
        addResidual(into: &frame, x: x, y: y, txSz: txSz, txType: txType, bitDepth: q.bitDepth)
    }

    /// Step 3 of §7.12.3: CurrFrame[ y + yy ][ x + xx ] = Clip1( CurrFrame + Residual[ i ][ j ] ).
    mutating func addResidual(into frame: inout AVIF.AV1Plane, x: Int, y: Int, txSz txSzIn: Int, txType: Int, bitDepth: Int) {
        typealias K = AVIF.AV1Tables
        let txSz = AVIF.AV1Arithmetic.clip3(0, K.TX_SIZES_ALL - 1, txSzIn)
        let w = 1 << K.Tx_Width_Log2[txSz]
        let h = 1 << K.Tx_Height_Log2[txSz]
        let flipUD = txType == K.FLIPADST_DCT || txType == K.FLIPADST_ADST || txType == K.V_FLIPADST
            || txType == K.FLIPADST_FLIPADST
        let flipLR = txType == K.DCT_FLIPADST || txType == K.ADST_FLIPADST || txType == K.H_FLIPADST
            || txType == K.FLIPADST_FLIPADST
        let maxSample = (1 << bitDepth) - 1
        let inside = frame.contains(x: x, y: y, width: w, height: h)
        for i in 0..<h {
            let yy = flipUD ? (h - i - 1) : i
            for j in 0..<w {
                let xx = flipLR ? (w - j - 1) : j
                // Residual is bounded by Max( BitDepth + 5, 15 ) bits (§7.12.3's note): no wrap.
                if inside {
                    let index = (y &+ yy) &* frame.stride &+ x &+ xx
                    let v = Int(frame.samples[index]) &+ residual[i &* 64 &+ j]
                    frame.samples[index] = UInt16(truncatingIfNeeded: AVIF.AV1Arithmetic.clip3(0, maxSample, v))
                } else {
                    let v = frame.sample(x &+ xx, y &+ yy) &+ residual[i &* 64 &+ j]
                    frame[y: y &+ yy, x: x &+ xx] = UInt16(truncatingIfNeeded: AVIF.AV1Arithmetic.clip3(0, maxSample, v))
                }
            }
        }
    }
}
