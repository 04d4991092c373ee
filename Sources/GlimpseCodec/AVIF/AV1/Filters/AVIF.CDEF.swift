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

        /// `constrain( diff, threshold, damping )` (§7.15.3).
        @inline(__always)
        static func constrain(_ diff: Int, _ threshold: Int, _ damping: Int) -> Int {
            if threshold == 0 { return 0 }
            let dampingAdj = max(0, damping - AV1Arithmetic.floorLog2(threshold))
            let magnitude = AV1Arithmetic.clip3(0, abs(diff), threshold - (abs(diff) >> min(dampingAdj, 62)))
            return diff < 0 ? -magnitude : magnitude
        }

        /// §7.15.3, the CDEF filter process for one plane of the 8×8 block at (`r`, `c`).
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
            // and likewise for x: the limits in plane samples.
            let limitX = (p.miCols * AV1Tables.MI_SIZE) >> subX
            let limitY = (p.miRows * AV1Tables.MI_SIZE) >> subY
            // Cdef_Directions for the primary direction and the two secondary ones, k = 0 and 1,
            // hoisted out of the sample loop: ( dy, dx ) pairs in the order the filter uses them.
            var offsets = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &offsets) { raw in
                let o = raw.bindMemory(to: Int.self)
                for k in 0..<2 {
                    for (n, d) in [dir, (dir - 2) & 7, (dir + 2) & 7].enumerated() {
                        o[(k * 3 + n) * 2] = AV1Tables.Cdef_Directions[d][k][0]
                        o[(k * 3 + n) * 2 + 1] = AV1Tables.Cdef_Directions[d][k][1]
                    }
                }
            }
            let pri0 = priTaps[0], pri1 = priTaps[1], sec0 = secTaps[0], sec1 = secTaps[1]
            for i in 0..<h {
                for j in 0..<w {
                    var sum = 0
                    let y = y0 + i, x0j = x0 + j
                    let x = source.sample(x0j, y)
                    var maximum = x
                    var minimum = x
                    withUnsafeBytes(of: offsets) { raw in
                        let o = raw.bindMemory(to: Int.self)
                        for k in 0..<2 {
                            let priTap = k == 0 ? pri0 : pri1
                            let secTap = k == 0 ? sec0 : sec1
                            for sign in stride(from: -1, through: 1, by: 2) {
                                // n = 0: the primary tap (dir); n = 1, 2: the secondary taps (dir ∓ 2).
                                for n in 0..<3 {
                                    let sy = y + sign * o[(k * 3 + n) * 2]
                                    let sx = x0j + sign * o[(k * 3 + n) * 2 + 1]
                                    // cdef_get_at: CdefAvailable is 0 outside the filter region.
                                    guard sx >= 0 && sx < limitX && sy >= 0 && sy < limitY else { continue }
                                    let v = source.sample(sx, sy)
                                    if n == 0 {
                                        sum += priTap * constrain(v - x, priStr, damping)
                                    } else {
                                        sum += secTap * constrain(v - x, secStr, damping)
                                    }
                                    maximum = max(v, maximum)
                                    minimum = min(v, minimum)
                                }
                            }
                        }
                    }
                    let v = AV1Arithmetic.clip3(minimum, maximum, x + ((8 + sum - (sum < 0 ? 1 : 0)) >> 4))
                    cdefFrame.planes[plane][y: y0 + i, x: x0 + j] = UInt16(truncatingIfNeeded: v)
                }
            }
        }
    }
}
