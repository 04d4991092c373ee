extension AVIF {
    /// `lr_params()` (AV1 §5.9.20, semantics §6.10.15): each plane's restoration type and
    /// unit size.
    struct RestorationParameters: Sendable {
        /// `FrameRestorationType[plane]`: `RESTORE_NONE`, `RESTORE_WIENER`, `RESTORE_SGRPROJ` or `RESTORE_SWITCHABLE`.
        var frameRestorationType = [0, 0, 0]
        /// `LoopRestorationSize[plane]` in samples.
        var loopRestorationSize = [256, 256, 256]
        var usesLr = false

        mutating func read(_ reader: inout BitReader, frame: FrameParameters) throws(ImageDecodingError) {
            guard !frame.allLossless, !frame.header.allowsIntraBlockCopy, frame.sequence.enablesRestoration else { return }
            var usesChromaLr = false
            for i in 0..<frame.numPlanes {
                frameRestorationType[i] = AV1Tables.Remap_Lr_Type[try reader.bits(2)]
                if frameRestorationType[i] != AV1Tables.RESTORE_NONE {
                    usesLr = true
                    if i > 0 { usesChromaLr = true }
                }
            }
            guard usesLr else { return }
            var lrUnitShift = try reader.bits(1)
            if frame.sequence.uses128x128Superblocks {
                lrUnitShift += 1
            } else if lrUnitShift != 0 {
                lrUnitShift += try reader.bits(1)  // lr_unit_extra_shift
            }
            loopRestorationSize[0] = AV1Tables.RESTORATION_TILESIZE_MAX >> (2 - lrUnitShift)
            let lrUVShift = frame.subsamplingX == 1 && frame.subsamplingY == 1 && usesChromaLr ? try reader.bits(1) : 0
            loopRestorationSize[1] = loopRestorationSize[0] >> lrUVShift
            loopRestorationSize[2] = loopRestorationSize[0] >> lrUVShift
        }
    }
}
