/// The mode searches of ``WebP/LossyMacroblockEncoder``: 16×16 luma, the
/// sixteen 4×4 sub-blocks, chroma; and the work area's set-up and hand-back.
extension WebP.LossyMacroblockEncoder {
    /// Fills the work area's borders from the reconstruction, as the decoder's
    /// `beginReconstructionRow` and `reconstruct` do, and copies the source macroblock.
    func load(_ mbX: Int, _ mbY: Int) {
        let s = Self.s, lw = lumaWidth, cw = chromaWidth
        let x0 = mbX &* 16, y0 = mbY &* 16, cx0 = mbX &* 8, cy0 = mbY &* 8
        let y = work + Self.lumaOffset, u = work + Self.uOffset, v = work + Self.vOffset
        let sourceLuma = source + Self.lumaOffset
        let sourceU = source + Self.uOffset, sourceV = source + Self.vOffset
        for j in 0..<16 {
            let row: Int = (y0 &+ j) &* lw &+ x0
            let at: Int = j &* s
            (sourceLuma + at).update(from: sourceY + row, count: 16)
            y[at &- 1] = mbX > 0 ? reconY[row &- 1] : 129
        }
        for j in 0..<8 {
            let row: Int = (cy0 &+ j) &* cw &+ cx0
            let at: Int = j &* s
            (sourceU + at).update(from: self.sourceU + row, count: 8)
            (sourceV + at).update(from: self.sourceV + row, count: 8)
            u[at &- 1] = mbX > 0 ? reconU[row &- 1] : 129
            v[at &- 1] = mbX > 0 ? reconV[row &- 1] : 129
        }
        let corner: Int = -s &- 1
        if mbY == 0 {
            (y + corner).update(repeating: 127, count: 16 + 4 + 1)
            (u + corner).update(repeating: 127, count: 8 + 1)
            (v + corner).update(repeating: 127, count: 8 + 1)
        } else {
            let aboveRow: Int = (y0 &- 1) &* lw &+ x0
            let above = reconY + aboveRow
            y[corner] = mbX > 0 ? above[-1] : 129
            (y - s).update(from: above, count: 16)
            let topRight = y + (16 &- s)
            if mbX < columns &- 1 {
                topRight.update(from: above + 16, count: 4)
            } else {
                topRight.update(repeating: above[15], count: 4)
            }
            let chromaRow: Int = (cy0 &- 1) &* cw &+ cx0
            let aboveU = reconU + chromaRow, aboveV = reconV + chromaRow
            u[corner] = mbX > 0 ? aboveU[-1] : 129
            v[corner] = mbX > 0 ? aboveV[-1] : 129
            (u - s).update(from: aboveU, count: 8)
            (v - s).update(from: aboveV, count: 8)
        }
        // Sub-blocks on the right edge below the first row see the macroblock's above-right pixels.
        let topRight = y + (16 &- s)
        for k in 1...3 {
            let at: Int = k &* 4 &* s
            (topRight + at).update(from: topRight, count: 4)
        }
    }

    /// Copies the chosen reconstruction into the planes and updates the contexts.
    func commit(_ mbX: Int, _ mbY: Int, info: WebP.LossyMacroblockInfo, lasts: UnsafeMutablePointer<Int8>) {
        let s = Self.s, lw = lumaWidth, cw = chromaWidth
        let y = work + Self.lumaOffset, u = work + Self.uOffset, v = work + Self.vOffset
        for j in 0..<16 {
            let row: Int = (mbY &* 16 &+ j) &* lw &+ mbX &* 16
            (reconY + row).update(from: y + j &* s, count: 16)
        }
        for j in 0..<8 {
            let row: Int = (mbY &* 8 &+ j) &* cw &+ mbX &* 8
            let at: Int = j &* s
            (reconU + row).update(from: u + at, count: 8)
            (reconV + row).update(from: v + at, count: 8)
        }
        let top = topNonZero + 9 &* mbX
        let first: Int8 = info.is4x4 ? 0 : 1
        for x in 0..<4 { top[x] = lasts[12 &+ x] >= first ? 1 : 0 }
        for y in 0..<4 { leftNonZero[y] = lasts[y &* 4 &+ 3] >= first ? 1 : 0 }
        for channel in 0..<2 {
            let base: Int = 16 &+ channel &* 4
            let c: Int = 4 &+ channel &* 2
            for x in 0..<2 { top[c &+ x] = lasts[base &+ 2 &+ x] >= 0 ? 1 : 0 }
            for y in 0..<2 { leftNonZero[c &+ y] = lasts[base &+ 2 &* y &+ 1] >= 0 ? 1 : 0 }
        }
        if !info.is4x4 {
            let flag: UInt8 = lasts[WebP.LossyBlocks.y2] >= 0 ? 1 : 0
            top[8] = flag
            leftNonZero[8] = flag
        }
        let modes = topModes + 4 &* mbX
        for i in 0..<4 {
            modes[i] = UInt8(info.lumaMode(info.is4x4 ? 12 &+ i : 0))
            leftModes[i] = UInt8(info.lumaMode(info.is4x4 ? i &* 4 &+ 3 : 0))
        }
    }

