extension AVIF {
    /// The first frame of an `av01` item's OBUs, from its frame header to the end of its
    /// last tile group: `frame_obu()` (AV1 §5.10), or `frame_header_obu()` followed by
    /// `tile_group_obu()`s (§5.11.1), several tile groups allowed, the tiles in order.
    struct FrameParser {
        /// Parses the frame's headers and every tile, calling `reconstructor` as the syntax
        /// invokes the decoding process; returns the headers, the frame's mode info and the
        /// reconstructor. `limits` bound the frame before its per-4×4 arrays are allocated.
        static func parse<R: TileReconstructing>(_ data: [UInt8], sequence: SequenceHeader, limits: DecodingLimits,
                                                 reconstructor: R) throws(ImageDecodingError) -> (FrameParameters, FrameModeInfo, R) {
            let units = try OBU.split(data, 0..<data.count)
            guard let first = units.firstIndex(where: { $0.kind == .frame || $0.kind == .frameHeader }) else {
                throw .avif(.missingFrameHeader)
            }
            let headerOBU = units[first]
            let frame = try FrameParameters(data, headerOBU, sequence: sequence, limits: limits)
            guard frame.header.isIntra else { throw .avif(.firstFrame) }
            try checkMemory(frame, limits: limits)
            var decoder = TileDecoder(frame: frame, reconstructor: reconstructor)
            let numTiles = frame.tiles.tileCols * frame.tiles.tileRows
            var nextTile = 0
            if headerOBU.kind == .frame {
                let start = frame.endOffset
                guard start <= headerOBU.payload.upperBound else { throw .avif(.headerPastEnd(obuType: headerOBU.type)) }
                nextTile = try tileGroup(data, start..<headerOBU.payload.upperBound, obuType: headerOBU.type,
                                         frame: frame, expected: nextTile, decoder: &decoder)
            }
            var index = first + 1
            while nextTile < numTiles {
                guard index < units.count else { throw .avif(.tileData(.tileGroup)) }
                let unit = units[index]
                index += 1
                switch unit.kind {
                case .tileGroup:
                    nextTile = try tileGroup(data, unit.payload, obuType: unit.type, frame: frame, expected: nextTile,
                                             decoder: &decoder)
                case .frame, .frameHeader, .sequenceHeader:
                    // A new frame or sequence before this frame's last tile.
                    throw .avif(.tileData(.tileGroup))
                default:
                    continue  // metadata, padding, redundant frame headers
                }
            }
            return (frame, decoder.info, decoder.reconstructor)
        }

        /// The frame-wide arrays cost about this much per 4×4; refused beyond `maxTotalBytes`.
        private static func checkMemory(_ frame: FrameParameters, limits: DecodingLimits) throws(ImageDecodingError) {
            // Ten one-byte arrays, the per-plane transform sizes and contexts, palettes, delta LF, MV differences.
            let perPosition = 12 + 4 * frame.numPlanes + (frame.header.allowsScreenContentTools ? 32 : 0)
                + (frame.deltaLfPresent ? 4 : 0) + (frame.header.allowsIntraBlockCopy ? 8 : 0)
            let (bytes, overflow) = (frame.miRows * frame.miCols).multipliedReportingOverflow(by: perPosition)
            guard !overflow, bytes <= limits.maxTotalBytes else { throw .limitExceeded(.totalBytes) }
        }

        /// `tile_group_obu(sz)` (§5.11.1) on `data[range]`; returns the next tile expected.
        private static func tileGroup<R>(_ data: [UInt8], _ range: Range<Int>, obuType: Int, frame: FrameParameters,
                                         expected: Int, decoder: inout TileDecoder<R>) throws(ImageDecodingError) -> Int {
            let tiles = frame.tiles
            let numTiles = tiles.tileCols * tiles.tileRows
            var reader = BitReader(data, range, obuType: obuType)
            var tgStart = 0, tgEnd = numTiles - 1
            if numTiles > 1, try reader.flag() {  // tile_start_and_end_present_flag
                let tileBits = tiles.tileColsLog2 + tiles.tileRowsLog2
                tgStart = try reader.bits(tileBits)
                tgEnd = try reader.bits(tileBits)
            }
            // §6.10.1: tiles in order, each once, within the frame.
            guard tgStart == expected, tgEnd >= tgStart, tgEnd < numTiles else { throw .avif(.tileData(.tileGroup)) }
            reader.alignToByte()
            var offset = reader.position >> 3
            for tileNum in tgStart...tgEnd {
                let tileSize: Int
                if tileNum == tgEnd {
                    tileSize = range.upperBound - offset
                } else {
                    guard offset + tiles.tileSizeBytes <= range.upperBound else { throw .avif(.tileData(.sizeOutOfRange)) }
                    var value = 0
                    for i in 0..<tiles.tileSizeBytes { value |= Int(data[offset + i]) << (8 * i) }  // le(TileSizeBytes)
                    offset += tiles.tileSizeBytes
                    tileSize = value + 1
                }
                guard tileSize >= 1, tileSize <= range.upperBound - offset else { throw .avif(.tileData(.sizeOutOfRange)) }
                try decoder.decodeTile(tileNum, data, offset..<(offset + tileSize))
                offset += tileSize
            }
            return tgEnd + 1
        }
    }
}
