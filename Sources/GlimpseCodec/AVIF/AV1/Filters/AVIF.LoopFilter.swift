extension AVIF {
    /// The loop filter process (§7.14): deblocks `CurrFrame` in place, every vertical edge of
    /// a plane before its horizontal edges.
    enum LoopFilter {
        /// The frame header values §7.14 reads (§5.9.11 loop_filter_params, §5.9.18 delta lf,
        /// §5.9.14 segmentation) and the frame's dimensions.
        struct Parameters: Sendable, Equatable {
            /// `loop_filter_level[ 0...3 ]`.
            var loopFilterLevel: [Int]
            /// `loop_filter_sharpness`.
            var loopFilterSharpness: Int
            /// `loop_filter_delta_enabled`.
            var loopFilterDeltaEnabled: Bool
            /// `loop_filter_ref_deltas[ 0...7 ]`.
            var loopFilterRefDeltas: [Int]
            /// `loop_filter_mode_deltas[ 0...1 ]`.
            var loopFilterModeDeltas: [Int]
            /// `delta_lf_multi`.
            var deltaLFMulti: Bool
            /// `segmentation_enabled`, `FeatureEnabled[ segment ][ feature ]`, `FeatureData[ segment ][ feature ]`.
            var segmentationEnabled: Bool
            var featureEnabled: [[Bool]]
            var featureData: [[Int]]
            /// `FrameWidth`, `FrameHeight`, `MiRows`, `MiCols`.
            var frameWidth: Int
            var frameHeight: Int
            var miRows: Int
            var miCols: Int

            init(loopFilterLevel: [Int], loopFilterSharpness: Int = 0, loopFilterDeltaEnabled: Bool = false,
                 loopFilterRefDeltas: [Int] = [1, 0, 0, 0, -1, 0, -1, -1], loopFilterModeDeltas: [Int] = [0, 0],
                 deltaLFMulti: Bool = false, segmentationEnabled: Bool = false, featureEnabled: [[Bool]] = [],
                 featureData: [[Int]] = [], frameWidth: Int, frameHeight: Int, miRows: Int, miCols: Int) {
                self.loopFilterLevel = loopFilterLevel
                self.loopFilterSharpness = loopFilterSharpness
                self.loopFilterDeltaEnabled = loopFilterDeltaEnabled
                self.loopFilterRefDeltas = loopFilterRefDeltas
                self.loopFilterModeDeltas = loopFilterModeDeltas
                self.deltaLFMulti = deltaLFMulti
                self.segmentationEnabled = segmentationEnabled
                self.featureEnabled = featureEnabled
                self.featureData = featureData
                self.frameWidth = frameWidth
                self.frameHeight = frameHeight
                self.miRows = miRows
                self.miCols = miCols
            }

            /// `loop_filter_level[ i ]`, 0 where absent.
            func level(_ i: Int) -> Int { i >= 0 && i < loopFilterLevel.count ? loopFilterLevel[i] : 0 }

            /// `seg_feature_active_idx( segment, feature )`.
            func segFeatureActive(_ segment: Int, _ feature: Int) -> Bool {
                segmentationEnabled && segment >= 0 && segment < featureEnabled.count
                    && feature >= 0 && feature < featureEnabled[segment].count && featureEnabled[segment][feature]
            }

            /// `FeatureData[ segment ][ feature ]`, 0 where absent.
            func data(_ segment: Int, _ feature: Int) -> Int {
                segment >= 0 && segment < featureData.count && feature >= 0 && feature < featureData[segment].count
                    ? featureData[segment][feature] : 0
            }
        }

        /// §7.14.1: filters every plane (luma always, chroma where loop_filter_level[ 1 + plane ]
        /// is nonzero), vertical edges (pass 0) then horizontal edges (pass 1). The caller applies
        /// it only when loop_filter_level[ 0 ] or [ 1 ] is nonzero, as decode_frame_wrapup does.
        static func apply<M: LoopFilterModeInfo>(to frame: inout AV1Frame, modeInfo: M, _ p: Parameters) {
            for plane in 0..<frame.numPlanes {
                if plane == 0 || p.level(1 + plane) != 0 {
                    for pass in 0..<2 {
                        let rowStep = plane == 0 ? 1 : (1 << frame.subsamplingY)
                        let colStep = plane == 0 ? 1 : (1 << frame.subsamplingX)
                        var row = 0
                        while row < p.miRows {
                            var col = 0
                            while col < p.miCols {
                                edge(frame: &frame, modeInfo: modeInfo, p, plane: plane, pass: pass, row: row, col: col)
                                col += colStep
                            }
                            row += rowStep
                        }
                    }
                }
            }
        }

        /// §7.14.2, the edge loop filter process for the 4-sample edge at luma 4×4 position
        /// (`row`, `col`).
        static func edge<M: LoopFilterModeInfo>(frame: inout AV1Frame, modeInfo: M, _ p: Parameters,
                                                plane: Int, pass: Int, row rowIn: Int, col colIn: Int) {
            typealias K = AV1Tables
            let subX = plane == 0 ? 0 : frame.subsamplingX
            let subY = plane == 0 ? 0 : frame.subsamplingY
            let dx = pass == 0 ? 1 : 0
            let dy = pass == 0 ? 0 : 1
            let x = colIn * K.MI_SIZE
            let y = rowIn * K.MI_SIZE
            let row = rowIn | subY
            let col = colIn | subX
            let onScreen: Bool
            if x >= p.frameWidth {
                onScreen = false
            } else if y >= p.frameHeight {
                onScreen = false
            } else if pass == 0 && x == 0 {
                onScreen = false
            } else if pass == 1 && y == 0 {
                onScreen = false
            } else {
                onScreen = true
            }
            if !onScreen { return }
            let xP = x >> subX
            let yP = y >> subY
            let prevRow = row - (dy << subY)
            let prevCol = col - (dx << subX)
            let miSize = AV1Arithmetic.clip3(0, K.BLOCK_SIZES - 1, modeInfo.miSize(row: row, col: col))
            let txSz = AV1Arithmetic.clip3(0, K.TX_SIZES_ALL - 1, modeInfo.loopfilterTxSize(plane: plane, row: row >> subY, col: col >> subX))
            let planeSize = AV1Arithmetic.clip3(0, K.BLOCK_SIZES - 1, K.Subsampled_Size[miSize][subX][subY])
            let skip = modeInfo.skip(row: row, col: col)
            let isIntra = modeInfo.refFrame0(row: row, col: col) <= K.INTRA_FRAME
            let prevTxSz = AV1Arithmetic.clip3(0, K.TX_SIZES_ALL - 1, modeInfo.loopfilterTxSize(plane: plane, row: prevRow >> subY, col: prevCol >> subX))

            let isBlockEdge: Bool
            if pass == 0 && xP % (K.Num_4x4_Blocks_Wide[planeSize] * 4) == 0 {
                isBlockEdge = true
            } else if pass == 1 && yP % (K.Num_4x4_Blocks_High[planeSize] * 4) == 0 {
                isBlockEdge = true
            } else {
                isBlockEdge = false
            }
            let isTxEdge: Bool
            if pass == 0 && xP % K.Tx_Width[txSz] == 0 {
                isTxEdge = true
            } else if pass == 1 && yP % K.Tx_Height[txSz] == 0 {
                isTxEdge = true
            } else {
                isTxEdge = false
            }
            let applyFilter = isTxEdge && (isBlockEdge || !skip || isIntra)
            let filterSize = Self.filterSize(txSz: txSz, prevTxSz: prevTxSz, pass: pass, plane: plane)
            var strength = adaptiveFilterStrength(modeInfo: modeInfo, p, row: row, col: col, plane: plane, pass: pass)
            if strength.lvl == 0 {
                strength = adaptiveFilterStrength(modeInfo: modeInfo, p, row: prevRow, col: prevCol, plane: plane, pass: pass)
            }
            if applyFilter && strength.lvl > 0 {
                let taps = Taps(isLuma: plane == 0, limit: strength.limit, blimit: strength.blimit,
                                thresh: strength.thresh, filterSize: filterSize, bitDepth: frame.bitDepth)
                filterSegment(plane: &frame.planes[plane], x: xP, y: yP, dx: dx, dy: dy, taps)
            }
        }

        /// §7.14.3, the filter size process.
        static func filterSize(txSz: Int, prevTxSz: Int, pass: Int, plane: Int) -> Int {
            let baseSize = pass == 0
                ? min(AV1Tables.Tx_Width[prevTxSz], AV1Tables.Tx_Width[txSz])
                : min(AV1Tables.Tx_Height[prevTxSz], AV1Tables.Tx_Height[txSz])
            return plane == 0 ? min(16, baseSize) : min(8, baseSize)
        }

        /// §7.14.4, the adaptive filter strength process: lvl, limit, blimit, thresh.
        static func adaptiveFilterStrength<M: LoopFilterModeInfo>(modeInfo: M, _ p: Parameters, row: Int, col: Int,
                                                                 plane: Int, pass: Int)
            -> (lvl: Int, limit: Int, blimit: Int, thresh: Int) {
            typealias K = AV1Tables
            let segment = modeInfo.segmentId(row: row, col: col)
            let ref = modeInfo.refFrame0(row: row, col: col)
            let mode = modeInfo.yMode(row: row, col: col)
            let modeType = (mode >= K.NEARESTMV && mode != K.GLOBALMV && mode != K.GLOBAL_GLOBALMV) ? 1 : 0
            let deltaLF = p.deltaLFMulti
                ? modeInfo.deltaLF(row: row, col: col, index: plane == 0 ? pass : plane + 1)
                : modeInfo.deltaLF(row: row, col: col, index: 0)
            let lvl = filterStrengthSelection(p, segment: segment, ref: ref, modeType: modeType, deltaLF: deltaLF,
                                              plane: plane, pass: pass)
            let sharpness = p.loopFilterSharpness
            let shift = sharpness > 4 ? 2 : (sharpness > 0 ? 1 : 0)
            let limit = sharpness > 0 ? AV1Arithmetic.clip3(1, 9 - sharpness, lvl >> shift) : max(1, lvl >> shift)
            let blimit = 2 * (lvl + 2) + limit
            let thresh = lvl >> 4
            return (lvl, limit, blimit, thresh)
        }

        /// §7.14.5, the adaptive filter strength selection process.
        static func filterStrengthSelection(_ p: Parameters, segment: Int, ref: Int, modeType: Int, deltaLF: Int,
                                            plane: Int, pass: Int) -> Int {
            typealias K = AV1Tables
            let i = plane == 0 ? pass : plane + 1
            // deltaLF is a coded value within ±MAX_LOOP_FILTER; the clamps keep every sum small.
            let baseFilterLevel = AV1Arithmetic.clip3(0, K.MAX_LOOP_FILTER, deltaLF &+ p.level(i))
            var lvlSeg = baseFilterLevel
            let feature = K.SEG_LVL_ALT_LF_Y_V + i
            if p.segFeatureActive(segment, feature) {
                lvlSeg = p.data(segment, feature) &+ lvlSeg
                lvlSeg = AV1Arithmetic.clip3(0, K.MAX_LOOP_FILTER, lvlSeg)
            }
            if p.loopFilterDeltaEnabled {
                let nShift = lvlSeg >> 5
                func delta(_ table: [Int], _ index: Int) -> Int {
                    index >= 0 && index < table.count ? AV1Arithmetic.clip3(-64, 63, table[index]) << nShift : 0
                }
                if ref == K.INTRA_FRAME {
                    lvlSeg = lvlSeg + delta(p.loopFilterRefDeltas, K.INTRA_FRAME)
                } else {
                    lvlSeg = lvlSeg + delta(p.loopFilterRefDeltas, ref) + delta(p.loopFilterModeDeltas, modeType)
                }
                lvlSeg = AV1Arithmetic.clip3(0, K.MAX_LOOP_FILTER, lvlSeg)
            }
            return lvlSeg
        }
    }
}
