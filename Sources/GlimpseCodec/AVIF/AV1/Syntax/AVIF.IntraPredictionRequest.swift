extension AVIF {
    /// The inputs of `predict_intra()` (AV1 §7.11.2) for one transform block, as
    /// `transform_block()` (§5.11.35) computes them, with the block state the process reads.
    struct IntraPredictionRequest: Sendable, Hashable {
        var plane = 0
        /// The block's top-left sample in the plane (`x`, `y` = `startX`, `startY`).
        var x = 0, y = 0
        var haveLeft = false, haveAbove = false
        /// `haveAboveRt`, `haveBelowLt`: whether the samples above-right and below-left are decoded.
        var haveAboveRight = false, haveBelowLeft = false
        /// `mode`: `YMode` for luma, `UVMode` for chroma (`DC_PRED` when `UVMode` is `UV_CFL_PRED`).
        var mode = 0
        /// `log2W`, `log2H`: the transform block's size.
        var log2W = 2, log2H = 2
        /// `AngleDeltaY` (plane 0) or `AngleDeltaUV`, −3…3 (§7.11.2.4 `pAngle`).
        var angleDelta = 0
        /// `use_filter_intra` and `filter_intra_mode` (§7.11.2.3); only ever set for plane 0.
        var useFilterIntra = false
        var filterIntraMode = 0
        /// `enable_intra_edge_filter` of the sequence header.
        var enableIntraEdgeFilter = false
        /// `filterType` of `get_filter_type(plane)` (§7.11.2): a neighbour above or left is smooth.
        var filterType = false
        /// `MiRows`, `MiCols`: for `maxX`/`maxY` of the edge preparation (§7.11.2).
        var miRows = 0, miCols = 0
        /// `subsampling_x`/`subsampling_y` of this plane (0 for luma).
        var subX = 0, subY = 0
        var bitDepth = 8
    }
}
