extension AVIF.TileDecoder {
    /// `read_mv(0)` and `read_mv_component(comp)` (§5.11.31, §5.11.32) of an intra block copy
    /// block: `MvCtx` is `MV_INTRABC_CONTEXT`; intra frames have `force_integer_mv` 1 and
    /// `allow_high_precision_mv` 0, so no fractional or high-precision bits are read. Returns
    /// `diffMv`.
    mutating func readMv() -> (row: Int, col: Int) {
        let joint = sd.symbol(cdfs.mvJoint.at(), T.MV_JOINTS)
        var diff = (row: 0, col: 0)
        if joint == T.MV_JOINT_HZVNZ || joint == T.MV_JOINT_HNZVNZ { diff.row = readMvComponent(0) }
        if joint == T.MV_JOINT_HNZVZ || joint == T.MV_JOINT_HNZVNZ { diff.col = readMvComponent(1) }
        info.intraBlockCopyBlocks += 1
        return diff
    }

    private mutating func readMvComponent(_ comp: Int) -> Int {
        let sign = sd.symbol(cdfs.mvSign.at(comp), 2)
        let mvClass = sd.symbol(cdfs.mvClass.at(comp), T.MV_CLASSES)
        let mag: Int
        if mvClass == T.MV_CLASS_0 {
            let class0Bit = sd.symbol(cdfs.mvClass0Bit.at(comp), 2)
            // mv_class0_fr = 3 (force_integer_mv), mv_class0_hp = 1 (no high precision).
            mag = ((class0Bit << 3) | (3 << 1) | 1) + 1
        } else {
            var d = 0
            for i in 0..<mvClass { d |= sd.symbol(cdfs.mvBit.at(comp, i), 2) << i }
            mag = (T.CLASS0_SIZE << (mvClass + 2)) + ((d << 3) | (3 << 1) | 1) + 1
        }
        return sign == 1 ? -mag : mag
    }

    /// `compute_prediction()` (§5.11.33) for an intra block copy block: in an intra frame
    /// every candidate is `INTRA_FRAME` (`someUseIntra`), so each plane is one `predict_inter`
    /// of the whole block with the block's own vector.
    mutating func predictIntraBlockCopy() {
        for plane in 0..<(1 + (hasChroma ? 2 : 0)) {
            let planeSz = planeResidualSize(miSize, plane)
            let subX = plane > 0 ? subsamplingX : 0, subY = plane > 0 ? subsamplingY : 0
            reconstructor.predictIntraBlockCopy(plane: plane, x: (miCol >> subX) * T.MI_SIZE, y: (miRow >> subY) * T.MI_SIZE,
                                                    width: T.Num_4x4_Blocks_Wide[planeSz] * 4,
                                                    height: T.Num_4x4_Blocks_High[planeSz] * 4,
                                                    mv: mv)
        }
    }

    /// `read_var_tx_size(row, col, txSz, depth)` (§5.11.17) with the CDF selection of `txfm_split`.
    mutating func readVarTxSize(_ row: Int, _ col: Int, _ txSz: Int, _ depth: Int) {
        if row >= miRows || col >= miCols { return }
        var split = false
        if !(txSz == T.TX_4X4 || depth == T.MAX_VARTX_DEPTH) {
            let above = aboveTxWidth(row, col) < T.Tx_Width[txSz] ? 1 : 0
            let left = leftTxHeight(row, col) < T.Tx_Height[txSz] ? 1 : 0
            let size = min(64, max(T.Num_4x4_Blocks_Wide[miSize], T.Num_4x4_Blocks_High[miSize]) * 4)
            let maxTxSz = Self.findTxSize(size, size)
            let txSzSqrUp = T.Tx_Size_Sqr_Up[txSz]
            let ctx = (txSzSqrUp != maxTxSz ? 3 : 0) + (T.TX_SIZES - 1 - maxTxSz) * 6 + above + left
            split = sd.symbol(cdfs.txfmSplit.at(ctx), 2) == 1
        }
        let w4 = T.Tx_Width[txSz] / T.MI_SIZE, h4 = T.Tx_Height[txSz] / T.MI_SIZE
        if split {
            let subTxSz = T.Split_Tx_Size[txSz]
            let stepW = T.Tx_Width[subTxSz] / T.MI_SIZE, stepH = T.Tx_Height[subTxSz] / T.MI_SIZE
            var i = 0
            while i < h4 {
                var j = 0
                while j < w4 {
                    readVarTxSize(row + i, col + j, subTxSz, depth + 1)
                    j += stepW
                }
                i += stepH
            }
        } else {
            for i in 0..<h4 where row + i < miRows {
                for j in 0..<w4 where col + j < miCols { info.interTxSizes[(row + i) * miCols + col + j] = UInt8(txSz) }
            }
            txSize = txSz
        }
    }

