extension AVIF.TileDecoder {
    typealias T = AVIF.AV1Tables

    /// `decode_block(r, c, subSize)` (§5.11.5).
    mutating func decodeBlock(_ r: Int, _ c: Int, _ subSize: Int) throws(ImageDecodingError) {
        miRow = r
        miCol = c
        miSize = subSize
        let bw4 = T.Num_4x4_Blocks_Wide[subSize], bh4 = T.Num_4x4_Blocks_High[subSize]
        // §6.10.4: the chroma block of every partition must exist (4:2:2 forbids some shapes).
        guard T.Subsampled_Size[subSize][subsamplingX][subsamplingY] != T.BLOCK_INVALID else {
            throw .avif(.tileData(.blockSize))
        }
        if bh4 == 1 && subsamplingY == 1 && (miRow & 1) == 0 {
            hasChroma = false
        } else if bw4 == 1 && subsamplingX == 1 && (miCol & 1) == 0 {
            hasChroma = false
        } else {
            hasChroma = numPlanes > 1
        }
        availU = isInside(r - 1, c)
        availL = isInside(r, c - 1)
        availUChroma = availU
        availLChroma = availL
        if hasChroma {
            if subsamplingY == 1 && bh4 == 1 { availUChroma = isInside(r - 2, c) }
            if subsamplingX == 1 && bw4 == 1 { availLChroma = isInside(r, c - 2) }
        } else {
            availUChroma = false
            availLChroma = false
        }
        try intraFrameModeInfo()
        try paletteTokens()
        readBlockTxSize()
        if skip { resetBlockContext(bw4, bh4) }
        let rowEnd = min(r + bh4, miRows), colEnd = min(c + bw4, miCols)
        for y in r..<rowEnd {
            for x in c..<colEnd {
                info.yModes[y * miCols + x] = UInt8(yMode)
                if hasChroma { info.uvModes[y * miCols + x] = UInt8(uvMode) }
                if isInter && 2 * (y * miCols + x) + 1 < info.intraBlockCopyMvs.count {
                    // mv passed is_mv_valid: |mv| < 2^14.
                    info.intraBlockCopyMvs[2 * (y * miCols + x)] = Int32(mv.row)
                    info.intraBlockCopyMvs[2 * (y * miCols + x) + 1] = Int32(mv.col)
                }
            }
        }
        // compute_prediction() (§5.11.33) predicts only intra block copy blocks: intra ones
        // are predicted per transform block in transform_block().
        if isInter { predictIntraBlockCopy() }
        try readResidual()
        let count = miRows * miCols
        for y in r..<rowEnd {
            for x in c..<colEnd {
                let index = y * miCols + x
                info.skips[index] = skip ? 1 : 0
                info.txSizes[index] = UInt8(txSize)
                info.isInters[index] = isInter ? 1 : 0
                info.miSizes[index] = UInt8(miSize)
                info.segmentIds[index] = UInt8(segmentId)
                info.paletteSizes[index] = UInt8(paletteSizeY)
                info.paletteSizes[count + index] = UInt8(paletteSizeUV)
                if !info.paletteColors.isEmpty {
                    for i in 0..<paletteSizeY { info.paletteColors[index * 8 + i] = paletteColorsY[i] }
                    for i in 0..<paletteSizeUV { info.paletteColors[(count + index) * 8 + i] = paletteColorsU[i] }
                }
                if !info.deltaLFs.isEmpty {
                    for i in 0..<T.FRAME_LF_COUNT { info.deltaLFs[index * 4 + i] = Int8(deltaLF[i]) }
                }
            }
        }
    }

    /// `reset_block_context(bw4, bh4)` (§5.11.5).
    private mutating func resetBlockContext(_ bw4: Int, _ bh4: Int) {
        for plane in 0..<(1 + (hasChroma ? 2 : 0)) {
            let subX = plane > 0 ? subsamplingX : 0, subY = plane > 0 ? subsamplingY : 0
            for i in (miCol >> subX)..<((miCol + bw4) >> subX) {
                aboveLevelContext[plane * aboveStride + i] = 0
                aboveDcContext[plane * aboveStride + i] = 0
            }
            for i in (miRow >> subY)..<((miRow + bh4) >> subY) {
                leftLevelContext[plane * leftStride + i] = 0
                leftDcContext[plane * leftStride + i] = 0
            }
        }
    }

