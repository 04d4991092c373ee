extension AVIF.FrameModeInfo: AVIF.LoopFilterModeInfo, AVIF.CDEF.ModeInfo {
    /// `row * miCols + col`, or nil outside the frame's `MiRows × MiCols`.
    @inline(__always)
    private func index(_ row: Int, _ col: Int) -> Int? {
        row >= 0 && col >= 0 && row < miRows && col < miCols ? row &* miCols &+ col : nil
    }

    /// `MiSizes[ row ][ col ]` (§7.14.2); `BLOCK_4X4` outside the frame.
    func miSize(row: Int, col: Int) -> Int {
        index(row, col).map { Int(miSizes[$0]) } ?? 0
    }

    /// `LoopfilterTxSizes[ plane ][ row ][ col ]` in the plane's own 4×4 units (§7.14.2).
    func loopfilterTxSize(plane: Int, row: Int, col: Int) -> Int {
        guard plane >= 0, plane < loopfilterTxSizes.count, row >= 0, col >= 0,
              row < planeRows[plane], col < planeCols[plane] else { return 0 }
        return Int(loopfilterTxSizes[plane][row &* planeCols[plane] &+ col])
    }

    /// `Skips[ row ][ col ]` (§7.14.2, §7.15.1); skipped outside the frame.
    func skip(row: Int, col: Int) -> Bool {
        index(row, col).map { skips[$0] != 0 } ?? true
    }

    /// `RefFrames[ row ][ col ][ 0 ]`: `INTRA_FRAME` for every block of an intra frame.
    func refFrame0(row: Int, col: Int) -> Int { AVIF.AV1Tables.INTRA_FRAME }

    /// `YModes[ row ][ col ]`.
    func yMode(row: Int, col: Int) -> Int {
        index(row, col).map { Int(yModes[$0]) } ?? 0
    }

    /// `SegmentIds[ row ][ col ]`.
    func segmentId(row: Int, col: Int) -> Int {
        index(row, col).map { Int(segmentIds[$0]) } ?? 0
    }

    /// `DeltaLFs[ row ][ col ][ index ]`, 0 when `delta_lf_present` is 0.
    func deltaLF(row: Int, col: Int, index i: Int) -> Int {
        guard !deltaLFs.isEmpty, i >= 0, i < 4, let at = index(row, col) else { return 0 }
        return Int(deltaLFs[at &* 4 &+ i])
    }

    /// `cdef_idx[ row ][ col ]` of the 64×64 block at (row, col) (§7.15); −1 where not read.
    func cdefIdx(row: Int, col: Int) -> Int {
        guard row >= 0, col >= 0, col >> 4 < cdefCols else { return -1 }
        let at = (row >> 4) &* cdefCols &+ (col >> 4)
        return at < cdefIdx.count ? Int(cdefIdx[at]) : -1
    }
}
