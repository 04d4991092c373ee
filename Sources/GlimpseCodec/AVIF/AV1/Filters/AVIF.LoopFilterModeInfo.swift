extension AVIF {
    /// The per-4×4 mode info the loop filter reads (§7.14), in the specification's terms; the
    /// tile decoder's block store conforms. Coordinates are in luma 4×4 units (`MiRow`,
    /// `MiCol`) except for ``loopfilterTxSize(plane:row:col:)``, whose indices are the
    /// specification's ( row >> subY, col >> subX ).
    protocol LoopFilterModeInfo {
        /// `MiSizes[ row ][ col ]`.
        func miSize(row: Int, col: Int) -> Int
        /// `LoopfilterTxSizes[ plane ][ row ][ col ]`.
        func loopfilterTxSize(plane: Int, row: Int, col: Int) -> Int
        /// `Skips[ row ][ col ]`.
        func skip(row: Int, col: Int) -> Bool
        /// `RefFrames[ row ][ col ][ 0 ]` (`INTRA_FRAME`, 0, for every block of an intra frame).
        func refFrame0(row: Int, col: Int) -> Int
        /// `YModes[ row ][ col ]`.
        func yMode(row: Int, col: Int) -> Int
        /// `SegmentIds[ row ][ col ]`.
        func segmentId(row: Int, col: Int) -> Int
        /// `DeltaLFs[ row ][ col ][ index ]` (index 0...3; 0 when delta_lf_present is 0).
        func deltaLF(row: Int, col: Int, index: Int) -> Int
    }
}
