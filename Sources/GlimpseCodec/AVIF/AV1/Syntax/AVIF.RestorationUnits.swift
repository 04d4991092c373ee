extension AVIF {
    /// One plane's loop-restoration units as `read_lr_unit()` (AV1 §5.11.58) leaves them:
    /// `LrType`, `LrWiener`, `LrSgrSet` and `LrSgrXqd` per unit, row by row
    /// (`unitRow * unitCols + unitCol`). Empty when the plane's `FrameRestorationType` is `RESTORE_NONE`.
    struct RestorationUnits: Sendable {
        /// `unitRows`, `unitCols` from `count_units_in_frame()` (§5.11.57).
        let unitRows: Int, unitCols: Int
        /// `LrType`: `RESTORE_NONE`, `RESTORE_WIENER` or `RESTORE_SGRPROJ`.
        var type: [UInt8]
        /// `LrWiener[unit][pass][i]`, 6 per unit (2 passes × 3 coefficients).
        var wiener: [Int8]
        /// `LrSgrSet[unit]`.
        var sgrSet: [UInt8]
        /// `LrSgrXqd[unit][i]`, 2 per unit.
        var sgrXqd: [Int16]

        init(frame: FrameParameters, plane: Int) {
            guard frame.restoration.frameRestorationType[plane] != AV1Tables.RESTORE_NONE else {
                unitRows = 0; unitCols = 0; type = []; wiener = []; sgrSet = []; sgrXqd = []
                return
            }
            let subX = plane > 0 ? frame.subsamplingX : 0, subY = plane > 0 ? frame.subsamplingY : 0
            let unitSize = frame.restoration.loopRestorationSize[plane]
            func countUnits(_ frameSize: Int) -> Int { max((frameSize + (unitSize >> 1)) / unitSize, 1) }
            // Round2(FrameHeight, subY), Round2(UpscaledWidth, subX).
            unitRows = countUnits((frame.header.frameHeight + (subY == 0 ? 0 : 1)) >> subY)
            unitCols = countUnits((frame.header.upscaledWidth + (subX == 0 ? 0 : 1)) >> subX)
            let count = unitRows * unitCols
            type = [UInt8](repeating: 0, count: count)
            wiener = [Int8](repeating: 0, count: 6 * count)
            sgrSet = type
            sgrXqd = [Int16](repeating: 0, count: 2 * count)
        }
    }
}
