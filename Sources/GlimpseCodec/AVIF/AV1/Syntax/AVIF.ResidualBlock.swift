extension AVIF {
    /// The inputs of `reconstruct(plane, x, y, txSz)` (AV1 §7.12.3, §7.13.3) for one
    /// transform block with coefficients.
    struct ResidualBlock: Sendable {
        var plane = 0
        /// The block's top-left sample in the plane.
        var x = 0, y = 0
        var txSz = 0
        /// `PlaneTxType` (`DCT_DCT` … `H_FLIPADST`, from `compute_tx_type`).
        var txType = 0
        /// `Quant[pos]`: the signed coefficients in raster order of the transform block, as
        /// far as coded (at most 32×32; row stride `Tx_Width[Adjusted_Tx_Size[txSz]]`), the
        /// rest 0. Only the first `count` entries are meaningful.
        var quant: [Int32] = []
        var count = 0
        /// `eob`: one past the last coded coefficient in scan order.
        var eob = 0
        /// `Clip3(0, 255, get_qindex(0, segment_id) + DeltaQ…Dc)` and `…Ac` for this plane:
        /// the indices `dc_q`/`ac_q` (§7.12.2) look up.
        var dcQIndex = 0, acQIndex = 0
        /// `qmLevel` of §7.12.3: `SegQMLevel[plane][segment_id]` when `using_qmatrix` and not
        /// lossless, else 15 (no matrix).
        var qmLevel = 15
        /// `Lossless` for the block's segment (Walsh–Hadamard 4×4, §7.13.2.10).
        var lossless = false
        var bitDepth = 8
    }
}
