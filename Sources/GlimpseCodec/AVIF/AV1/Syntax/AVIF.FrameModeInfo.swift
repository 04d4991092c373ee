extension AVIF {
    /// What the tile syntax leaves for the frame-level processes (AV1 §7.14 loop filter,
    /// §7.15 CDEF, §7.17 loop restoration, and the contexts of later blocks): the
    /// specification's per-4×4 arrays, frame-wide, each flattened row by row with
    /// `row * miCols + col` (rows and columns in luma 4×4 units, `MiRows × MiCols`), the
    /// per-plane transform sizes in each plane's own 4×4 units, `cdef_idx` per 64×64 block
    /// and the loop-restoration units' coefficients. Positions past the frame's edge (a
    /// block or transform may overhang it) are not stored.
    struct FrameModeInfo: Sendable {
        let miRows: Int, miCols: Int
        /// `MiSizes[row][col]`: the block size (`BLOCK_4X4` … `BLOCK_128X128`).
        var miSizes: [UInt8]
        /// `YModes[row][col]` (intra luma mode, `DC_PRED` … `PAETH_PRED`).
        var yModes: [UInt8]
        /// `UVModes[row][col]`, written for blocks with chroma (`UV_CFL_PRED` included).
        var uvModes: [UInt8]
        /// `Skips[row][col]`: 1 when the block has no residual.
        var skips: [UInt8]
        /// `SegmentIds[row][col]`.
        var segmentIds: [UInt8]
        /// `TxSizes[row][col]`: the block's `TxSize` (for the loop filter's skip decisions).
        var txSizes: [UInt8]
        /// `InterTxSizes[row][col]`: the luma transform size at each 4×4, equal to `TxSize` but
        /// in intra block copy blocks, whose transform tree varies within the block (§5.11.17).
        var interTxSizes: [UInt8]
        /// `IsInters[row][col]`: 1 for intra block copy blocks, the only "inter" blocks of an intra frame.
        var isInters: [UInt8]
        /// `Mvs[row][col][0]` (row, column in 1/8 luma sample) where `IsInters` is 1, 2 per
        /// position: the candidates of later blocks' motion vector prediction (§7.10.2);
        /// empty unless `allow_intrabc`.
        var intraBlockCopyMvs: [Int32]
        /// How many blocks use intra block copy.
        var intraBlockCopyBlocks = 0
        /// `PaletteSizes[plane][row][col]` for plane 0 (Y) and 1 (UV), flattened `plane * count + index`.
        var paletteSizes: [UInt8]
        /// `PaletteColors[plane][row][col][i]`, 8 per position and plane; empty unless
        /// `allow_screen_content_tools` (palettes are impossible otherwise).
        var paletteColors: [UInt16]
        /// `DeltaLFs[row][col][i]` for i < FRAME_LF_COUNT, 4 per position; empty unless `delta_lf_present`.
        var deltaLFs: [Int8]
        /// `LoopfilterTxSizes[plane]`: each plane's transform size per 4×4 of that plane,
        /// `(row >> subY) * planeCols[plane] + (col >> subX)`.
        var loopfilterTxSizes: [[UInt8]]
        let planeRows: [Int], planeCols: [Int]
        /// `cdef_idx` per 64×64 block, `(row >> 4) * cdefCols + (col >> 4)`; −1 where it
        /// was not read (every block skipped, §5.11.56).
        var cdefIdx: [Int8]
        let cdefCols: Int
        /// Each plane's loop-restoration units (§5.11.58).
        var restorationUnits: [RestorationUnits]

        init(frame: FrameParameters) {
            miRows = frame.miRows
            miCols = frame.miCols
            let count = miRows * miCols
            miSizes = [UInt8](repeating: 0, count: count)
            yModes = miSizes
            uvModes = miSizes
            skips = miSizes
            segmentIds = miSizes
            txSizes = miSizes
            interTxSizes = miSizes
            isInters = miSizes
            intraBlockCopyMvs = frame.header.allowsIntraBlockCopy ? [Int32](repeating: 0, count: 2 * count) : []
            paletteSizes = [UInt8](repeating: 0, count: 2 * count)
            paletteColors = frame.header.allowsScreenContentTools ? [UInt16](repeating: 0, count: 16 * count) : []
            deltaLFs = frame.deltaLfPresent ? [Int8](repeating: 0, count: 4 * count) : []
            var rows: [Int] = [], cols: [Int] = []
            for plane in 0..<frame.numPlanes {
                let subX = plane > 0 ? frame.subsamplingX : 0, subY = plane > 0 ? frame.subsamplingY : 0
                rows.append((miRows + (1 << subY) - 1) >> subY)
                cols.append((miCols + (1 << subX) - 1) >> subX)
            }
            planeRows = rows
            planeCols = cols
            loopfilterTxSizes = (0..<frame.numPlanes).map { [UInt8](repeating: 0, count: rows[$0] * cols[$0]) }
            // One more row and column of 64×64 blocks than the frame needs, for 128×128
            // superblocks overhanging its edge.
            cdefCols = (miCols + 31) >> 4
            cdefIdx = [Int8](repeating: -1, count: cdefCols * ((miRows + 31) >> 4))
            restorationUnits = (0..<frame.numPlanes).map { RestorationUnits(frame: frame, plane: $0) }
        }
    }
}
