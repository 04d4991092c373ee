extension AVIF.TileDecoder {
    /// `find_mv_stack( 0 )` (§7.10.2) and `assign_mv( 0 )` (§5.11.26) of an intra block copy
    /// block, then the conformance check of `is_mv_valid( 0 )` (§6.10.25): sets ``mv``.
    ///
    /// In an intra frame every candidate is an intra block copy block with `RefFrame[ 0 ]` =
    /// `INTRA_FRAME`, so what the general process does for inter frames drops out: GlobalMvs
    /// are zero (§7.10.2.1), there is no temporal scan (`use_ref_frame_mvs` is 0), no
    /// compound search, and the extra search's partial matches (§7.10.2.13) need a candidate
    /// with `RefFrames[ ][ ][ candList ] > INTRA_FRAME`, which an intra frame never has. The
    /// contexts of §7.10.2.14 serve only inter-frame syntax and are not computed.
    mutating func assignIntraBlockCopyMv() throws(ImageDecodingError) {
        findMvStack()
        // assign_mv( 0 ) with use_intrabc: the first non-zero of the first two entries.
        var predMv = mvStack.mv(0)
        if predMv == (0, 0) { predMv = mvStack.mv(1) }
        if predMv == (0, 0) {
            let sbSize4 = T.Num_4x4_Blocks_High[use128 ? T.BLOCK_128X128 : T.BLOCK_64X64]
            predMv = miRow - sbSize4 < miRowStart
                ? (0, -(sbSize4 * T.MI_SIZE + T.INTRABC_DELAY_PIXELS) * 8)
                : (-(sbSize4 * T.MI_SIZE * 8), 0)
        }
        let diff = readMv()
        // PredMv is clamped to the frame plus a border (< 2^20) and a coded difference is below
        // 2^14 (§5.11.32): the sums cannot overflow.
        mv = (predMv.row + diff.row, predMv.col + diff.col)
        // libaom marks such a frame corrupt; dav1d moves the vector into the tile. A vector that
        // points at samples not yet decoded has no defined prediction, so the frame is refused.
        guard isIntraBlockCopyMvValid(mv) else { throw .avif(.tileData(.blockVector)) }
    }

    /// The find MV stack process (§7.10.2) for single prediction in an intra frame, leaving
    /// `RefStackMv[ 0…1 ][ 0 ]` in ``mvStack``.
    private mutating func findMvStack() {
        let bw4 = T.Num_4x4_Blocks_Wide[miSize], bh4 = T.Num_4x4_Blocks_High[miSize]
        mvStack.removeAll()
        scanRow(-1)
        scanCol(-1)
        if max(bw4, bh4) <= 16 { scanPoint(-1, bw4) }
        let numNearest = mvStack.count
        mvStack.addWeight(T.REF_CAT_LEVEL, below: numNearest)
        scanPoint(-1, -1)
        scanRow(-3)
        scanCol(-3)
        if bh4 > 1 { scanRow(-5) }
        if bw4 > 1 { scanCol(-5) }
        mvStack.sort(0, numNearest)
        mvStack.sort(numNearest, mvStack.count)
        // §7.10.2.12: GlobalMvs[ 0 ] is zero in an intra frame.
        if mvStack.count < 2 { mvStack.fill(upTo: 2, with: (0, 0)) }
        // §7.10.2.14: clamp_mv_row / clamp_mv_col (§5.11.53) with border MV_BORDER + bh × 8.
        let bh = bh4 * T.MI_SIZE, bw = bw4 * T.MI_SIZE
        let rowBorder = T.MV_BORDER + bh * 8, colBorder = T.MV_BORDER + bw * 8
        let toTop = -(miRow * T.MI_SIZE * 8), toBottom = (miRows - bh4 - miRow) * T.MI_SIZE * 8
        let toLeft = -(miCol * T.MI_SIZE * 8), toRight = (miCols - bw4 - miCol) * T.MI_SIZE * 8
        mvStack.clamp(rows: (toTop - rowBorder)...max(toTop - rowBorder, toBottom + rowBorder),
                      cols: (toLeft - colBorder)...max(toLeft - colBorder, toRight + colBorder))
    }

    /// The scan row process (§7.10.2.2).
    private mutating func scanRow(_ deltaRowIn: Int) {
        let bw4 = T.Num_4x4_Blocks_Wide[miSize]
        let end4 = min(min(bw4, miCols - miCol), 16)
        var deltaRow = deltaRowIn, deltaCol = 0
        let useStep16 = bw4 >= 16
        if abs(deltaRow) > 1 {
            deltaRow += miRow & 1
            deltaCol = 1 - (miCol & 1)
        }
        var i = 0
        while i < end4 {
            let mvRow = miRow + deltaRow, mvCol = miCol + deltaCol + i
            if !isInside(mvRow, mvCol) { break }
            var len = min(bw4, T.Num_4x4_Blocks_Wide[Int(info.miSizes[mvRow * miCols + mvCol])])
            if abs(deltaRow) > 1 { len = max(2, len) }
            if useStep16 { len = max(4, len) }
            addRefMvCandidate(mvRow, mvCol, weight: len * 2)
            i += len
        }
    }

    /// The scan col process (§7.10.2.3).
    private mutating func scanCol(_ deltaColIn: Int) {
        let bh4 = T.Num_4x4_Blocks_High[miSize]
        let end4 = min(min(bh4, miRows - miRow), 16)
        var deltaRow = 0, deltaCol = deltaColIn
        let useStep16 = bh4 >= 16
        if abs(deltaCol) > 1 {
            deltaRow = 1 - (miRow & 1)
            deltaCol += miCol & 1
        }
        var i = 0
        while i < end4 {
            let mvRow = miRow + deltaRow + i, mvCol = miCol + deltaCol
            if !isInside(mvRow, mvCol) { break }
            var len = min(bh4, T.Num_4x4_Blocks_High[Int(info.miSizes[mvRow * miCols + mvCol])])
            if abs(deltaCol) > 1 { len = max(2, len) }
            if useStep16 { len = max(4, len) }
            addRefMvCandidate(mvRow, mvCol, weight: len * 2)
            i += len
        }
    }

    /// The scan point process (§7.10.2.4). "RefFrames has been written for this frame" needs
    /// no map of its own: ``AVIF/FrameModeInfo`` is new for each frame, so a position not yet
    /// decoded has `IsInters` 0 and §7.10.2.7 ignores it.
    private mutating func scanPoint(_ deltaRow: Int, _ deltaCol: Int) {
        let mvRow = miRow + deltaRow, mvCol = miCol + deltaCol
        if isInside(mvRow, mvCol) { addRefMvCandidate(mvRow, mvCol, weight: 4) }
    }

    /// The add reference motion vector process (§7.10.2.7) with the search stack process
    /// (§7.10.2.8) for candList 0 (an intra block copy block's `RefFrames[ 1 ]` is NONE).
    private mutating func addRefMvCandidate(_ mvRow: Int, _ mvCol: Int, weight: Int) {
        let index = mvRow * miCols + mvCol
        guard info.isInters[index] == 1, 2 * index + 1 < info.intraBlockCopyMvs.count else { return }
        let candMv = (row: Self.lowerMvPrecision(Int(info.intraBlockCopyMvs[2 * index])),
                      col: Self.lowerMvPrecision(Int(info.intraBlockCopyMvs[2 * index + 1])))
        mvStack.add(candMv, weight: weight)
    }

    /// The lower precision process (§7.10.2.10) of one component with `force_integer_mv` 1
    /// (every intra frame): rounds to whole samples, halves towards zero.
    static func lowerMvPrecision(_ v: Int) -> Int {
        let whole = ((abs(v) + 3) >> 3) << 3
        return v > 0 ? whole : -whole
    }

    /// `is_mv_valid( 0 )` (§6.10.25) for an intra block copy block: a whole-sample vector that
    /// fetches from the part of the tile already decoded, at least INTRABC_DELAY_SB64 64×64
    /// blocks behind the current one.
    func isIntraBlockCopyMvValid(_ mv: (row: Int, col: Int)) -> Bool {
        if abs(mv.row) >= 1 << 14 || abs(mv.col) >= 1 << 14 { return false }
        if (mv.row & 7) != 0 || (mv.col & 7) != 0 { return false }
        let bw = T.Num_4x4_Blocks_Wide[miSize] * T.MI_SIZE, bh = T.Num_4x4_Blocks_High[miSize] * T.MI_SIZE
        var srcTopEdge = miRow * T.MI_SIZE + (mv.row >> 3)
        var srcLeftEdge = miCol * T.MI_SIZE + (mv.col >> 3)
        let srcBottomEdge = srcTopEdge + bh
        let srcRightEdge = srcLeftEdge + bw
        if hasChroma {
            if bw < 8 && subsamplingX == 1 { srcLeftEdge -= 4 }
            if bh < 8 && subsamplingY == 1 { srcTopEdge -= 4 }
        }
        if srcTopEdge < miRowStart * T.MI_SIZE || srcLeftEdge < miColStart * T.MI_SIZE
            || srcBottomEdge > miRowEnd * T.MI_SIZE || srcRightEdge > miColEnd * T.MI_SIZE {
            return false
        }
        let sbH = use128 ? 128 : 64
        let activeSbRow = (miRow * T.MI_SIZE) / sbH
        let activeSb64Col = (miCol * T.MI_SIZE) >> 6
        // Both edges are inside the tile here, so positive.
        let srcSbRow = (srcBottomEdge - 1) / sbH
        let srcSb64Col = (srcRightEdge - 1) >> 6
        let totalSb64PerRow = ((miColEnd - miColStart - 1) >> 4) + 1
        let activeSb64 = activeSbRow * totalSb64PerRow + activeSb64Col
        let srcSb64 = srcSbRow * totalSb64PerRow + srcSb64Col
        if srcSb64 >= activeSb64 - T.INTRABC_DELAY_SB64 { return false }
        let gradient = 1 + T.INTRABC_DELAY_SB64 + (use128 ? 1 : 0)
        let wfOffset = gradient * (activeSbRow - srcSbRow)
        if srcSbRow > activeSbRow || srcSb64Col >= activeSb64Col - T.INTRABC_DELAY_SB64 + wfOffset { return false }
        return true
    }
}
