extension AVIF {
    /// `loop_filter_params()` (AV1 §5.9.11, semantics §6.8.10), starting from the values
    /// `setup_past_independence()` (§7.20) gives an intra frame.
    struct LoopFilterParameters: Sendable {
        /// `loop_filter_level[0..3]`: vertical and horizontal luma edges, then U and V.
        var level = [0, 0, 0, 0]
        var sharpness = 0
        var deltaEnabled = false
        /// `loop_filter_ref_deltas[TOTAL_REFS_PER_FRAME]`; only `INTRA_FRAME`'s matters for intra frames.
        var refDeltas = [1, 0, 0, 0, -1, 0, -1, -1]
        var modeDeltas = [0, 0]

        mutating func read(_ reader: inout BitReader, frame: FrameParameters) throws(ImageDecodingError) {
            if frame.codedLossless || frame.header.allowsIntraBlockCopy {
                return  // levels 0, the deltas at setup_past_independence()'s values
            }
            level[0] = try reader.bits(6)
            level[1] = try reader.bits(6)
            if frame.numPlanes > 1, level[0] != 0 || level[1] != 0 {
                level[2] = try reader.bits(6)
                level[3] = try reader.bits(6)
            }
            sharpness = try reader.bits(3)
            deltaEnabled = try reader.flag()
            if deltaEnabled, try reader.flag() {  // loop_filter_delta_update
                for i in 0..<AV1Tables.TOTAL_REFS_PER_FRAME {
                    if try reader.flag() { refDeltas[i] = try reader.signed(7) }  // update_ref_delta
                }
                for i in 0..<2 {
                    if try reader.flag() { modeDeltas[i] = try reader.signed(7) }  // update_mode_delta
                }
            }
        }
    }
}