    @inline(__always)
    static func sse(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, width: Int, height: Int) -> Int64 {
        var total: Int32 = 0
        for j in 0..<height {
            let ra = a + j &* s, rb = b + j &* s
            for i in 0..<width {
                let d = Int32(ra[i]) &- Int32(rb[i])
                total &+= d &* d
            }
        }
        return Int64(total)
    }

    @inline(__always)
    func blockCost(_ levels: UnsafePointer<Int16>, first: Int, last: Int, type: Int, context: Int) -> Int32 {
        var sink = WebP.LossyTokenCost(probabilities: UnsafePointer(probabilities))
        WebP.LossyTokenizer.tokenize(levels, first: first, last: last, type: type, context: context, into: &sink)
        return sink.total
    }

    /// Offset of 4×4 block `n` (raster order) inside a 16×16 area of the work layout.
    @inline(__always)
    static func blockOffset(_ n: Int) -> Int { (n >> 2) &* 4 &* s &+ (n & 3) &* 4 }

    /// Tries the four 16×16 modes; the best one's levels, lasts and pixels are left in
    /// the best buffers. Returns it and its score (including the `is4x4` flag).
    func searchLuma16(_ mbX: Int, _ mbY: Int) -> (mode: Int, score: Int64) {
        let s = Self.s
        let y = work + Self.lumaOffset, src = UnsafePointer(source + Self.lumaOffset)
        let q = quantizers
        var best = (mode: P.dc, score: Int64.max)
        let dcs = coefficients + 256, y2 = coefficients + 272
        for mode in [P.dc, P.tm, P.ve, P.he] {
            P.predictBlock(y, size: 16, mode: mode, hasTop: mbY > 0, hasLeft: mbX > 0)
            for n in 0..<16 {
                let offset = Self.blockOffset(n)
                WebP.LossyForwardTransform.dct(source: src + offset, sourceStride: s, prediction: y + offset,
                                               predictionStride: s, into: coefficients + n &* 16)
                dcs[n] = coefficients[n &* 16]
            }
            WebP.LossyForwardTransform.wht(dcs, into: y2)
            let y2Levels = trialLevels + WebP.LossyBlocks.y2 &* 16
            let y2Dequantized = dequantized + WebP.LossyBlocks.y2 &* 16
            trialLasts[WebP.LossyBlocks.y2] = Int8(q.y2.quantize(y2, first: 0, levels: y2Levels, dequantized: y2Dequantized))
            for n in 0..<16 {
                trialLasts[n] = Int8(q.y1.quantize(coefficients + n &* 16, first: 1, levels: trialLevels + n &* 16,
                                                   dequantized: dequantized + n &* 16))
            }
            WebP.LossyTransform.inverseWHT(y2Dequantized, dequantized)
            for n in 0..<16 { WebP.LossyTransform.inverseDCT(dequantized + n &* 16, y + Self.blockOffset(n)) }
            let distortion = Self.sse(src, y, width: 16, height: 16)
            // Rate: the Y2 block, then the luma blocks with their contexts inside the macroblock.
            let top = topNonZero + 9 &* mbX
            var rate = lumaModeCost[mode] &+ is16x16Cost
            rate &+= blockCost(y2Levels, first: 0, last: Int(trialLasts[WebP.LossyBlocks.y2]), type: 1,
                               context: Int(top[8] &+ leftNonZero[8]))
            var above = (top[0], top[1], top[2], top[3])
            for row in 0..<4 {
                var left = leftNonZero[row]
                for column in 0..<4 {
                    let n: Int = row &* 4 &+ column
                    let last = Int(trialLasts[n])
                    let a = withUnsafeBytes(of: above) { $0[column] }
                    rate &+= blockCost(trialLevels + n &* 16, first: 1, last: last, type: 0, context: Int(a &+ left))
                    left = last >= 1 ? 1 : 0
                    withUnsafeMutableBytes(of: &above) { $0[column] = left }
                }
            }
            let score = 256 &* distortion &+ lambda &* Int64(rate)
            if score < best.score {
                best = (mode, score)
                for j in 0..<16 { (bestPixels + 16 &* j).update(from: y + s &* j, count: 16) }
                bestLevels.update(from: trialLevels, count: WebP.LossyBlocks.levelsPerMacroblock)
                bestLasts.update(from: trialLasts, count: WebP.LossyBlocks.perMacroblock)
            }
        }
        return best
    }

