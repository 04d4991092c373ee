extension AVIF {
    /// The CDEF process (§7.15): derings the deblocked `CurrFrame` into a separate `CdefFrame`,
    /// reading only `CurrFrame`, one 8×8 block at a time.
    enum CDEF {
        /// The per-block values CDEF reads, in luma 4×4 units.
        protocol ModeInfo {
            /// `Skips[ row ][ col ]`.
            func skip(row: Int, col: Int) -> Bool
            /// `cdef_idx[ row ][ col ]` of the 64×64 block whose top-left 4×4 unit is (row, col);
            /// -1 when no filtering applies.
            func cdefIdx(row: Int, col: Int) -> Int
        }

        /// The frame header values of §5.9.19 (cdef_params) and the frame's size in 4×4 units.
        struct Parameters: Sendable, Equatable {
            /// `CdefDamping` (cdef_damping_minus_3 + 3).
            var cdefDamping: Int
            /// `cdef_y_pri_strength[ ]`, `cdef_y_sec_strength[ ]` (after the syntax's 3 → 4 step),
            /// `cdef_uv_pri_strength[ ]`, `cdef_uv_sec_strength[ ]`, indexed by cdef_idx.
            var cdefYPriStrength: [Int]
            var cdefYSecStrength: [Int]
            var cdefUVPriStrength: [Int]
            var cdefUVSecStrength: [Int]
            /// `MiRows`, `MiCols`.
            var miRows: Int
            var miCols: Int

            init(cdefDamping: Int, cdefYPriStrength: [Int], cdefYSecStrength: [Int], cdefUVPriStrength: [Int],
                 cdefUVSecStrength: [Int], miRows: Int, miCols: Int) {
                self.cdefDamping = cdefDamping
                self.cdefYPriStrength = cdefYPriStrength
                self.cdefYSecStrength = cdefYSecStrength
                self.cdefUVPriStrength = cdefUVPriStrength
                self.cdefUVSecStrength = cdefUVSecStrength
                self.miRows = miRows
                self.miCols = miCols
            }
        }

        /// §7.15: `CdefFrame` from `currFrame` (which stays unchanged).
        static func apply<M: ModeInfo>(currFrame: AV1Frame, modeInfo: M, _ p: Parameters) -> AV1Frame {
            // CdefFrame starts as a copy: §7.15.1 copies every 8×8 block before filtering it.
            var cdefFrame = currFrame
            let step4 = AV1Tables.Num_4x4_Blocks_Wide[AV1Tables.BLOCK_8X8]
            let cdefSize4 = AV1Tables.Num_4x4_Blocks_Wide[AV1Tables.BLOCK_64X64]
            let cdefMask4 = ~(cdefSize4 - 1)
            var r = 0
            while r < p.miRows {
                var c = 0
                while c < p.miCols {
                    let baseR = r & cdefMask4
                    let baseC = c & cdefMask4
                    let idx = modeInfo.cdefIdx(row: baseR, col: baseC)
                    block(currFrame: currFrame, cdefFrame: &cdefFrame, modeInfo: modeInfo, p, r: r, c: c, idx: idx)
                    c += step4
                }
                r += step4
            }
            return cdefFrame
        }

        /// §7.15.1, the CDEF block process for the 8×8 block at (`r`, `c`).
        static func block<M: ModeInfo>(currFrame: AV1Frame, cdefFrame: inout AV1Frame, modeInfo: M, _ p: Parameters,
                                       r: Int, c: Int, idx: Int) {
            guard idx >= 0 && idx < p.cdefYPriStrength.count && idx < p.cdefYSecStrength.count else { return }
            let coeffShift = currFrame.bitDepth - 8
            let skip = modeInfo.skip(row: r, col: c) && modeInfo.skip(row: r + 1, col: c)
                && modeInfo.skip(row: r, col: c + 1) && modeInfo.skip(row: r + 1, col: c + 1)
            if skip { return }
            let (yDir, variance) = direction(currFrame.planes[0], r: r, c: c, bitDepth: currFrame.bitDepth)
            var priStr = p.cdefYPriStrength[idx] << coeffShift
            var secStr = p.cdefYSecStrength[idx] << coeffShift
            var dir = priStr == 0 ? 0 : yDir
            let varStr = (variance >> 6) != 0 ? min(AV1Arithmetic.floorLog2(variance >> 6), 12) : 0
            priStr = variance != 0 ? (priStr * (4 + varStr) + 8) >> 4 : 0
            var damping = p.cdefDamping + coeffShift
            filter(currFrame: currFrame, cdefFrame: &cdefFrame, plane: 0, r: r, c: c, priStr: priStr, secStr: secStr,
                   damping: damping, dir: dir, p)
            if currFrame.numPlanes == 1 { return }
            guard idx < p.cdefUVPriStrength.count && idx < p.cdefUVSecStrength.count else { return }
            priStr = p.cdefUVPriStrength[idx] << coeffShift
            secStr = p.cdefUVSecStrength[idx] << coeffShift
            dir = priStr == 0 ? 0 : AV1Tables.Cdef_Uv_Dir[currFrame.subsamplingX & 1][currFrame.subsamplingY & 1][yDir]
            damping = p.cdefDamping + coeffShift - 1
            filter(currFrame: currFrame, cdefFrame: &cdefFrame, plane: 1, r: r, c: c, priStr: priStr, secStr: secStr,
                   damping: damping, dir: dir, p)
            filter(currFrame: currFrame, cdefFrame: &cdefFrame, plane: 2, r: r, c: c, priStr: priStr, secStr: secStr,
                   damping: damping, dir: dir, p)
        }

        /// §7.15.2, the CDEF direction process: the luma 8×8 block's direction (0...7) and variance.
        static func direction(_ luma: AV1Plane, r: Int, c: Int, bitDepth: Int) -> (yDir: Int, variance: Int) {
            // cost[ 8 ] and partial[ 8 ][ 15 ] on the stack: this runs for every 8×8 luma block.
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 8 + 8 * 15) { buffer in
                buffer.initialize(repeating: 0)
                let cost = UnsafeMutableBufferPointer(rebasing: buffer[0..<8])
                let partial = UnsafeMutableBufferPointer(rebasing: buffer[8..<(8 + 8 * 15)])
                @inline(__always) func add(_ d: Int, _ k: Int, _ v: Int) { partial[d &* 15 &+ k] &+= v }
                @inline(__always) func sq(_ d: Int, _ k: Int) -> Int { partial[d &* 15 &+ k] &* partial[d &* 15 &+ k] }
                var bestCost = 0
                var yDir = 0
                let x0 = c << AV1Tables.MI_SIZE_LOG2
                let y0 = r << AV1Tables.MI_SIZE_LOG2
                // Samples are below 2^12, so |x| ≤ 2^9, partial sums ≤ 2^12, costs < 2^40: no wrap.
                for i in 0..<8 {
                    for j in 0..<8 {
                        let x = (luma.sample(x0 + j, y0 + i) >> (bitDepth - 8)) - 128
                        add(0, i + j, x)
                        add(1, i + j / 2, x)
                        add(2, i, x)
                        add(3, 3 + i - j / 2, x)
                        add(4, 7 + i - j, x)
                        add(5, 3 - i / 2 + j, x)
                        add(6, j, x)
                        add(7, i / 2 + j, x)
                    }
                }
                let divTable = AV1Tables.Div_Table
                for i in 0..<8 {
                    cost[2] &+= sq(2, i)
                    cost[6] &+= sq(6, i)
                }
                cost[2] &*= divTable[8]
                cost[6] &*= divTable[8]
                for i in 0..<7 {
                    cost[0] &+= (sq(0, i) &+ sq(0, 14 - i)) &* divTable[i + 1]
                    cost[4] &+= (sq(4, i) &+ sq(4, 14 - i)) &* divTable[i + 1]
                }
                cost[0] &+= sq(0, 7) &* divTable[8]
                cost[4] &+= sq(4, 7) &* divTable[8]
                for i in stride(from: 1, to: 8, by: 2) {
                    for j in 0..<(4 + 1) {
                        cost[i] &+= sq(i, 3 + j)
                    }
                    cost[i] &*= divTable[8]
                    for j in 0..<(4 - 1) {
                        cost[i] &+= (sq(i, j) &+ sq(i, 10 - j)) &* divTable[2 * j + 2]
                    }
                }
                for i in 0..<8 where cost[i] > bestCost {
                    bestCost = cost[i]
                    yDir = i
                }
                let variance = (bestCost - cost[(yDir + 4) & 7]) >> 10
                return (yDir, variance)
            }
        }

        /// `constrain( diff, threshold, damping )` (§7.15.3), with `shift` =
        /// Max( 0, damping - FloorLog2( threshold ) ) computed once per block (0 when threshold is 0,
        /// which makes the result 0 as the specification's early return does).
        @inline(__always)
        static func constrain(_ diff: Int, _ threshold: Int, shift: Int) -> Int {
            // |diff| < 2^12 and threshold < 2^9: nothing here can overflow.
            let magnitude = abs(diff)
            let limited = min(magnitude, max(0, threshold &- (magnitude &>> shift)))
            return diff < 0 ? -limited : limited
        }

        /// The shift ``constrain(_:_:shift:)`` takes for `threshold` and `damping`.
        @inline(__always)
        static func constrainShift(threshold: Int, damping: Int) -> Int {
            threshold == 0 ? 0 : min(max(0, damping - AV1Arithmetic.floorLog2(threshold)), 62)
        }

        /// §7.15.3, the CDEF filter process for one plane of the 8×8 block at (`r`, `c`).
        ///
        /// Blocks at least two samples inside the filter region (every tap available) take a path
        /// without per-tap checks; the others check each tap as `is_inside_filter_region` does. The
        /// sum is the same either way: only the order of its additions differs.
        static func filter(currFrame: AV1Frame, cdefFrame: inout AV1Frame, plane: Int, r: Int, c: Int, priStr: Int,
                           secStr: Int, damping: Int, dir: Int, _ p: Parameters) {
            let coeffShift = currFrame.bitDepth - 8
            let subX = plane > 0 ? currFrame.subsamplingX : 0
            let subY = plane > 0 ? currFrame.subsamplingY : 0
            let x0 = (c * AV1Tables.MI_SIZE) >> subX
            let y0 = (r * AV1Tables.MI_SIZE) >> subY
            let w = 8 >> subX
            let h = 8 >> subY
            let source = currFrame.planes[plane]
            let priTaps = AV1Tables.Cdef_Pri_Taps[(priStr >> coeffShift) & 1]
            let secTaps = AV1Tables.Cdef_Sec_Taps[(priStr >> coeffShift) & 1]
            // is_inside_filter_region( candidateR, candidateC ) with candidateR = ( y << subY ) >>
            // MI_SIZE_LOG2 holds exactly when 0 ≤ y < ( MiRows × MI_SIZE ) >> subY (MiRows is even),
            // and likewise for x: the limits in plane samples, which the plane (64 samples of
            // margin past them) contains.
            let limitX = min((p.miCols * AV1Tables.MI_SIZE) >> subX, source.width)
            let limitY = min((p.miRows * AV1Tables.MI_SIZE) >> subY, source.height)
            guard x0 >= 0, y0 >= 0, x0 + w <= source.width, y0 + h <= source.height,
                  cdefFrame.planes[plane].width == source.width, cdefFrame.planes[plane].height == source.height
            else { return }
            // The twelve taps of §7.15.3 in the order of its loops — k = 0 and 1, the primary
            // direction and then the two secondary ones, sign 1 and then −1 — as ( dy, dx ) and
            // as an offset in the plane; the first four are primary. Laid out once per block
            // so that the per-sample loop is a walk over them (the sum is order-independent).
            let rowStride = source.stride
            let weights = (priTaps[0], priTaps[1], secTaps[0], secTaps[1])
            let priShift = constrainShift(threshold: priStr, damping: damping)
            let secShift = constrainShift(threshold: secStr, damping: damping)
            // Every tap is at most 2 samples away in each direction.
            let interior = x0 >= 2 && y0 >= 2 && x0 + w + 2 <= limitX && y0 + h + 2 <= limitY
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 4 * 12) { table in
                let dys = UnsafeMutableBufferPointer(rebasing: table[0..<12])
                let dxs = UnsafeMutableBufferPointer(rebasing: table[12..<24])
                let offsets = UnsafeMutableBufferPointer(rebasing: table[24..<36])
                let tapWeights = UnsafeMutableBufferPointer(rebasing: table[36..<48])
                var t = 0
                // Direction d's k-th step, both signs, with its weight.
                func add(_ d: Int, _ k: Int, _ weight: Int) {
                    for sign in stride(from: 1, through: -1, by: -2) {
                        let oy = sign * AV1Tables.Cdef_Directions[d][k][0]
                        let ox = sign * AV1Tables.Cdef_Directions[d][k][1]
                        dys[t] = oy
                        dxs[t] = ox
                        offsets[t] = oy * rowStride + ox
                        tapWeights[t] = weight
                        t += 1
                    }
                }
                add(dir, 0, weights.0)
                add(dir, 1, weights.1)
                add((dir - 2) & 7, 0, weights.2)
                add((dir + 2) & 7, 0, weights.2)
                add((dir - 2) & 7, 1, weights.3)
                add((dir + 2) & 7, 1, weights.3)
                source.samples.withUnsafeBufferPointer { src in
                    cdefFrame.planes[plane].samples.withUnsafeMutableBufferPointer { dst in
                        for i in 0..<h {
                            let y = y0 + i
                            for j in 0..<w {
                                let x = x0 + j
                                // The block lies inside the plane (the guard above).
                                let at = y &* rowStride &+ x
                                let centre = Int(src[at])
                                var sum = 0
                                var maximum = centre
                                var minimum = centre
                                for t in 0..<12 {
                                    if !interior {
                                        // cdef_get_at: CdefAvailable is 0 outside the filter region.
                                        let sy = y &+ dys[t], sx = x &+ dxs[t]
                                        guard sx >= 0 && sx < limitX && sy >= 0 && sy < limitY else { continue }
                                    }
                                    // Inside the filter region, which the plane contains.
                                    let v = Int(src[at &+ offsets[t]])
                                    let (threshold, shift) = t < 4 ? (priStr, priShift) : (secStr, secShift)
                                    sum &+= tapWeights[t] &* constrain(v &- centre, threshold, shift: shift)
                                    maximum = max(v, maximum)
                                    minimum = min(v, minimum)
                                }
                                let v = AV1Arithmetic.clip3(minimum, maximum, centre + ((8 + sum - (sum < 0 ? 1 : 0)) >> 4))
                                dst[at] = UInt16(truncatingIfNeeded: v)
                            }
                        }
                    }
                }
            }
        }
    }
}