    /// `intra_frame_mode_info()` (§5.11.7).
    private mutating func intraFrameModeInfo() throws(ImageDecodingError) {
        skip = false
        if frame.segIdPreSkip { try intraSegmentId() }
        // read_skip()
        if frame.segIdPreSkip && frame.segFeatureActive(segmentId, T.SEG_LVL_SKIP) {
            skip = true
        } else {
            var ctx = 0
            if availU { ctx += Int(info.skips[(miRow - 1) * miCols + miCol]) }
            if availL { ctx += Int(info.skips[miRow * miCols + miCol - 1]) }
            skip = sd.symbol(cdfs.skip.at(ctx), 2) == 1
        }
        if !frame.segIdPreSkip { try intraSegmentId() }
        readCdef()
        readDeltaQIndex()
        readDeltaLf()
        readDeltas = false
        isInter = false
        if frame.header.allowsIntraBlockCopy && sd.symbol(cdfs.intrabc.at(), 2) == 1 {  // use_intrabc
            isInter = true
            yMode = T.DC_PRED
            uvMode = T.DC_PRED
            angleDeltaY = 0
            angleDeltaUV = 0
            useFilterIntra = false
            paletteSizeY = 0
            paletteSizeUV = 0
            // find_mv_stack(0) and assign_mv(0), which reads read_mv(0).
            try assignIntraBlockCopyMv()
            return
        }
        // intra_frame_y_mode
        let aboveMode = T.Intra_Mode_Context[availU ? Int(info.yModes[(miRow - 1) * miCols + miCol]) : T.DC_PRED]
        let leftMode = T.Intra_Mode_Context[availL ? Int(info.yModes[miRow * miCols + miCol - 1]) : T.DC_PRED]
        yMode = sd.symbol(cdfs.intraFrameYMode.at(aboveMode, leftMode), T.INTRA_MODES)
        // intra_angle_info_y()
        angleDeltaY = 0
        if miSize >= T.BLOCK_8X8 && isDirectional(yMode) {
            angleDeltaY = sd.symbol(cdfs.angleDelta.at(yMode - T.V_PRED), 2 * T.MAX_ANGLE_DELTA + 1) - T.MAX_ANGLE_DELTA
        }
        let blockWidth = T.Num_4x4_Blocks_Wide[miSize] * 4, blockHeight = T.Num_4x4_Blocks_High[miSize] * 4
        if hasChroma {
            let cflAllowed = lossless && T.Subsampled_Size[miSize][subsamplingX][subsamplingY] == T.BLOCK_4X4
                || !lossless && max(blockWidth, blockHeight) <= 32
            uvMode = cflAllowed
                ? sd.symbol(cdfs.uvModeCflAllowed.at(yMode), T.UV_INTRA_MODES_CFL_ALLOWED)
                : sd.symbol(cdfs.uvModeCflNotAllowed.at(yMode), T.UV_INTRA_MODES_CFL_NOT_ALLOWED)
            if uvMode == T.UV_CFL_PRED { readCflAlphas() }
            angleDeltaUV = 0
            if miSize >= T.BLOCK_8X8 && isDirectional(uvMode) {
                angleDeltaUV = sd.symbol(cdfs.angleDelta.at(uvMode - T.V_PRED), 2 * T.MAX_ANGLE_DELTA + 1) - T.MAX_ANGLE_DELTA
            }
        } else {
            // Not read; DC_PRED keeps palette_mode_info() and the stored modes defined.
            uvMode = T.DC_PRED
            angleDeltaUV = 0
        }
        paletteSizeY = 0
        paletteSizeUV = 0
        if miSize >= T.BLOCK_8X8 && blockWidth <= 64 && blockHeight <= 64 && frame.header.allowsScreenContentTools {
            try paletteModeInfo()
        }
        // filter_intra_mode_info()
        useFilterIntra = false
        if frame.sequence.enablesFilterIntra && yMode == T.DC_PRED && paletteSizeY == 0
            && max(blockWidth, blockHeight) <= 32 {
            useFilterIntra = sd.symbol(cdfs.filterIntra.at(miSize), 2) == 1
            if useFilterIntra { filterIntraMode = sd.symbol(cdfs.filterIntraMode.at(), 5) }
        }
    }

    /// `is_directional_mode(mode)` (§5.11.44).
    func isDirectional(_ mode: Int) -> Bool { mode >= T.V_PRED && mode <= T.D67_PRED }