    /// Chooses the sixteen 4×4 modes block by block, writing the winners' levels into
    /// `levels`/`lasts` and their modes into `info`. Returns the total score, or nil as soon
    /// as it exceeds `budget` (16×16 wins; the work area's luma is then stale).
    func searchLuma4x4(_ mbX: Int, budget: Int64, levels: UnsafeMutablePointer<Int16>,
                       lasts: UnsafeMutablePointer<Int8>, info: inout WebP.LossyMacroblockInfo) -> Int64? {
        let s = Self.s
        let y = work + Self.lumaOffset, src = UnsafePointer(source + Self.lumaOffset)
        let q1 = quantizers.y1
        let top = topNonZero + 9 &* mbX, modesAbove = topModes + 4 &* mbX
        var aboveNonZero = [top[0], top[1], top[2], top[3]]
        var leftNonZero = Array(self.leftNonZero[0..<4])
        var aboveModes = [modesAbove[0], modesAbove[1], modesAbove[2], modesAbove[3]]
        var leftModes = self.leftModes
        var total = lambda &* Int64(is4x4Cost)
        let trial = trialLevels, trialDequantized = dequantized
        var bestBlock = [UInt8](repeating: 0, count: 16)
        for n in 0..<16 {
            let column: Int = n & 3, row: Int = n >> 2
            let offset = Self.blockOffset(n)
            let dst = y + offset, block = src + offset
            let context = Int(aboveNonZero[column] &+ leftNonZero[row])
            let modeContext: Int = (Int(aboveModes[column]) &* 10 &+ Int(leftModes[row])) &* 10
            var best = (mode: 0, score: Int64.max, last: -1)
            // Below ten candidates, the modes whose prediction alone scores best (SSE of the
            // prediction plus λ · mode cost) are the only ones transformed and quantised.
            let candidates = subblockCandidates
            if candidates < 10 {
                for mode in 0..<10 {
                    P.predict4x4(dst, mode: mode)
                    screen[mode] = 256 &* Self.sse(block, dst, width: 4, height: 4)
                        &+ lambda &* Int64(subblockModeCost[modeContext &+ mode])
                }
                for _ in 0..<(10 &- candidates) {
                    var worst = 0
                    for mode in 1..<10 where screen[mode] > screen[worst] { worst = mode }
                    screen[worst] = -1
                }
            }
            for mode in 0..<10 {
                if candidates < 10, screen[mode] < 0 { continue }
                P.predict4x4(dst, mode: mode)
                WebP.LossyForwardTransform.dct(source: block, sourceStride: s, prediction: dst, predictionStride: s,
                                               into: coefficients)
                let last = q1.quantize(coefficients, first: 0, levels: trial, dequantized: trialDequantized)
                WebP.LossyTransform.inverseDCT(trialDequantized, dst)
                let distortion = Self.sse(block, dst, width: 4, height: 4)
                let rate = subblockModeCost[modeContext &+ mode]
                    &+ blockCost(trial, first: 0, last: last, type: 3, context: context)
                let score = 256 &* distortion &+ lambda &* Int64(rate)
                if score < best.score {
                    best = (mode, score, last)
                    for j in 0..<4 { for i in 0..<4 { bestBlock[4 &* j &+ i] = dst[s &* j &+ i] } }
                    (levels + n &* 16).update(from: trial, count: 16)
                }
            }
            for j in 0..<4 { for i in 0..<4 { dst[s &* j &+ i] = bestBlock[4 &* j &+ i] } }
            lasts[n] = Int8(best.last)
            info.setLumaMode(n, best.mode)
            let flag: UInt8 = best.last >= 0 ? 1 : 0
            aboveNonZero[column] = flag
            leftNonZero[row] = flag
            aboveModes[column] = UInt8(best.mode)
            leftModes[row] = UInt8(best.mode)
            total &+= best.score
            if total >= budget { return nil }
        }
        return total
    }

