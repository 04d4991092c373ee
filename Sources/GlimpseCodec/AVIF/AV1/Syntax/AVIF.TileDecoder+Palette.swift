extension AVIF.TileDecoder {
    /// `palette_mode_info()` (§5.11.46) with `get_palette_cache()`.
    mutating func paletteModeInfo() throws(ImageDecodingError) {
        let bsizeCtx = T.Mi_Width_Log2[miSize] + T.Mi_Height_Log2[miSize] - 2
        let maxValue = (1 << bitDepth) - 1
        func clip1(_ x: Int) -> Int { min(max(x, 0), maxValue) }
        if yMode == T.DC_PRED {
            var ctx = 0
            if availU && info.paletteSizes[(miRow - 1) * miCols + miCol] > 0 { ctx += 1 }
            if availL && info.paletteSizes[miRow * miCols + miCol - 1] > 0 { ctx += 1 }
            if sd.symbol(cdfs.paletteYMode.at(bsizeCtx, ctx), 2) == 1 {  // has_palette_y
                paletteSizeY = sd.symbol(cdfs.paletteYSize.at(bsizeCtx), T.PALETTE_SIZES) + 2
                let cacheN = paletteCacheCount(plane: 0)
                var idx = 0
                var i = 0
                while i < cacheN && idx < paletteSizeY {
                    if sd.literal(1) == 1 {  // use_palette_color_cache_y
                        paletteColorsY[idx] = paletteCache[i]
                        idx += 1
                    }
                    i += 1
                }
                if idx < paletteSizeY {
                    paletteColorsY[idx] = UInt16(sd.literal(bitDepth))
                    idx += 1
                }
                var paletteBits = 0
                if idx < paletteSizeY {
                    let minBits = bitDepth - 3
                    paletteBits = minBits + sd.literal(2)
                }
                while idx < paletteSizeY {
                    let delta = sd.literal(paletteBits) + 1
                    paletteColorsY[idx] = UInt16(clip1(Int(paletteColorsY[idx - 1]) + delta))
                    let range = (1 << bitDepth) - Int(paletteColorsY[idx]) - 1
                    paletteBits = min(paletteBits, AVIF.AV1Arithmetic.ceilLog2(range))
                    idx += 1
                }
                paletteColorsY[0..<paletteSizeY].sort()
            }
        }
        if hasChroma && uvMode == T.DC_PRED {
            if sd.symbol(cdfs.paletteUVMode.at(paletteSizeY > 0 ? 1 : 0), 2) == 1 {  // has_palette_uv
                paletteSizeUV = sd.symbol(cdfs.paletteUVSize.at(bsizeCtx), T.PALETTE_SIZES) + 2
                let cacheN = paletteCacheCount(plane: 1)
                var idx = 0
                var i = 0
                while i < cacheN && idx < paletteSizeUV {
                    if sd.literal(1) == 1 {  // use_palette_color_cache_u
                        paletteColorsU[idx] = paletteCache[i]
                        idx += 1
                    }
                    i += 1
                }
                if idx < paletteSizeUV {
                    paletteColorsU[idx] = UInt16(sd.literal(bitDepth))
                    idx += 1
                }
                var paletteBits = 0
                if idx < paletteSizeUV {
                    paletteBits = bitDepth - 3 + sd.literal(2)
                }
                while idx < paletteSizeUV {
                    let delta = sd.literal(paletteBits)  // no + 1 for U (§5.11.46)
                    paletteColorsU[idx] = UInt16(clip1(Int(paletteColorsU[idx - 1]) + delta))
                    let range = (1 << bitDepth) - Int(paletteColorsU[idx])
                    paletteBits = min(paletteBits, AVIF.AV1Arithmetic.ceilLog2(range))
                    idx += 1
                }
                paletteColorsU[0..<paletteSizeUV].sort()
                if sd.literal(1) == 1 {  // delta_encode_palette_colors_v
                    let minBits = bitDepth - 4
                    let maxVal = 1 << bitDepth
                    let bits = minBits + sd.literal(2)
                    paletteColorsV[0] = UInt16(sd.literal(bitDepth))
                    for idx in 1..<paletteSizeUV {
                        var delta = sd.literal(bits)
                        if delta != 0, sd.literal(1) == 1 { delta = -delta }
                        var val = Int(paletteColorsV[idx - 1]) + delta
                        if val < 0 { val += maxVal }
                        if val >= maxVal { val -= maxVal }
                        paletteColorsV[idx] = UInt16(clip1(val))
                    }
                } else {
                    for idx in 0..<paletteSizeUV { paletteColorsV[idx] = UInt16(sd.literal(bitDepth)) }
                }
            }
        }
    }

    /// `get_palette_cache(plane)` (§5.11.46): the sorted union of the above and left
    /// palettes into `paletteCache`; returns its size.
    private mutating func paletteCacheCount(plane: Int) -> Int {
        let count = miRows * miCols
        let aboveIndex = (miRow - 1) * miCols + miCol, leftIndex = miRow * miCols + miCol - 1
        // The row above counts only inside the same 64-row band (the line buffer hardware keeps).
        let aboveN = (miRow * T.MI_SIZE) % 64 != 0 ? Int(info.paletteSizes[plane * count + aboveIndex]) : 0
        let leftN = availL ? Int(info.paletteSizes[plane * count + leftIndex]) : 0
        func above(_ i: Int) -> UInt16 { info.paletteColors[(plane * count + aboveIndex) * 8 + i] }
        func left(_ i: Int) -> UInt16 { info.paletteColors[(plane * count + leftIndex) * 8 + i] }
        var aboveIdx = 0, leftIdx = 0, n = 0
        while aboveIdx < aboveN && leftIdx < leftN {
            let aboveC = above(aboveIdx), leftC = left(leftIdx)
            if leftC < aboveC {
                if n == 0 || leftC != paletteCache[n - 1] { paletteCache[n] = leftC; n += 1 }
                leftIdx += 1
            } else {
                if n == 0 || aboveC != paletteCache[n - 1] { paletteCache[n] = aboveC; n += 1 }
                aboveIdx += 1
                if leftC == aboveC { leftIdx += 1 }
            }
        }
        while aboveIdx < aboveN {
            let val = above(aboveIdx)
            aboveIdx += 1
            if n == 0 || val != paletteCache[n - 1] { paletteCache[n] = val; n += 1 }
        }
        while leftIdx < leftN {
            let val = left(leftIdx)
            leftIdx += 1
            if n == 0 || val != paletteCache[n - 1] { paletteCache[n] = val; n += 1 }
        }
        return n
    }

    /// `palette_tokens()` (§5.11.49): the colour index maps.
    mutating func paletteTokens() throws(ImageDecodingError) {
        var blockHeight = T.Num_4x4_Blocks_High[miSize] * 4
        var blockWidth = T.Num_4x4_Blocks_Wide[miSize] * 4
        var onscreenHeight = min(blockHeight, (miRows - miRow) * T.MI_SIZE)
        var onscreenWidth = min(blockWidth, (miCols - miCol) * T.MI_SIZE)
        if paletteSizeY > 0 {
            // The map is moved out for the call (exclusive access to self), not copied.
            var map: [UInt8] = []
            swap(&map, &colorMapY)
            defer { swap(&map, &colorMapY) }
            try readColorMap(&map, n: paletteSizeY, colorCdfs: cdfs.paletteYColor,
                             blockWidth: blockWidth, blockHeight: blockHeight,
                             onscreenWidth: onscreenWidth, onscreenHeight: onscreenHeight)
        }
        if paletteSizeUV > 0 {
            blockHeight >>= subsamplingY
            blockWidth >>= subsamplingX
            onscreenHeight >>= subsamplingY
            onscreenWidth >>= subsamplingX
            if blockWidth < 4 {
                blockWidth += 2
                onscreenWidth += 2
            }
            if blockHeight < 4 {
                blockHeight += 2
                onscreenHeight += 2
            }
            var map: [UInt8] = []
            swap(&map, &colorMapUV)
            defer { swap(&map, &colorMapUV) }
            try readColorMap(&map, n: paletteSizeUV, colorCdfs: cdfs.paletteUVColor,
                             blockWidth: blockWidth, blockHeight: blockHeight,
                             onscreenWidth: onscreenWidth, onscreenHeight: onscreenHeight)
        }
    }

    /// One colour map of `palette_tokens()`, in anti-diagonal (wavefront) order, with
    /// `get_palette_color_context()` (§5.11.50) for each index.
    private mutating func readColorMap(_ map: inout [UInt8], n: Int, colorCdfs: [AVIF.CDFTable],
                                       blockWidth: Int, blockHeight: Int,
                                       onscreenWidth: Int, onscreenHeight: Int) throws(ImageDecodingError) {
        let stride = 64
        map[0] = UInt8(sd.nonSymmetric(n))  // color_index_map
        let table = colorCdfs[n - 2]
        var scores = (0, 0, 0, 0, 0, 0, 0, 0)
        var order = (0, 0, 0, 0, 0, 0, 0, 0)
        if onscreenHeight + onscreenWidth - 1 > 1 {
            for i in 1..<(onscreenHeight + onscreenWidth - 1) {
                var j = min(i, onscreenWidth - 1)
                while j >= max(0, i - onscreenHeight + 1) {
                    let r = i - j, c = j
                    // get_palette_color_context(colorMap, r, c, n)
                    withUnsafeMutableBytes(of: &scores) { raw in
                        withUnsafeMutableBytes(of: &order) { rawOrder in
                            let s = raw.bindMemory(to: Int.self), o = rawOrder.bindMemory(to: Int.self)
                            for k in 0..<T.PALETTE_COLORS { s[k] = 0; o[k] = k }
                            if c > 0 { s[Int(map[r * stride + c - 1])] += 2 }
                            if r > 0 && c > 0 { s[Int(map[(r - 1) * stride + c - 1])] += 1 }
                            if r > 0 { s[Int(map[(r - 1) * stride + c])] += 2 }
                            for k in 0..<T.PALETTE_NUM_NEIGHBORS {
                                var maxScore = s[k], maxIdx = k
                                for l in (k + 1)..<max(n, k + 1) where s[l] > maxScore {
                                    maxScore = s[l]
                                    maxIdx = l
                                }
                                if maxIdx != k {
                                    let maxColorOrder = o[maxIdx]
                                    var m = maxIdx
                                    while m > k {
                                        s[m] = s[m - 1]
                                        o[m] = o[m - 1]
                                        m -= 1
                                    }
                                    s[k] = maxScore
                                    o[k] = maxColorOrder
                                }
                            }
                        }
                    }
                    let hash = scores.0 * T.Palette_Color_Hash_Multipliers[0] + scores.1 * T.Palette_Color_Hash_Multipliers[1]
                        + scores.2 * T.Palette_Color_Hash_Multipliers[2]
                    let ctx = hash < T.Palette_Color_Context.count ? T.Palette_Color_Context[hash] : -1
                    guard ctx >= 0 else { throw .avif(.tileData(.syntaxValue)) }
                    let idx = sd.symbol(table.at(ctx), n)
                    let value = withUnsafeBytes(of: &order) { $0.bindMemory(to: Int.self)[idx] }
                    map[r * stride + c] = UInt8(value)
                    j -= 1
                }
            }
        }
        for i in 0..<onscreenHeight {
            for j in onscreenWidth..<max(blockWidth, onscreenWidth) { map[i * stride + j] = map[i * stride + onscreenWidth - 1] }
        }
        for i in onscreenHeight..<max(blockHeight, onscreenHeight) {
            for j in 0..<blockWidth { map[i * stride + j] = map[(onscreenHeight - 1) * stride + j] }
        }
    }
}
