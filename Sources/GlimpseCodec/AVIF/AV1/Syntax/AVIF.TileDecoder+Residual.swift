extension AVIF.TileDecoder {
    /// `residual()` (§5.11.34) for an intra block: every plane's transform blocks in
    /// raster order within each 64×64 chunk.
    mutating func readResidual() throws(ImageDecodingError) {
        let widthChunks = max(1, (T.Num_4x4_Blocks_Wide[miSize] * 4) >> 6)
        let heightChunks = max(1, (T.Num_4x4_Blocks_High[miSize] * 4) >> 6)
        let miSizeChunk = widthChunks > 1 || heightChunks > 1 ? T.BLOCK_64X64 : miSize
        for chunkY in 0..<heightChunks {
            for chunkX in 0..<widthChunks {
                for plane in 0..<(1 + (hasChroma ? 2 : 0)) {
                    let txSz = lossless ? T.TX_4X4 : txSizeOf(plane: plane, txSize)
                    let stepX = T.Tx_Width[txSz] >> 2, stepY = T.Tx_Height[txSz] >> 2
                    let planeSz = planeResidualSize(miSizeChunk, plane)
                    let num4x4W = T.Num_4x4_Blocks_Wide[planeSz], num4x4H = T.Num_4x4_Blocks_High[planeSz]
                    let subX = plane > 0 ? subsamplingX : 0, subY = plane > 0 ? subsamplingY : 0
                    if isInter && !lossless && plane == 0 {
                        let baseX = ((miCol + (chunkX << 4)) >> subX) * T.MI_SIZE
                        let baseY = ((miRow + (chunkY << 4)) >> subY) * T.MI_SIZE
                        try transformTree(baseX, baseY, num4x4W * 4, num4x4H * 4)
                        continue
                    }
                    let baseXBlock = (miCol >> subX) * T.MI_SIZE
                    let baseYBlock = (miRow >> subY) * T.MI_SIZE
                    var y = 0
                    while y < num4x4H {
                        var x = 0
                        while x < num4x4W {
                            try transformBlock(plane, baseXBlock, baseYBlock, txSz,
                                               x + ((chunkX << 4) >> subX), y + ((chunkY << 4) >> subY))
                            x += stepX
                        }
                        y += stepY
                    }
                }
            }
        }
    }

    /// `get_plane_residual_size(subsize, plane)` (§5.11.38).
    func planeResidualSize(_ subsize: Int, _ plane: Int) -> Int {
        plane > 0 ? T.Subsampled_Size[subsize][subsamplingX][subsamplingY] : subsize
    }

    /// `get_tx_size(plane, txSz)` (§5.11.37).
    func txSizeOf(plane: Int, _ txSz: Int) -> Int {
        if plane == 0 { return txSz }
        let uvTx = T.Max_Tx_Size_Rect[planeResidualSize(miSize, plane)]
        if T.Tx_Width[uvTx] == 64 || T.Tx_Height[uvTx] == 64 {
            if T.Tx_Width[uvTx] == 16 { return T.TX_16X32 }
            if T.Tx_Height[uvTx] == 16 { return T.TX_32X16 }
            return T.TX_32X32
        }
        return uvTx
    }

    /// `transform_block(plane, baseX, baseY, txSz, x, y)` (§5.11.35).
    mutating func transformBlock(_ plane: Int, _ baseX: Int, _ baseY: Int, _ txSz: Int,
                                         _ x: Int, _ y: Int) throws(ImageDecodingError) {
        let startX = baseX + 4 * x, startY = baseY + 4 * y
        let subX = plane > 0 ? subsamplingX : 0, subY = plane > 0 ? subsamplingY : 0
        let row = (startY << subY) >> T.MI_SIZE_LOG2
        let col = (startX << subX) >> T.MI_SIZE_LOG2
        let subBlockMiRow = row & sbMask, subBlockMiCol = col & sbMask
        let stepX = T.Tx_Width[txSz] >> T.MI_SIZE_LOG2, stepY = T.Tx_Height[txSz] >> T.MI_SIZE_LOG2
        let maxX = (miCols * T.MI_SIZE) >> subX, maxY = (miRows * T.MI_SIZE) >> subY
        if startX >= maxX || startY >= maxY { return }
        if isInter {
            // Predicted as a whole by compute_prediction().
        } else if (plane == 0 && paletteSizeY > 0) || (plane != 0 && paletteSizeUV > 0) {
            let palette = plane == 0 ? paletteColorsY : plane == 1 ? paletteColorsU : paletteColorsV
            reconstructor.predictPalette(plane: plane, startX: startX, startY: startY, x: x, y: y, txSz: txSz,
                                         palette: palette, colorMap: plane == 0 ? colorMapY : colorMapUV,
                                         colorMapStride: 64)
        } else {
            let isCfl = plane > 0 && uvMode == T.UV_CFL_PRED
            let mode = plane == 0 ? yMode : isCfl ? T.DC_PRED : uvMode
            var request = AVIF.IntraPredictionRequest()
            request.plane = plane
            request.x = startX
            request.y = startY
            request.haveLeft = (plane == 0 ? availL : availLChroma) || x > 0
            request.haveAbove = (plane == 0 ? availU : availUChroma) || y > 0
            request.haveAboveRight = isBlockDecoded(plane, (subBlockMiRow >> subY) - 1, (subBlockMiCol >> subX) + stepX)
            request.haveBelowLeft = isBlockDecoded(plane, (subBlockMiRow >> subY) + stepY, (subBlockMiCol >> subX) - 1)
            request.mode = mode
            request.log2W = T.Tx_Width_Log2[txSz]
            request.log2H = T.Tx_Height_Log2[txSz]
            request.angleDelta = plane == 0 ? angleDeltaY : angleDeltaUV
            request.useFilterIntra = plane == 0 && useFilterIntra
            request.filterIntraMode = filterIntraMode
            request.enableIntraEdgeFilter = frame.sequence.enablesIntraEdgeFilter
            request.filterType = filterType(plane)
            request.miRows = miRows
            request.miCols = miCols
            request.subX = subX
            request.subY = subY
            request.bitDepth = bitDepth
            reconstructor.predictIntra(request)
            if isCfl {
                reconstructor.predictChromaFromLuma(plane: plane, startX: startX, startY: startY, txSz: txSz,
                                                    alpha: plane == 1 ? cflAlphaU : cflAlphaV,
                                                    maxLumaW: maxLumaW, maxLumaH: maxLumaH)
            }
        }
        if plane == 0 && !isInter {
            maxLumaW = startX + stepX * 4
            maxLumaH = startY + stepY * 4
        }
        if !skip {
            let eob = try coeffs(plane, startX, startY, txSz)
            if eob > 0 { reconstructBlock(plane, startX, startY, txSz, eob) }
        }
        let planeRows = info.planeRows[plane], planeCols = info.planeCols[plane]
        for i in 0..<stepY {
            for j in 0..<stepX {
                let r = (row >> subY) + i, c = (col >> subX) + j
                if r < planeRows && c < planeCols { info.loopfilterTxSizes[plane][r * planeCols + c] = UInt8(txSz) }
                let by = (subBlockMiRow >> subY) + i, bx = (subBlockMiCol >> subX) + j
                if by <= 32 && bx <= 32 { blockDecoded[plane * 34 * 34 + (by + 1) * 34 + bx + 1] = true }
            }
        }
    }

    /// `get_filter_type(plane)` with `is_smooth()` (§7.11.2).
    private func filterType(_ plane: Int) -> Bool {
        func isSmooth(_ row: Int, _ col: Int) -> Bool {
            let index = row * miCols + col
            guard row >= 0, col >= 0, row < miRows, col < miCols else { return false }
            let mode = Int(plane == 0 ? info.yModes[index] : info.uvModes[index])
            return mode == T.SMOOTH_PRED || mode == T.SMOOTH_V_PRED || mode == T.SMOOTH_H_PRED
        }
        var aboveSmooth = false, leftSmooth = false
        if plane == 0 ? availU : availUChroma {
            var r = miRow - 1, c = miCol
            if plane > 0 {
                if subsamplingX == 1 && (miCol & 1) == 0 { c += 1 }
                if subsamplingY == 1 && (miRow & 1) == 1 { r -= 1 }
            }
            aboveSmooth = isSmooth(r, c)
        }
        if plane == 0 ? availL : availLChroma {
            var r = miRow, c = miCol - 1
            if plane > 0 {
                if subsamplingX == 1 && (miCol & 1) == 1 { c -= 1 }
                if subsamplingY == 1 && (miRow & 1) == 0 { r += 1 }
            }
            leftSmooth = isSmooth(r, c)
        }
        return aboveSmooth || leftSmooth
    }

    /// The call of `reconstruct(plane, x, y, txSz)` with the quantizer inputs of §7.12.2–3.
    private mutating func reconstructBlock(_ plane: Int, _ startX: Int, _ startY: Int, _ txSz: Int, _ eob: Int) {
        let qindex = frame.qindex(ignoreDeltaQ: false, segmentId: segmentId, currentQIndex: currentQIndex)
        let deltaDc = plane == 0 ? frame.deltaQYDc : plane == 1 ? frame.deltaQUDc : frame.deltaQVDc
        let deltaAc = plane == 0 ? 0 : plane == 1 ? frame.deltaQUAc : frame.deltaQVAc
        residual.plane = plane
        residual.x = startX
        residual.y = startY
        residual.txSz = txSz
        residual.txType = planeTxType
        residual.eob = eob
        let adjusted = T.Adjusted_Tx_Size[txSz]
        residual.count = T.Tx_Width[adjusted] * T.Tx_Height[adjusted]
        residual.dcQIndex = min(max(qindex + deltaDc, 0), 255)
        residual.acQIndex = min(max(qindex + deltaAc, 0), 255)
        residual.qmLevel = lossless || !frame.usingQmatrix ? 15 : frame.segQMLevel[plane * 8 + segmentId]
        residual.lossless = lossless
        residual.bitDepth = bitDepth
        // Handed over for the call only, then taken back: no copy of the coefficients.
        swap(&residual.quant, &quant)
        reconstructor.reconstruct(residual)
        swap(&residual.quant, &quant)
    }
}