    /// `find_tx_size(w, h)` (§5.11.36).
    static func findTxSize(_ w: Int, _ h: Int) -> Int {
        for txSz in 0..<T.TX_SIZES_ALL where T.Tx_Width[txSz] == w && T.Tx_Height[txSz] == h { return txSz }
        return T.TX_SIZES_ALL
    }

    /// `get_above_tx_width(row, col)` (§8.3.2, txfm_split).
    func aboveTxWidth(_ row: Int, _ col: Int) -> Int {
        if row == miRow {
            if !availU { return 64 }
            let above = (row - 1) * miCols + col
            if info.skips[above] == 1 && info.isInters[above] == 1 {
                return T.Num_4x4_Blocks_Wide[Int(info.miSizes[above])] * 4
            }
        }
        return T.Tx_Width[Int(info.interTxSizes[(row - 1) * miCols + col])]
    }

    /// `get_left_tx_height(row, col)` (§8.3.2, txfm_split).
    func leftTxHeight(_ row: Int, _ col: Int) -> Int {
        if col == miCol {
            if !availL { return 64 }
            let left = row * miCols + col - 1
            if info.skips[left] == 1 && info.isInters[left] == 1 {
                return T.Num_4x4_Blocks_High[Int(info.miSizes[left])] * 4
            }
        }
        return T.Tx_Height[Int(info.interTxSizes[row * miCols + col - 1])]
    }

    /// `transform_tree(startX, startY, w, h)` (§5.11.36): the luma transform blocks of an
    /// intra block copy block, following `InterTxSizes`.
    mutating func transformTree(_ startX: Int, _ startY: Int, _ w: Int, _ h: Int) throws(ImageDecodingError) {
        let maxX = miCols * T.MI_SIZE, maxY = miRows * T.MI_SIZE
        if startX >= maxX || startY >= maxY { return }
        let row = startY >> T.MI_SIZE_LOG2, col = startX >> T.MI_SIZE_LOG2
        let lumaTxSz = Int(info.interTxSizes[row * miCols + col])
        let lumaW = T.Tx_Width[lumaTxSz], lumaH = T.Tx_Height[lumaTxSz]
        if w <= lumaW && h <= lumaH {
            let txSz = Self.findTxSize(w, h)
            guard txSz < T.TX_SIZES_ALL else { throw .avif(.tileData(.syntaxValue)) }
            try transformBlock(0, startX, startY, txSz, 0, 0)
        } else if w > h {
            try transformTree(startX, startY, w / 2, h)
            try transformTree(startX + w / 2, startY, w / 2, h)
        } else if w < h {
            try transformTree(startX, startY, w, h / 2)
            try transformTree(startX, startY + h / 2, w, h / 2)
        } else {
            try transformTree(startX, startY, w / 2, h / 2)
            try transformTree(startX + w / 2, startY, w / 2, h / 2)
            try transformTree(startX, startY + h / 2, w / 2, h / 2)
            try transformTree(startX + w / 2, startY + h / 2, w / 2, h / 2)
        }
    }
}
