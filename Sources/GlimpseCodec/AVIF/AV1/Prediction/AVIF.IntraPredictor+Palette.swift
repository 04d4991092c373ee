extension AVIF.IntraPredictor {
    /// §7.11.4, the palette prediction process: CurrFrame[ startY + i ][ startX + j ] =
    /// palette[ map[ y × 4 + i ][ x × 4 + j ] ] for the Tx_Width × Tx_Height block of `txSz`.
    ///
    /// `palette` is `palette_colors_y`, `_u` or `_v`; `colorMap` is `ColorMapY` or
    /// `ColorMapUV` row-major with `mapStride` entries per row; `x`, `y` are the transform
    /// block's offset in 4×4 units within the block. Missing map entries or colours give 0.
    static func predictPalette(into frame: inout AVIF.AV1Plane, startX: Int, startY: Int, x: Int, y: Int,
                               txSz txSzIn: Int, palette: [UInt16], colorMap: [UInt8], mapStride: Int) {
        let txSz = AVIF.AV1Arithmetic.clip3(0, AVIF.AV1Tables.TX_SIZES_ALL - 1, txSzIn)
        let w = AVIF.AV1Tables.Tx_Width[txSz]
        let h = AVIF.AV1Tables.Tx_Height[txSz]
        for i in 0..<h {
            for j in 0..<w {
                let m = (y * 4 + i) * mapStride + x * 4 + j
                let index = m >= 0 && m < colorMap.count ? Int(colorMap[m]) : 0
                frame[y: startY + i, x: startX + j] = index < palette.count ? palette[index] : 0
            }
        }
    }
}
