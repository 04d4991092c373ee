extension AVIF {
    /// The intra prediction process (§7.11.2) with palette prediction (§7.11.4) and chroma
    /// from luma (§7.11.5), keeping the specification's `AboveRow`, `LeftCol` and `pred`
    /// arrays between calls so a transform block allocates nothing.
    ///
    /// Everything §7.11.2 reads from the decoder's state arrives in ``Block``: the inputs of
    /// `predict_intra`, the block's modes and flags, `get_filter_type`'s result and `maxX`,
    /// `maxY` (see ``maxCoordinates(miCols:miRows:plane:subsamplingX:subsamplingY:)``).
    struct IntraPredictor: Sendable {
        /// One invocation of the intra prediction process (§7.11.2.1).
        struct Block: Sendable, Equatable {
            /// `plane`: 0 for luma.
            var plane: Int
            /// `x`, `y`: the top-left sample of the transform block in `CurrFrame[ plane ]`.
            var x: Int
            var y: Int
            /// `log2W`, `log2H` (2...6).
            var log2W: Int
            var log2H: Int
            /// `haveLeft`, `haveAbove`, `haveAboveRight` (`haveAboveRt`), `haveBelowLeft` (`haveBelowLt`).
            var haveLeft: Bool
            var haveAbove: Bool
            var haveAboveRight: Bool
            var haveBelowLeft: Bool
            /// `mode`: `YMode` for luma, `UVMode` for chroma (`DC_PRED` when CFL is used,
            /// since §7.11.5 starts from the DC prediction).
            var mode: Int
            /// `AngleDeltaY` for luma, `AngleDeltaUV` for chroma.
            var angleDelta: Int
            /// `use_filter_intra` and `filter_intra_mode` (used for luma only, as §7.11.2.1 says).
            var useFilterIntra: Bool
            var filterIntraMode: Int
            /// `enable_intra_edge_filter` (sequence header).
            var enableIntraEdgeFilter: Bool
            /// `filterType`: the output of `get_filter_type( plane )` (§7.11.2.8), 1 when the
            /// block above or to the left uses a smooth mode.
            var filterType: Int
            /// `maxX`, `maxY`: the largest valid coordinates of the plane (§7.11.2.1).
            var maxX: Int
            var maxY: Int
            /// `BitDepth`.
            var bitDepth: Int

            init(plane: Int, x: Int, y: Int, log2W: Int, log2H: Int, haveLeft: Bool, haveAbove: Bool,
                 haveAboveRight: Bool, haveBelowLeft: Bool, mode: Int, angleDelta: Int = 0,
                 useFilterIntra: Bool = false, filterIntraMode: Int = 0, enableIntraEdgeFilter: Bool = false,
                 filterType: Int = 0, maxX: Int, maxY: Int, bitDepth: Int) {
                self.plane = plane
                self.x = x
                self.y = y
                self.log2W = log2W
                self.log2H = log2H
                self.haveLeft = haveLeft
                self.haveAbove = haveAbove
                self.haveAboveRight = haveAboveRight
                self.haveBelowLeft = haveBelowLeft
                self.mode = mode
                self.angleDelta = angleDelta
                self.useFilterIntra = useFilterIntra
                self.filterIntraMode = filterIntraMode
                self.enableIntraEdgeFilter = enableIntraEdgeFilter
                self.filterType = filterType
                self.maxX = maxX
                self.maxY = maxY
                self.bitDepth = bitDepth
            }
        }

        /// Where index -`edgeOrigin` of AboveRow/LeftCol sits: the processes use indices from -2.
        static let edgeOrigin = 16
        /// `AboveRow[ i ]` at `i + edgeOrigin` (i from -2 to 2 × 64 + 2 × 64 at most).
        var aboveRow: [Int]
        /// `LeftCol[ i ]` at `i + edgeOrigin`.
        var leftCol: [Int]
        /// The edge filter's copy (`edge`, at most 129 entries) and the upsampler's `dup`.
        var edge: [Int]
        /// `pred[ i ][ j ]` at `i * 64 + j`.
        var pred: [Int]

        init() {
            aboveRow = [Int](repeating: 0, count: 320)
            leftCol = [Int](repeating: 0, count: 320)
            edge = [Int](repeating: 0, count: 320)
            pred = [Int](repeating: 0, count: 64 * 64)
        }

        /// `maxX` and `maxY` of §7.11.2.1: ( MiCols × MI_SIZE ) - 1 and ( MiRows × MI_SIZE ) - 1
        /// for luma, each shifted by the subsampling before the - 1 for chroma.
        static func maxCoordinates(miCols: Int, miRows: Int, plane: Int, subsamplingX: Int,
                                   subsamplingY: Int) -> (maxX: Int, maxY: Int) {
            if plane == 0 {
                return ((miCols * AV1Tables.MI_SIZE) - 1, (miRows * AV1Tables.MI_SIZE) - 1)
            }
            return (((miCols * AV1Tables.MI_SIZE) >> subsamplingX) - 1, ((miRows * AV1Tables.MI_SIZE) >> subsamplingY) - 1)
        }

        @inline(__always) func above(_ i: Int) -> Int { aboveRow[i &+ Self.edgeOrigin] }
        @inline(__always) func left(_ i: Int) -> Int { leftCol[i &+ Self.edgeOrigin] }

        /// `is_directional_mode( mode )`: V_PRED through D67_PRED.
        static func isDirectionalMode(_ mode: Int) -> Bool {
            mode >= AV1Tables.V_PRED && mode <= AV1Tables.D67_PRED
        }

        /// §7.11.2.1, the intra prediction process: prepares AboveRow and LeftCol from `frame`
        /// (`CurrFrame[ plane ]`), predicts the w × h block and writes it into `frame`.
        mutating func predict(_ b: Block, into frame: inout AV1Plane) {
            let log2W = AV1Arithmetic.clip3(2, 6, b.log2W)
            let log2H = AV1Arithmetic.clip3(2, 6, b.log2H)
            let w = 1 << log2W
            let h = 1 << log2H
            prepareEdges(b, w: w, h: h, frame: frame)

            if b.plane == 0 && b.useFilterIntra {
                recursiveIntraPrediction(w: w, h: h, filterIntraMode: b.filterIntraMode, bitDepth: b.bitDepth)
            } else if Self.isDirectionalMode(b.mode) {
                directionalIntraPrediction(b, w: w, h: h)
            } else if b.mode == AV1Tables.SMOOTH_PRED || b.mode == AV1Tables.SMOOTH_V_PRED || b.mode == AV1Tables.SMOOTH_H_PRED {
                smoothIntraPrediction(mode: b.mode, log2W: log2W, log2H: log2H, w: w, h: h)
            } else if b.mode == AV1Tables.DC_PRED {
                dcIntraPrediction(haveLeft: b.haveLeft, haveAbove: b.haveAbove, log2W: log2W, log2H: log2H,
                                  w: w, h: h, bitDepth: b.bitDepth)
            } else {
                basicIntraPrediction(w: w, h: h)
            }
            writePrediction(into: &frame, x: b.x, y: b.y, w: w, h: h)
        }

        /// The edge preparation of §7.11.2.1: AboveRow[ -1...w + h - 1 ], LeftCol[ -1...w + h - 1 ].
        mutating func prepareEdges(_ b: Block, w: Int, h: Int, frame: AV1Plane) {
            let x = b.x, y = b.y
            let base = 1 << (b.bitDepth - 1)
            let o = Self.edgeOrigin
            if !b.haveAbove && b.haveLeft {
                let v = frame.sample(x - 1, y)
                for i in 0..<(w + h) { aboveRow[o + i] = v }
            } else if !b.haveAbove && !b.haveLeft {
                for i in 0..<(w + h) { aboveRow[o + i] = base - 1 }
            } else {
                let aboveLimit = min(b.maxX, x + (b.haveAboveRight ? 2 * w : w) - 1)
                for i in 0..<(w + h) { aboveRow[o + i] = frame.sample(min(aboveLimit, x + i), y - 1) }
            }
            if !b.haveLeft && b.haveAbove {
                let v = frame.sample(x, y - 1)
                for i in 0..<(w + h) { leftCol[o + i] = v }
            } else if !b.haveLeft && !b.haveAbove {
                for i in 0..<(w + h) { leftCol[o + i] = base + 1 }
            } else {
                let leftLimit = min(b.maxY, y + (b.haveBelowLeft ? 2 * h : h) - 1)
                for i in 0..<(w + h) { leftCol[o + i] = frame.sample(x - 1, min(leftLimit, y + i)) }
            }
            let corner: Int
            if b.haveAbove && b.haveLeft {
                corner = frame.sample(x - 1, y - 1)
            } else if b.haveAbove {
                corner = frame.sample(x, y - 1)
            } else if b.haveLeft {
                corner = frame.sample(x - 1, y)
            } else {
                corner = base
            }
            aboveRow[o - 1] = corner
            leftCol[o - 1] = corner
        }

        /// CurrFrame[ plane ][ y + i ][ x + j ] = pred[ i ][ j ] (samples outside the plane dropped).
        func writePrediction(into frame: inout AV1Plane, x: Int, y: Int, w: Int, h: Int) {
            // Every predictor yields values within the sample range (clipped or convex combinations).
            if frame.contains(x: x, y: y, width: w, height: h) {
                for i in 0..<h {
                    let row = (y &+ i) &* frame.stride &+ x
                    for j in 0..<w { frame.samples[row &+ j] = UInt16(truncatingIfNeeded: pred[i &* 64 &+ j]) }
                }
            } else {
                for i in 0..<h {
                    for j in 0..<w { frame[y: y &+ i, x: x &+ j] = UInt16(truncatingIfNeeded: pred[i &* 64 &+ j]) }
                }
            }
        }
    }
}