    /// Tries the four chroma modes on U and V together; the winner's pixels stay in
    /// the work area and its levels go to `levels`/`lasts`. Returns the mode.
    func searchChroma(_ mbX: Int, _ mbY: Int, levels: UnsafeMutablePointer<Int16>, lasts: UnsafeMutablePointer<Int8>) -> Int {
        let s = Self.s
        let planes = [(work + Self.uOffset, UnsafePointer(source + Self.uOffset)),
                      (work + Self.vOffset, UnsafePointer(source + Self.vOffset))]
        let uv = quantizers.uv
        let top = topNonZero + 9 &* mbX
        var best = (mode: P.dc, score: Int64.max)
        let firstBlock = WebP.LossyBlocks.u
        for mode in [P.dc, P.tm, P.ve, P.he] {
            var distortion: Int64 = 0
            var rate = chromaModeCost[mode]
            for (channel, (dst, src)) in planes.enumerated() {
                P.predictBlock(dst, size: 8, mode: mode, hasTop: mbY > 0, hasLeft: mbX > 0)
                let c: Int = 4 &+ channel &* 2
                var above = (top[c], top[c &+ 1])
                for row in 0..<2 {
                    var left = leftNonZero[c &+ row]
                    for column in 0..<2 {
                        let b: Int = firstBlock &+ channel &* 4 &+ row &* 2 &+ column
                        let offset: Int = row &* 4 &* s &+ column &* 4
                        WebP.LossyForwardTransform.dct(source: src + offset, sourceStride: s, prediction: dst + offset,
                                                       predictionStride: s, into: coefficients)
                        let last = uv.quantize(coefficients, first: 0, levels: trialLevels + b &* 16,
                                               dequantized: dequantized + b &* 16)
                        trialLasts[b] = Int8(last)
                        WebP.LossyTransform.inverseDCT(dequantized + b &* 16, dst + offset)
                        let a = column == 0 ? above.0 : above.1
                        rate &+= blockCost(trialLevels + b &* 16, first: 0, last: last, type: 2, context: Int(a &+ left))
                        left = last >= 0 ? 1 : 0
                        if column == 0 { above.0 = left } else { above.1 = left }
                    }
                }
                distortion &+= Self.sse(src, dst, width: 8, height: 8)
            }
            let score = 256 &* distortion &+ chromaLambda &* Int64(rate)
            if score < best.score {
                best = (mode, score)
                for j in 0..<8 {
                    let at: Int = j &* s, packed: Int = j &* 8
                    (bestPixels + (256 &+ packed)).update(from: planes[0].0 + at, count: 8)
                    (bestPixels + (320 &+ packed)).update(from: planes[1].0 + at, count: 8)
                }
                (levels + firstBlock &* 16).update(from: trialLevels + firstBlock &* 16, count: 8 &* 16)
                (lasts + firstBlock).update(from: trialLasts + firstBlock, count: 8)
            }
        }
        for j in 0..<8 {
            let at: Int = j &* s, packed: Int = j &* 8
            (planes[0].0 + at).update(from: bestPixels + (256 &+ packed), count: 8)
            (planes[1].0 + at).update(from: bestPixels + (320 &+ packed), count: 8)
        }
        return best.mode
    }
}
