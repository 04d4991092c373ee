extension AVIF {
    /// `tile_info()` (AV1 §5.9.15, semantics §6.8.14): the tile grid, uniform or explicit,
    /// in 4×4 (mode info) units.
    struct TileInfo: Sendable, Hashable {
        var tileCols = 1, tileRows = 1
        var tileColsLog2 = 0, tileRowsLog2 = 0
        /// `MiColStarts[0...TileCols]` and `MiRowStarts[0...TileRows]` (the last is `MiCols`/`MiRows`).
        var miColStarts: [Int] = [], miRowStarts: [Int] = []
        var contextUpdateTileId = 0
        /// `TileSizeBytes` (1–4).
        var tileSizeBytes = 4

        init() {}

        init(_ reader: inout BitReader, miCols: Int, miRows: Int, use128: Bool) throws(ImageDecodingError) {
            let sbCols = use128 ? (miCols + 31) >> 5 : (miCols + 15) >> 4
            let sbRows = use128 ? (miRows + 31) >> 5 : (miRows + 15) >> 4
            let sbShift = use128 ? 5 : 4
            let sbSize = sbShift + 2
            let maxTileWidthSb = AV1Tables.MAX_TILE_WIDTH >> sbSize
            var maxTileAreaSb = AV1Tables.MAX_TILE_AREA >> (2 * sbSize)
            let minLog2TileCols = Self.tileLog2(maxTileWidthSb, sbCols)
            let maxLog2TileCols = Self.tileLog2(1, min(sbCols, AV1Tables.MAX_TILE_COLS))
            let maxLog2TileRows = Self.tileLog2(1, min(sbRows, AV1Tables.MAX_TILE_ROWS))
            let minLog2Tiles = max(minLog2TileCols, Self.tileLog2(maxTileAreaSb, sbRows * sbCols))
            if try reader.flag() {  // uniform_tile_spacing_flag
                tileColsLog2 = minLog2TileCols
                while tileColsLog2 < maxLog2TileCols, try reader.flag() { tileColsLog2 += 1 }
                let tileWidthSb = (sbCols + (1 << tileColsLog2) - 1) >> tileColsLog2
                miColStarts = stride(from: 0, to: sbCols, by: tileWidthSb).map { $0 << sbShift } + [miCols]
                tileCols = miColStarts.count - 1
                let minLog2TileRows = max(minLog2Tiles - tileColsLog2, 0)
                tileRowsLog2 = minLog2TileRows
                while tileRowsLog2 < maxLog2TileRows, try reader.flag() { tileRowsLog2 += 1 }
                let tileHeightSb = (sbRows + (1 << tileRowsLog2) - 1) >> tileRowsLog2
                miRowStarts = stride(from: 0, to: sbRows, by: tileHeightSb).map { $0 << sbShift } + [miRows]
                tileRows = miRowStarts.count - 1
            } else {
                var widestTileSb = 0
                var startSb = 0
                miColStarts = []
                while startSb < sbCols {
                    guard miColStarts.count < AV1Tables.MAX_TILE_COLS else { throw .avif(.headerValue) }
                    miColStarts.append(startSb << sbShift)
                    let maxWidth = min(sbCols - startSb, maxTileWidthSb)
                    let sizeSb = try reader.nonSymmetric(maxWidth) + 1
                    widestTileSb = max(sizeSb, widestTileSb)
                    startSb += sizeSb
                }
                miColStarts.append(miCols)
                tileCols = miColStarts.count - 1
                tileColsLog2 = Self.tileLog2(1, tileCols)
                maxTileAreaSb = minLog2Tiles > 0 ? (sbRows * sbCols) >> (minLog2Tiles + 1) : sbRows * sbCols
                let maxTileHeightSb = max(maxTileAreaSb / widestTileSb, 1)
                startSb = 0
                miRowStarts = []
                while startSb < sbRows {
                    guard miRowStarts.count < AV1Tables.MAX_TILE_ROWS else { throw .avif(.headerValue) }
                    miRowStarts.append(startSb << sbShift)
                    let maxHeight = min(sbRows - startSb, maxTileHeightSb)
                    startSb += try reader.nonSymmetric(maxHeight) + 1
                }
                miRowStarts.append(miRows)
                tileRows = miRowStarts.count - 1
                tileRowsLog2 = Self.tileLog2(1, tileRows)
            }
            if tileColsLog2 > 0 || tileRowsLog2 > 0 {
                contextUpdateTileId = try reader.bits(tileRowsLog2 + tileColsLog2)
                // §6.8.14: context_update_tile_id names a tile of the frame.
                guard contextUpdateTileId < tileCols * tileRows else { throw .avif(.headerValue) }
                tileSizeBytes = try reader.bits(2) + 1
            }
        }

        /// `tile_log2(blkSize, target)` (§5.9.16): the smallest k with blkSize << k ≥ target.
        static func tileLog2(_ blkSize: Int, _ target: Int) -> Int {
            var k = 0
            while blkSize << k < target { k += 1 }
            return k
        }
    }
}
