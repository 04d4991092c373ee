extension AVIF {
    /// The loop restoration process (§7.17): filters the upscaled CDEF output into `LrFrame`,
    /// restoration unit by unit, with samples beyond the current 64-row stripe taken from the
    /// upscaled deblocked (pre-CDEF) frame, as §7.17.6 specifies. Holds the working arrays of
    /// the Wiener and self-guided filters so blocks allocate nothing.
    struct LoopRestoration: Sendable {
        /// One plane's restoration parameters (§5.9.20 lr_params, §5.11.57–58 the unit coefficients).
        struct PlaneUnits: Sendable, Equatable {
            /// `FrameRestorationType[ plane ]` (RESTORE_NONE, RESTORE_WIENER, RESTORE_SGRPROJ, RESTORE_SWITCHABLE).
            var frameRestorationType: Int
            /// `LoopRestorationSize[ plane ]` in samples of the plane (32...256).
            var loopRestorationSize: Int
            /// Per unit, row-major over unitRows × unitCols (see ``unitCount(unitSize:frameSize:)``):
            /// `LrType[ plane ][ unitRow ][ unitCol ]`,
            var lrType: [Int]
            /// `LrWiener[ plane ][ unitRow ][ unitCol ][ pass ][ i ]` at `(unit * 2 + pass) * 3 + i`,
            var lrWiener: [Int]
            /// `LrSgrSet[ plane ][ unitRow ][ unitCol ]`,
            var lrSgrSet: [Int]
            /// `LrSgrXqd[ plane ][ unitRow ][ unitCol ][ i ]` at `unit * 2 + i`.
            var lrSgrXqd: [Int]

            init(frameRestorationType: Int, loopRestorationSize: Int, lrType: [Int] = [], lrWiener: [Int] = [],
                 lrSgrSet: [Int] = [], lrSgrXqd: [Int] = []) {
                self.frameRestorationType = frameRestorationType
                self.loopRestorationSize = loopRestorationSize
                self.lrType = lrType
                self.lrWiener = lrWiener
                self.lrSgrSet = lrSgrSet
                self.lrSgrXqd = lrSgrXqd
            }
        }

        /// The frame values §7.17 reads.
        struct Parameters: Sendable, Equatable {
            /// `FrameHeight`, `UpscaledWidth` (luma samples).
            var frameHeight: Int
            var upscaledWidth: Int
            /// One entry per plane.
            var planes: [PlaneUnits]

            init(frameHeight: Int, upscaledWidth: Int, planes: [PlaneUnits]) {
                self.frameHeight = frameHeight
                self.upscaledWidth = upscaledWidth
                self.planes = planes
            }
        }

        /// `count_units_in_frame( unitSize, frameSize )` (§5.11.57).
        static func unitCount(unitSize: Int, frameSize: Int) -> Int {
            guard unitSize > 0 else { return 1 }
            return max((frameSize + (unitSize >> 1)) / unitSize, 1)
        }

        /// The stripe and plane bounds of §7.17.1 that the get source sample process uses.
        struct Region {
            var stripeStartY: Int
            var stripeEndY: Int
            var planeEndX: Int
            var planeEndY: Int
        }

        /// The box filter's `A` and `B` ((h + 2) × (w + 2), rows of w + 2), its outputs `flt0`
        /// and `flt1` (rows of w), the Wiener filter's `intermediate` ((h + 6) × w), for
        /// blocks of at most ``maxBlock`` × ``maxBlock`` samples.
        static let maxBlock = 64
        var boxA = [Int](repeating: 0, count: (maxBlock + 2) * (maxBlock + 2))
        var boxB = [Int](repeating: 0, count: (maxBlock + 2) * (maxBlock + 2))
        var flt0 = [Int](repeating: 0, count: maxBlock * maxBlock)
        var flt1 = [Int](repeating: 0, count: maxBlock * maxBlock)
        var intermediate = [Int](repeating: 0, count: (maxBlock + 6) * maxBlock)
        /// The source samples around the block ((h + 6) × (w + 6)), and the box filter's column
        /// sums of samples and of their squares along one row of A and B (w + 6).
        var padded = [Int](repeating: 0, count: (maxBlock + 6) * (maxBlock + 6))
        var columnSum = [Int](repeating: 0, count: maxBlock + 6)
        var columnSquares = [Int](repeating: 0, count: maxBlock + 6)
        /// The Wiener filter's `vfilter` (entries 0...6) and `hfilter` (7...13).
        var wienerTaps = [Int](repeating: 0, count: 14)

        init() {}

        /// What §7.17.1 derives for the 4×4 luma unit at (`row`, `col`) of `plane`: the
        /// restoration unit, the stripe and plane bounds, and the block in plane samples
        /// (nil when the block is empty).
        static func blockSetup(_ p: Parameters, plane: Int, subX: Int, subY: Int, row: Int, col: Int)
            -> (unitRow: Int, unitCol: Int, unitCols: Int, region: Region, x: Int, y: Int, w: Int, h: Int)? {
            typealias K = AV1Tables
            let units = p.planes[plane]
            let lumaY = row * K.MI_SIZE
            let stripeNum = (lumaY + 8) / 64
            let stripeStartY = (-8 + stripeNum * 64) >> subY
            let stripeEndY = stripeStartY + (64 >> subY) - 1
            let unitSize = units.loopRestorationSize
            guard unitSize > 0 else { return nil }
            let unitRows = unitCount(unitSize: unitSize, frameSize: AV1Arithmetic.round2(p.frameHeight, subY))
            let unitCols = unitCount(unitSize: unitSize, frameSize: AV1Arithmetic.round2(p.upscaledWidth, subX))
            let unitRow = min(unitRows - 1, ((row * K.MI_SIZE + 8) >> subY) / unitSize)
            let unitCol = min(unitCols - 1, ((col * K.MI_SIZE) >> subX) / unitSize)
            let planeEndX = AV1Arithmetic.round2(p.upscaledWidth, subX) - 1
            let planeEndY = AV1Arithmetic.round2(p.frameHeight, subY) - 1
            let x = (col * K.MI_SIZE) >> subX
            let y = (row * K.MI_SIZE) >> subY
            let w = min(K.MI_SIZE >> subX, planeEndX - x + 1)
            let h = min(K.MI_SIZE >> subY, planeEndY - y + 1)
            guard w > 0 && h > 0 else { return nil }
            let region = Region(stripeStartY: stripeStartY, stripeEndY: stripeEndY, planeEndX: planeEndX, planeEndY: planeEndY)
            return (unitRow, unitCol, unitCols, region, x, y, w, h)
        }

        /// §7.17: `LrFrame` from `UpscaledCdefFrame` (`cdefFrame`), with `UpscaledCurrFrame`
        /// (`currFrame`) for the rows outside each stripe. The caller applies it when UsesLr is 1.
        ///
        /// The specification filters one 4×4 luma unit at a time (``applyPerBlock(currFrame:cdefFrame:_:)``);
        /// as its note allows, this filters the same samples in blocks of up to 64 × 64 that lie
        /// in one restoration unit and one stripe, which gives the same output with less overlap.
        mutating func apply(currFrame: AV1Frame, cdefFrame: AV1Frame, _ p: Parameters) -> AV1Frame {
            var lrFrame = cdefFrame
            for plane in 0..<min(cdefFrame.numPlanes, p.planes.count)
            where p.planes[plane].frameRestorationType != AV1Tables.RESTORE_NONE {
                let subX = plane == 0 ? 0 : cdefFrame.subsamplingX
                let subY = plane == 0 ? 0 : cdefFrame.subsamplingY
                // Bands of rows sharing a stripe and a unit row, and runs of columns sharing a
                // unit column, each at most maxBlock samples.
                var bands: [(y: Int, h: Int, unitRow: Int, region: Region)] = []
                var row = 0
                while row * AV1Tables.MI_SIZE < p.frameHeight {
                    if let s = Self.blockSetup(p, plane: plane, subX: subX, subY: subY, row: row, col: 0) {
                        if let last = bands.last, last.unitRow == s.unitRow, last.region.stripeStartY == s.region.stripeStartY,
                           last.y + last.h == s.y, last.h + s.h <= Self.maxBlock {
                            bands[bands.count - 1].h += s.h
                        } else {
                            bands.append((s.y, s.h, s.unitRow, s.region))
                        }
                    }
                    row += 1
                }
                var runs: [(x: Int, w: Int, unitCol: Int)] = []
                var unitCols = 1
                var col = 0
                while col * AV1Tables.MI_SIZE < p.upscaledWidth {
                    if let s = Self.blockSetup(p, plane: plane, subX: subX, subY: subY, row: 0, col: col) {
                        unitCols = s.unitCols
                        if let last = runs.last, last.unitCol == s.unitCol, last.x + last.w == s.x, last.w + s.w <= Self.maxBlock {
                            runs[runs.count - 1].w += s.w
                        } else {
                            runs.append((s.x, s.w, s.unitCol))
                        }
                    }
                    col += 1
                }
                for band in bands {
                    for run in runs {
                        filterBlock(currFrame: currFrame, cdefFrame: cdefFrame, lrFrame: &lrFrame, p, plane: plane,
                                    unit: band.unitRow * unitCols + run.unitCol, region: band.region,
                                    x: run.x, y: band.y, w: run.w, h: band.h)
                    }
                }
            }
            return lrFrame
        }

        /// §7.17 exactly as written: the loop restore block process for every 4×4 luma unit
        /// (slower than ``apply(currFrame:cdefFrame:_:)``, kept as its reference).
        mutating func applyPerBlock(currFrame: AV1Frame, cdefFrame: AV1Frame, _ p: Parameters) -> AV1Frame {
            var lrFrame = cdefFrame
            var y = 0
            while y < p.frameHeight {
                var x = 0
                while x < p.upscaledWidth {
                    for plane in 0..<min(cdefFrame.numPlanes, p.planes.count)
                    where p.planes[plane].frameRestorationType != AV1Tables.RESTORE_NONE {
                        let row = y >> AV1Tables.MI_SIZE_LOG2
                        let col = x >> AV1Tables.MI_SIZE_LOG2
                        restoreBlock(currFrame: currFrame, cdefFrame: cdefFrame, lrFrame: &lrFrame, p, plane: plane,
                                     row: row, col: col)
                    }
                    x += AV1Tables.MI_SIZE
                }
                y += AV1Tables.MI_SIZE
            }
            return lrFrame
        }

        /// §7.17.1, the loop restore block process for the 4×4 luma unit at (`row`, `col`).
        mutating func restoreBlock(currFrame: AV1Frame, cdefFrame: AV1Frame, lrFrame: inout AV1Frame, _ p: Parameters,
                                   plane: Int, row: Int, col: Int) {
            let subX = plane == 0 ? 0 : cdefFrame.subsamplingX
            let subY = plane == 0 ? 0 : cdefFrame.subsamplingY
            guard let s = Self.blockSetup(p, plane: plane, subX: subX, subY: subY, row: row, col: col) else { return }
            filterBlock(currFrame: currFrame, cdefFrame: cdefFrame, lrFrame: &lrFrame, p, plane: plane,
                        unit: s.unitRow * s.unitCols + s.unitCol, region: s.region, x: s.x, y: s.y, w: s.w, h: s.h)
        }

        /// The end of §7.17.1: the filter of unit `unit` (LrType) on the w × h block at (`x`, `y`).
        mutating func filterBlock(currFrame: AV1Frame, cdefFrame: AV1Frame, lrFrame: inout AV1Frame, _ p: Parameters,
                                  plane: Int, unit: Int, region: Region, x: Int, y: Int, w: Int, h: Int) {
            typealias K = AV1Tables
            let units = p.planes[plane]
            guard w > 0 && h > 0 && w <= Self.maxBlock && h <= Self.maxBlock else { return }
            let rType = unit < units.lrType.count ? units.lrType[unit] : K.RESTORE_NONE
            if rType == K.RESTORE_WIENER {
                // LrWiener[ ... ][ 0 ] (vertical) and [ 1 ] (horizontal) to the 7-tap filters (§7.17.5).
                for pass in 0..<2 {
                    var centre = 128
                    for i in 0..<3 {
                        let k = (unit * 2 + pass) * 3 + i
                        let c = k < units.lrWiener.count ? AV1Arithmetic.clip3(-128, 128, units.lrWiener[k]) : 0
                        wienerTaps[pass * 7 + i] = c
                        wienerTaps[pass * 7 + 6 - i] = c
                        centre -= 2 * c
                    }
                    wienerTaps[pass * 7 + 3] = centre
                }
                wienerFilter(currFrame: currFrame.planes[plane], cdefFrame: cdefFrame.planes[plane],
                             lrFrame: &lrFrame.planes[plane], region: region, x: x, y: y, w: w, h: h,
                             bitDepth: cdefFrame.bitDepth)
            } else if rType == K.RESTORE_SGRPROJ {
                let set = unit < units.lrSgrSet.count ? AV1Arithmetic.clip3(0, 15, units.lrSgrSet[unit]) : 0
                // LrSgrXqd is coded within Sgrproj_Xqd_Min...Max (-96...95); bounded for the products.
                let w0 = unit * 2 < units.lrSgrXqd.count ? AV1Arithmetic.clip3(-256, 256, units.lrSgrXqd[unit * 2]) : 0
                let w1 = unit * 2 + 1 < units.lrSgrXqd.count ? AV1Arithmetic.clip3(-256, 256, units.lrSgrXqd[unit * 2 + 1]) : 0
                selfGuidedFilter(currFrame: currFrame.planes[plane], cdefFrame: cdefFrame.planes[plane],
                                 lrFrame: &lrFrame.planes[plane], region: region, set: set, xqd: (w0, w1),
                                 x: x, y: y, w: w, h: h, bitDepth: cdefFrame.bitDepth)
            }
        }

        /// The row of §7.17.6 for `y`: the frame its samples come from (`UpscaledCurrFrame`
        /// beyond the stripe, `UpscaledCdefFrame` within it) and the row's index in it.
        @inline(__always)
        static func sourceRow(_ currFrame: AV1Plane, _ cdefFrame: AV1Plane, _ r: Region, y yIn: Int) -> (AV1Plane, Int) {
            let y = max(0, min(r.planeEndY, yIn))
            if y < r.stripeStartY { return (currFrame, max(r.stripeStartY - 2, y)) }
            if y > r.stripeEndY { return (currFrame, min(r.stripeEndY + 2, y)) }
            return (cdefFrame, y)
        }
    }
}