    /// `intra_segment_id()` and `read_segment_id()` (§5.11.8, §5.11.9).
    private mutating func intraSegmentId() throws(ImageDecodingError) {
        if frame.segmentationEnabled {
            let prevUL = availU && availL ? Int(info.segmentIds[(miRow - 1) * miCols + miCol - 1]) : -1
            let prevU = availU ? Int(info.segmentIds[(miRow - 1) * miCols + miCol]) : -1
            let prevL = availL ? Int(info.segmentIds[miRow * miCols + miCol - 1]) : -1
            let pred = prevU == -1 ? (prevL == -1 ? 0 : prevL) : prevL == -1 ? prevU : (prevUL == prevU ? prevU : prevL)
            if skip {
                segmentId = pred
            } else {
                let ctx = prevUL < 0 ? 0
                    : prevUL == prevU && prevUL == prevL ? 2
                    : prevUL == prevU || prevUL == prevL || prevU == prevL ? 1 : 0
                let coded = sd.symbol(cdfs.segmentId.at(ctx), T.MAX_SEGMENTS)
                segmentId = Self.negDeinterleave(coded, pred, frame.lastActiveSegId + 1)
                // §6.10.9: segment_id in 0…LastActiveSegId.
                guard segmentId >= 0, segmentId <= frame.lastActiveSegId else { throw .avif(.tileData(.syntaxValue)) }
            }
        } else {
            segmentId = 0
        }
        lossless = frame.losslessArray[segmentId]
    }

    /// `neg_deinterleave(diff, ref, max)` (§5.11.9).
    static func negDeinterleave(_ diff: Int, _ ref: Int, _ max: Int) -> Int {
        if ref == 0 { return diff }
        if ref >= max - 1 { return max - diff - 1 }
        if 2 * ref < max {
            if diff <= 2 * ref {
                return diff & 1 == 1 ? ref + ((diff + 1) >> 1) : ref - (diff >> 1)
            }
            return diff
        }
        if diff <= 2 * (max - ref - 1) {
            return diff & 1 == 1 ? ref + ((diff + 1) >> 1) : ref - (diff >> 1)
        }
        return max - (diff + 1)
    }

    /// `read_cdef()` (§5.11.56).
    private mutating func readCdef() {
        if skip || frame.codedLossless || !frame.sequence.enablesCDEF || frame.header.allowsIntraBlockCopy { return }
        let cdefSize4 = T.Num_4x4_Blocks_Wide[T.BLOCK_64X64]
        let cdefMask4 = ~(cdefSize4 - 1)
        let r = miRow & cdefMask4, c = miCol & cdefMask4
        let index = (r >> 4) * info.cdefCols + (c >> 4)
        guard info.cdefIdx[index] == -1 else { return }
        let value = Int8(sd.literal(frame.cdef.bits))
        let w4 = T.Num_4x4_Blocks_Wide[miSize], h4 = T.Num_4x4_Blocks_High[miSize]
        var i = r
        while i < r + h4 {
            var j = c
            while j < c + w4 {
                setCdefIdx(i, j, value)
                j += cdefSize4
            }
            i += cdefSize4
        }
    }

    /// `read_delta_qindex()` (§5.11.12).
    private mutating func readDeltaQIndex() {
        let sbSize = use128 ? T.BLOCK_128X128 : T.BLOCK_64X64
        if miSize == sbSize && skip { return }
        guard readDeltas else { return }
        var deltaQAbs = sd.symbol(cdfs.deltaQ.at(), T.DELTA_Q_SMALL + 1)
        if deltaQAbs == T.DELTA_Q_SMALL {
            let deltaQRemBits = sd.literal(3) + 1
            let deltaQAbsBits = sd.literal(deltaQRemBits)
            deltaQAbs = deltaQAbsBits + (1 << deltaQRemBits) + 1
        }
        if deltaQAbs != 0 {
            let signBit = sd.literal(1)
            let reducedDeltaQIndex = signBit == 1 ? -deltaQAbs : deltaQAbs
            currentQIndex = min(max(currentQIndex + (reducedDeltaQIndex << frame.deltaQRes), 1), 255)
        }
    }

