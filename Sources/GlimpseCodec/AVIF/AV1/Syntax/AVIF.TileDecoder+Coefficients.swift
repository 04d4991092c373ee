extension AVIF.TileDecoder {
    /// `coeffs(plane, startX, startY, txSz)` (§5.11.39) with the CDF selection of each of
    /// its syntax elements (§8.3.2); returns `eob`, leaves the levels in `quant`.
    mutating func coeffs(_ plane: Int, _ startX: Int, _ startY: Int, _ txSz: Int) throws(ImageDecodingError) -> Int {
        let x4 = startX >> 2, y4 = startY >> 2
        let w4 = T.Tx_Width[txSz] >> 2, h4 = T.Tx_Height[txSz] >> 2
        let txSzCtx = (T.Tx_Size_Sqr[txSz] + T.Tx_Size_Sqr_Up[txSz] + 1) >> 1
        let ptype = plane > 0 ? 1 : 0
        let segEob = txSz == T.TX_16X64 || txSz == T.TX_64X16 ? 512 : min(1024, T.Tx_Width[txSz] * T.Tx_Height[txSz])
        for c in 0..<segEob { quant[c] = 0 }
        var eob = 0
        var culLevel = 0
        var dcCategory = 0
        let aboveBase = plane * aboveStride, leftBase = plane * leftStride
        var maxX4 = miCols, maxY4 = miRows
        if plane > 0 {
            maxX4 >>= subsamplingX
            maxY4 >>= subsamplingY
        }
        let allZero = sd.symbol(cdfs.txbSkip.at(txSzCtx, allZeroContext(plane, txSz, x4, y4, w4, h4, maxX4, maxY4)), 2)
        if allZero == 1 {
            if plane == 0 { setTxTypes(x4, y4, w4, h4, T.DCT_DCT) }
        } else {
            if plane == 0 { setTxTypes(x4, y4, w4, h4, transformType(txSz)) }
            planeTxType = computeTxType(plane, txSz, x4, y4)
            let scan = scanOrder(txSz)
            let txClass = Self.txClass(planeTxType)
            let eobMultisize = min(T.Tx_Width_Log2[txSz], 5) + min(T.Tx_Height_Log2[txSz], 5) - 4
            let eobTable = cdfs.eobPt[eobMultisize]
            let eobOffset = eobMultisize <= 4 ? eobTable.at(ptype, txClass == T.TX_CLASS_2D ? 0 : 1) : eobTable.at(ptype)
            let eobPt = sd.symbol(eobOffset, eobTable.n) + 1
            eob = eobPt < 2 ? eobPt : (1 << (eobPt - 2)) + 1
            var eobShift = max(-1, eobPt - 3)
            if eobShift >= 0 {
                if sd.symbol(cdfs.eobExtra.at(txSzCtx, ptype, eobPt - 3), 2) == 1 { eob += 1 << eobShift }
                if max(0, eobPt - 2) > 1 {
                    for i in 1..<max(0, eobPt - 2) {
                        eobShift = max(0, eobPt - 2) - 1 - i
                        if sd.literal(1) == 1 { eob += 1 << eobShift }
                    }
                }
            }
            guard eob <= segEob else { throw .avif(.tileData(.syntaxValue)) }
            let adjTxSz = T.Adjusted_Tx_Size[txSz]
            let bwl = T.Tx_Width_Log2[adjTxSz]
            let width = 1 << bwl
            let height = T.Tx_Height[adjTxSz]
            let brTxCtx = min(txSzCtx, T.TX_32X32)
            var c = eob - 1
            while c >= 0 {
                let pos = Int(scan[c])
                var level: Int
                if c == eob - 1 {
                    // coeff_base_eob: get_coeff_base_ctx(…, isEob = 1) − SIG_COEF_CONTEXTS + SIG_COEF_CONTEXTS_EOB
                    let area = height << bwl
                    let ctx = c == 0 ? 0 : c <= area / 8 ? 1 : c <= area / 4 ? 2 : 3
                    level = sd.symbol(cdfs.coeffBaseEob.at(txSzCtx, ptype, ctx), 3) + 1
                } else {
                    let ctx = coeffBaseContext(txSz, txClass, bwl, width, height, pos)
                    level = sd.symbol(cdfs.coeffBase.at(txSzCtx, ptype, ctx), 4)
                }
                if level > T.NUM_BASE_LEVELS {
                    let ctx = coeffBrContext(txClass, bwl, width, height, pos)
                    let offset = cdfs.coeffBr.at(brTxCtx, ptype, ctx)
                    for _ in 0..<(T.COEFF_BASE_RANGE / (T.BR_CDF_SIZE - 1)) {
                        let coeffBr = sd.symbol(offset, T.BR_CDF_SIZE)
                        level += coeffBr
                        if coeffBr < T.BR_CDF_SIZE - 1 { break }
                    }
                }
                quant[pos] = Int32(level)
                c -= 1
            }
            for c in 0..<eob {
                let pos = Int(scan[c])
                var sign = 0
                if quant[pos] != 0 {
                    if c == 0 {
                        sign = sd.symbol(cdfs.dcSign.at(ptype, dcSignContext(aboveBase, leftBase, x4, y4, w4, h4, maxX4, maxY4)), 2)
                    } else {
                        sign = sd.literal(1)
                    }
                }
                var value = Int(quant[pos])
                if value > T.NUM_BASE_LEVELS + T.COEFF_BASE_RANGE {
                    var length = 0
                    var golombLengthBit = 0
                    repeat {
                        length += 1
                        golombLengthBit = sd.literal(1)
                        // §6.10.31: at most 20 bits of length.
                        if golombLengthBit == 0 && length >= 20 { throw .avif(.tileData(.syntaxValue)) }
                    } while golombLengthBit == 0
                    var x = 1
                    var i = length - 2
                    while i >= 0 {
                        x = (x << 1) | sd.literal(1)
                        i -= 1
                    }
                    value = x + T.COEFF_BASE_RANGE + T.NUM_BASE_LEVELS
                }
                if pos == 0 && value > 0 { dcCategory = sign == 1 ? 1 : 2 }
                value &= 0xFFFFF
                culLevel += value
                quant[pos] = Int32(sign == 1 ? -value : value)
            }
            culLevel = min(63, culLevel)
        }
        for i in 0..<w4 {
            aboveLevelContext[aboveBase + x4 + i] = UInt8(culLevel)
            aboveDcContext[aboveBase + x4 + i] = UInt8(dcCategory)
        }
        for i in 0..<h4 {
            leftLevelContext[leftBase + y4 + i] = UInt8(culLevel)
            leftDcContext[leftBase + y4 + i] = UInt8(dcCategory)
        }
        return eob
    }

    /// The context of `all_zero` (§8.3.2).
    private func allZeroContext(_ plane: Int, _ txSz: Int, _ x4: Int, _ y4: Int, _ w4: Int, _ h4: Int,
                                _ maxX4: Int, _ maxY4: Int) -> Int {
        let aboveBase = plane * aboveStride, leftBase = plane * leftStride
        let w = T.Tx_Width[txSz], h = T.Tx_Height[txSz]
        let bsize = planeResidualSize(miSize, plane)
        let bw = T.Num_4x4_Blocks_Wide[bsize] * 4, bh = T.Num_4x4_Blocks_High[bsize] * 4
        if plane == 0 {
            var top = 0, left = 0
            for k in 0..<w4 where x4 + k < maxX4 { top = max(top, Int(aboveLevelContext[aboveBase + x4 + k])) }
            for k in 0..<h4 where y4 + k < maxY4 { left = max(left, Int(leftLevelContext[leftBase + y4 + k])) }
            top = min(top, 255)
            left = min(left, 255)
            if bw == w && bh == h { return 0 }
            if top == 0 && left == 0 { return 1 }
            if top == 0 || left == 0 { return 2 + (max(top, left) > 3 ? 1 : 0) }
            if max(top, left) <= 3 { return 4 }
            if min(top, left) <= 3 { return 5 }
            return 6
        }
        var above = 0, left = 0
        for i in 0..<w4 where x4 + i < maxX4 {
            above |= Int(aboveLevelContext[aboveBase + x4 + i]) | Int(aboveDcContext[aboveBase + x4 + i])
        }
        for i in 0..<h4 where y4 + i < maxY4 {
            left |= Int(leftLevelContext[leftBase + y4 + i]) | Int(leftDcContext[leftBase + y4 + i])
        }
        var ctx = (above != 0 ? 1 : 0) + (left != 0 ? 1 : 0)
        ctx += 7
        if bw * bh > w * h { ctx += 3 }
        return ctx
    }

    /// The context of `dc_sign` (§8.3.2).
    private func dcSignContext(_ aboveBase: Int, _ leftBase: Int, _ x4: Int, _ y4: Int, _ w4: Int, _ h4: Int,
                               _ maxX4: Int, _ maxY4: Int) -> Int {
        var dcSign = 0
        for k in 0..<w4 where x4 + k < maxX4 {
            let sign = aboveDcContext[aboveBase + x4 + k]
            if sign == 1 { dcSign -= 1 } else if sign == 2 { dcSign += 1 }
        }
        for k in 0..<h4 where y4 + k < maxY4 {
            let sign = leftDcContext[leftBase + y4 + k]
            if sign == 1 { dcSign -= 1 } else if sign == 2 { dcSign += 1 }
        }
        return dcSign < 0 ? 1 : dcSign > 0 ? 2 : 0
    }

    /// `get_coeff_base_ctx(…, isEob = 0)` (§8.3.2).
    private func coeffBaseContext(_ txSz: Int, _ txClass: Int, _ bwl: Int, _ width: Int, _ height: Int, _ pos: Int) -> Int {
        let row = pos >> bwl, col = pos - (row << bwl)
        var mag = 0
        let offsets = T.Sig_Ref_Diff_Offset[txClass]
        for idx in 0..<T.SIG_REF_DIFF_OFFSET_NUM {
            let refRow = row + offsets[idx][0], refCol = col + offsets[idx][1]
            if refRow >= 0 && refCol >= 0 && refRow < height && refCol < width {
                mag += min(abs(Int(quant[(refRow << bwl) + refCol])), 3)
            }
        }
        let ctx = min((mag + 1) >> 1, 4)
        if txClass == T.TX_CLASS_2D {
            if row == 0 && col == 0 { return 0 }
            return ctx + T.Coeff_Base_Ctx_Offset[txSz][min(row, 4)][min(col, 4)]
        }
        let idx = txClass == T.TX_CLASS_VERT ? row : col
        return ctx + T.Coeff_Base_Pos_Ctx_Offset[min(idx, 2)]
    }

    /// The context of `coeff_br` (§8.3.2).
    private func coeffBrContext(_ txClass: Int, _ bwl: Int, _ txw: Int, _ txh: Int, _ pos: Int) -> Int {
        let row = pos >> bwl, col = pos - (row << bwl)
        var mag = 0
        let offsets = T.Mag_Ref_Offset_With_Tx_Class[txClass]
        for idx in 0..<3 {
            let refRow = row + offsets[idx][0], refCol = col + offsets[idx][1]
            if refRow >= 0 && refCol >= 0 && refRow < txh && refCol < (1 << bwl) {
                mag += min(Int(quant[refRow * txw + refCol]), T.COEFF_BASE_RANGE + T.NUM_BASE_LEVELS + 1)
            }
        }
        mag = min((mag + 1) >> 1, 6)
        if pos == 0 { return mag }
        if txClass == 0 { return row < 2 && col < 2 ? mag + 7 : mag + 14 }
        if txClass == 1 { return col == 0 ? mag + 7 : mag + 14 }
        return row == 0 ? mag + 7 : mag + 14
    }

    /// `get_tx_class(txType)` (§8.3.2).
    static func txClass(_ txType: Int) -> Int {
        switch txType {
        case T.V_DCT, T.V_ADST, T.V_FLIPADST: T.TX_CLASS_VERT
        case T.H_DCT, T.H_ADST, T.H_FLIPADST: T.TX_CLASS_HORIZ
        default: T.TX_CLASS_2D
        }
    }

    /// `TxTypes[y4 + j][x4 + i] = txType` over a transform block, inside the frame.
    private mutating func setTxTypes(_ x4: Int, _ y4: Int, _ w4: Int, _ h4: Int, _ txType: Int) {
        for j in 0..<h4 where y4 + j < miRows {
            for i in 0..<w4 where x4 + i < miCols { txTypes[(y4 + j) * miCols + x4 + i] = UInt8(txType) }
        }
    }

    /// `get_tx_set(txSz)` (§5.11.48): 0 `TX_SET_DCTONLY`; for intra blocks 1 `TX_SET_INTRA_1`,
    /// 2 `TX_SET_INTRA_2`; for intra block copy 1–3 `TX_SET_INTER_1`…`TX_SET_INTER_3`.
    func txSet(_ txSz: Int) -> Int {
        let txSzSqr = T.Tx_Size_Sqr[txSz], txSzSqrUp = T.Tx_Size_Sqr_Up[txSz]
        if txSzSqrUp > T.TX_32X32 { return 0 }
        if isInter {
            if frame.reducedTxSet || txSzSqrUp == T.TX_32X32 { return 3 }
            if txSzSqr == T.TX_16X16 { return 2 }
            return 1
        }
        if txSzSqrUp == T.TX_32X32 { return 0 }
        if frame.reducedTxSet { return 2 }
        if txSzSqr == T.TX_16X16 { return 2 }
        return 1
    }

    /// `transform_type(x4, y4, txSz)` (§5.11.47): the luma transform type read.
    private mutating func transformType(_ txSz: Int) -> Int {
        let set = txSet(txSz)
        let q = frame.segmentationEnabled
            ? frame.qindex(ignoreDeltaQ: true, segmentId: segmentId, currentQIndex: currentQIndex) : frame.baseQIdx
        guard set > 0 && q > 0 else { return T.DCT_DCT }
        if isInter {
            switch set {
            case 1:
                let table = cdfs.interTxTypeSet1
                return T.Tx_Type_Inter_Inv_Set1[sd.symbol(table.at(T.Tx_Size_Sqr[txSz]), table.n)]
            case 2:
                let table = cdfs.interTxTypeSet2
                return T.Tx_Type_Inter_Inv_Set2[sd.symbol(table.at(), table.n)]
            default:
                let table = cdfs.interTxTypeSet3
                return T.Tx_Type_Inter_Inv_Set3[sd.symbol(table.at(T.Tx_Size_Sqr[txSz]), table.n)]
            }
        }
        let intraDir = useFilterIntra ? T.Filter_Intra_Mode_To_Intra_Dir[filterIntraMode] : yMode
        if set == 1 {
            let table = cdfs.intraTxTypeSet1
            return T.Tx_Type_Intra_Inv_Set1[sd.symbol(table.at(T.Tx_Size_Sqr[txSz], intraDir), table.n)]
        }
        let table = cdfs.intraTxTypeSet2
        return T.Tx_Type_Intra_Inv_Set2[sd.symbol(table.at(T.Tx_Size_Sqr[txSz], intraDir), table.n)]
    }

    /// `compute_tx_type(plane, txSz, blockX, blockY)` (§5.11.40).
    private func computeTxType(_ plane: Int, _ txSz: Int, _ blockX: Int, _ blockY: Int) -> Int {
        if lossless || T.Tx_Size_Sqr_Up[txSz] > T.TX_32X32 { return T.DCT_DCT }
        let set = txSet(txSz)
        if plane == 0 { return Int(txTypes[blockY * miCols + blockX]) }
        if isInter {
            let x4 = max(miCol, blockX << subsamplingX), y4 = max(miRow, blockY << subsamplingY)
            let txType = Int(txTypes[y4 * miCols + x4])
            return T.Tx_Type_In_Set_Inter[set][txType] == 1 ? txType : T.DCT_DCT
        }
        let txType = T.Mode_To_Txfm[uvMode]
        return T.Tx_Type_In_Set_Intra[set][txType] == 1 ? txType : T.DCT_DCT
    }

    /// `get_scan(txSz)` (§5.11.41).
    private func scanOrder(_ txSz: Int) -> [UInt16] {
        if txSz == T.TX_16X64 { return T.Default_Scan_16x32 }
        if txSz == T.TX_64X16 { return T.Default_Scan_32x16 }
        if T.Tx_Size_Sqr_Up[txSz] == T.TX_64X64 { return T.Default_Scan_32x32 }
        if planeTxType == T.IDTX { return Self.defaultScan(txSz) }
        let preferRow = planeTxType == T.V_DCT || planeTxType == T.V_ADST || planeTxType == T.V_FLIPADST
        let preferCol = planeTxType == T.H_DCT || planeTxType == T.H_ADST || planeTxType == T.H_FLIPADST
        if preferRow {
            switch txSz {
            case T.TX_4X4: return T.Mrow_Scan_4x4
            case T.TX_4X8: return T.Mrow_Scan_4x8
            case T.TX_8X4: return T.Mrow_Scan_8x4
            case T.TX_8X8: return T.Mrow_Scan_8x8
            case T.TX_8X16: return T.Mrow_Scan_8x16
            case T.TX_16X8: return T.Mrow_Scan_16x8
            case T.TX_16X16: return T.Mrow_Scan_16x16
            case T.TX_4X16: return T.Mrow_Scan_4x16
            default: return T.Mrow_Scan_16x4
            }
        }
        if preferCol {
            switch txSz {
            case T.TX_4X4: return T.Mcol_Scan_4x4
            case T.TX_4X8: return T.Mcol_Scan_4x8
            case T.TX_8X4: return T.Mcol_Scan_8x4
            case T.TX_8X8: return T.Mcol_Scan_8x8
            case T.TX_8X16: return T.Mcol_Scan_8x16
            case T.TX_16X8: return T.Mcol_Scan_16x8
            case T.TX_16X16: return T.Mcol_Scan_16x16
            case T.TX_4X16: return T.Mcol_Scan_4x16
            default: return T.Mcol_Scan_16x4
            }
        }
        return Self.defaultScan(txSz)
    }

    /// `get_default_scan(txSz)` (§5.11.41).
    private static func defaultScan(_ txSz: Int) -> [UInt16] {
        switch txSz {
        case T.TX_4X4: T.Default_Scan_4x4
        case T.TX_4X8: T.Default_Scan_4x8
        case T.TX_8X4: T.Default_Scan_8x4
        case T.TX_8X8: T.Default_Scan_8x8
        case T.TX_8X16: T.Default_Scan_8x16
        case T.TX_16X8: T.Default_Scan_16x8
        case T.TX_16X16: T.Default_Scan_16x16
        case T.TX_16X32: T.Default_Scan_16x32
        case T.TX_32X16: T.Default_Scan_32x16
        case T.TX_4X16: T.Default_Scan_4x16
        case T.TX_16X4: T.Default_Scan_16x4
        case T.TX_8X32: T.Default_Scan_8x32
        case T.TX_32X8: T.Default_Scan_32x8
        default: T.Default_Scan_32x32
        }
    }
}
