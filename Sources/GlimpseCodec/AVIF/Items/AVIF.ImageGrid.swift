extension AVIF {
    /// A `grid` derived image item's payload (ISO/IEC 23008-12 §6.6.2.3): tiles in rows and
    /// columns, its `dimg` inputs in raster order, cropped to the output size.
    public struct ImageGrid: Sendable, Hashable {
        public let rows: Int
        public let columns: Int
        public let outputWidth: Int
        public let outputHeight: Int

        /// Parses the payload (8 bytes, or 12 with 32-bit sizes when flag 1 is set) and checks
        /// the output size against `limits` and the tile count against the container's bound.
        init(_ payload: [UInt8], limits: DecodingLimits, containerLimits: ContainerLimits) throws(ImageDecodingError) {
            guard payload.count >= 8, payload[0] == 0 else { throw .avif(.gridPayload) }
            let wide = payload[1] & 1 != 0
            guard payload.count == (wide ? 12 : 8) else { throw .avif(.gridPayload) }
            rows = Int(payload[2]) + 1
            columns = Int(payload[3]) + 1
            var reader = ByteReader(payload, 4..<payload.count, box: .grid)
            outputWidth = Int(wide ? try reader.uint32() : UInt32(try reader.uint16()))
            outputHeight = Int(wide ? try reader.uint32() : UInt32(try reader.uint16()))
            guard outputWidth > 0, outputHeight > 0 else { throw .avif(.gridPayload) }
            try limits.checkDimensions(width: outputWidth, height: outputHeight)
            try containerLimits.check(rows * columns, containerLimits.maxGridTiles)
        }

        /// MIAF §7.3.11.4: the tiles cover the output, and no row or column of them lies wholly outside it.
        func checkCoverage(tileWidth: Int, tileHeight: Int) throws(ImageDecodingError) {
            guard tileWidth > 0, tileHeight > 0,
                  tileWidth * columns >= outputWidth, tileHeight * rows >= outputHeight,
                  tileWidth * (columns - 1) < outputWidth, tileHeight * (rows - 1) < outputHeight else {
                throw .avif(.gridTiles)
            }
        }
    }
}