    /// `read_delta_lf()` (§5.11.13).
    private mutating func readDeltaLf() {
        let sbSize = use128 ? T.BLOCK_128X128 : T.BLOCK_64X64
        if miSize == sbSize && skip { return }
        guard readDeltas && frame.deltaLfPresent else { return }
        var frameLfCount = 1
        if frame.deltaLfMulti { frameLfCount = numPlanes > 1 ? T.FRAME_LF_COUNT : T.FRAME_LF_COUNT - 2 }
        for i in 0..<frameLfCount {
            let table = frame.deltaLfMulti ? cdfs.deltaLFMulti[i] : cdfs.deltaLF
            var deltaLfAbs = sd.symbol(table.at(), T.DELTA_LF_SMALL + 1)
            if deltaLfAbs == T.DELTA_LF_SMALL {
                let n = sd.literal(3) + 1
                deltaLfAbs = sd.literal(n) + (1 << n) + 1
            }
            if deltaLfAbs != 0 {
                let signBit = sd.literal(1)
                let reduced = signBit == 1 ? -deltaLfAbs : deltaLfAbs
                deltaLF[i] = min(max(deltaLF[i] + (reduced << frame.deltaLfRes), -T.MAX_LOOP_FILTER), T.MAX_LOOP_FILTER)
            }
        }
    }

    /// `read_cfl_alphas()` (§5.11.45).
    private mutating func readCflAlphas() {
        let signs = sd.symbol(cdfs.cflSign.at(), T.CFL_JOINT_SIGNS)
        let signU = (signs + 1) / 3, signV = (signs + 1) % 3
        if signU != T.CFL_SIGN_ZERO {
            cflAlphaU = 1 + sd.symbol(cdfs.cflAlpha.at((signU - 1) * 3 + signV), T.CFL_ALPHABET_SIZE)
            if signU == T.CFL_SIGN_NEG { cflAlphaU = -cflAlphaU }
        } else {
            cflAlphaU = 0
        }
        if signV != T.CFL_SIGN_ZERO {
            cflAlphaV = 1 + sd.symbol(cdfs.cflAlpha.at((signV - 1) * 3 + signU), T.CFL_ALPHABET_SIZE)
            if signV == T.CFL_SIGN_NEG { cflAlphaV = -cflAlphaV }
        } else {
            cflAlphaV = 0
        }
    }

    /// `read_block_tx_size()` (§5.11.16): the transform tree of an intra block copy block,
    /// else `read_tx_size(!skip || !is_inter)`; `InterTxSizes` for every 4×4 of the block.
    private mutating func readBlockTxSize() {
        let bw4 = T.Num_4x4_Blocks_Wide[miSize], bh4 = T.Num_4x4_Blocks_High[miSize]
        if frame.txMode == T.TX_MODE_SELECT && miSize > T.BLOCK_4X4 && isInter && !skip && !lossless {
            let maxTxSz = T.Max_Tx_Size_Rect[miSize]
            let txW4 = T.Tx_Width[maxTxSz] / T.MI_SIZE, txH4 = T.Tx_Height[maxTxSz] / T.MI_SIZE
            var row = miRow
            while row < miRow + bh4 {
                var col = miCol
                while col < miCol + bw4 {
                    readVarTxSize(row, col, maxTxSz, 0)
                    col += txW4
                }
                row += txH4
            }
            return
        }
        readTxSize(allowSelect: !skip || !isInter)
        for row in miRow..<min(miRow + bh4, miRows) {
            for col in miCol..<min(miCol + bw4, miCols) { info.interTxSizes[row * miCols + col] = UInt8(txSize) }
        }
    }

    /// `read_tx_size(allowSelect)` (§5.11.15) with the CDF selection of `tx_depth` (§8.3.2).
    private mutating func readTxSize(allowSelect: Bool) {
        if lossless {
            txSize = T.TX_4X4
            return
        }
        let maxRectTxSize = T.Max_Tx_Size_Rect[miSize]
        let maxTxDepth = T.Max_Tx_Depth[miSize]
        txSize = maxRectTxSize
        guard miSize > T.BLOCK_4X4 && allowSelect && frame.txMode == T.TX_MODE_SELECT else { return }
        let above = (miRow - 1) * miCols + miCol, left = miRow * miCols + miCol - 1
        let aboveW = !availU ? 0 : info.isInters[above] == 1
            ? T.Num_4x4_Blocks_Wide[Int(info.miSizes[above])] * 4 : aboveTxWidth(miRow, miCol)
        let leftH = !availL ? 0 : info.isInters[left] == 1
            ? T.Num_4x4_Blocks_High[Int(info.miSizes[left])] * 4 : leftTxHeight(miRow, miCol)
        let ctx = (aboveW >= T.Tx_Width[maxRectTxSize] ? 1 : 0) + (leftH >= T.Tx_Height[maxRectTxSize] ? 1 : 0)
        let table = cdfs.tx[min(max(maxTxDepth, 1), 4) - 1]
        let txDepth = sd.symbol(table.at(ctx), table.n)
        for _ in 0..<txDepth { txSize = T.Split_Tx_Size[txSize] }
    }
}
