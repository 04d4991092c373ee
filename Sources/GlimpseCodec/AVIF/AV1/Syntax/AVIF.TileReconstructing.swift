extension AVIF {
    /// The seam between the tile syntax (AV1 §5.11) and the decoding process (§7.11–§7.13):
    /// the tile decoder calls these where the syntax tables call `predict_intra`,
    /// `predict_palette`, `predict_chroma_from_luma` and `reconstruct` (in
    /// `transform_block()`, §5.11.35), in the specification's order, passing every value the
    /// process reads, so that an implementation needs no other syntax state. Frame-level
    /// filters read ``AVIF/FrameModeInfo`` after the last tile.
    protocol TileReconstructing {
        /// `predict_intra(plane, x, y, haveLeft, haveAbove, haveAboveRt, haveBelowLt, mode,
        /// log2W, log2H)`: the intra prediction process (§7.11.2) for one transform block.
        mutating func predictIntra(_ request: IntraPredictionRequest)

        /// `predict_palette(plane, startX, startY, x, y, txSz)` (§7.11.4): the block's
        /// `palette` colours (`palette_colors_y`, or `_u`/`_v` for planes 1 and 2) indexed
        /// by `colorMap` (`ColorMapY` or `ColorMapUV`, row `i` at `i * colorMapStride`),
        /// whose entry for sample (i, j) of this transform block is at row `y * 4 + i`,
        /// column `x * 4 + j`.
        mutating func predictPalette(plane: Int, startX: Int, startY: Int, x: Int, y: Int, txSz: Int,
                                     palette: [UInt16], colorMap: [UInt8], colorMapStride: Int)

        /// `predict_chroma_from_luma(plane, startX, startY, txSz)` (§7.11.5) after the DC
        /// prediction of the same block: `alpha` is `CflAlphaU` (plane 1) or `CflAlphaV`
        /// (plane 2); `maxLumaW`/`maxLumaH` are `MaxLumaW`/`MaxLumaH`, the extent of the
        /// luma samples decoded for the block.
        mutating func predictChromaFromLuma(plane: Int, startX: Int, startY: Int, txSz: Int, alpha: Int,
                                            maxLumaW: Int, maxLumaH: Int)

        /// `reconstruct(plane, x, y, txSz)` (§7.12.3 dequantization, §7.13.3 inverse
        /// transform and adding the residual) for a transform block whose `eob` > 0.
        mutating func reconstruct(_ block: ResidualBlock)

        /// `predict_inter(plane, baseX, baseY, w, h, candRow, candCol)` (§7.11.3) of an intra
        /// block copy block (`use_intrabc`, from `compute_prediction()`, §5.11.33): the block's
        /// plane area `x`, `y`, `width` × `height`, predicted from the frame being decoded
        /// displaced by the block's motion vector `mv` (`Mv[ 0 ]`, row and column in 1/8 luma
        /// sample), which `is_mv_valid` (§6.10.25) has already checked.
        mutating func predictIntraBlockCopy(plane: Int, x: Int, y: Int, width: Int, height: Int, mv: (row: Int, col: Int))
    }

    /// A reconstructor that does nothing: parsing alone (the tile syntax reads no pixels).
    struct DiscardingReconstructor: TileReconstructing {
        mutating func predictIntra(_ request: IntraPredictionRequest) {}
        mutating func predictPalette(plane: Int, startX: Int, startY: Int, x: Int, y: Int, txSz: Int,
                                     palette: [UInt16], colorMap: [UInt8], colorMapStride: Int) {}
        mutating func predictChromaFromLuma(plane: Int, startX: Int, startY: Int, txSz: Int, alpha: Int,
                                            maxLumaW: Int, maxLumaH: Int) {}
        mutating func reconstruct(_ block: ResidualBlock) {}
        mutating func predictIntraBlockCopy(plane: Int, x: Int, y: Int, width: Int, height: Int, mv: (row: Int, col: Int)) {}
    }
}
