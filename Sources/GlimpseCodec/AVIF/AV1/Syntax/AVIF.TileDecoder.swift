extension AVIF {
    /// Parses the tiles of one intra frame (AV1 §5.11: `decode_tile()` and everything under
    /// it), keeping the syntax state the CDF selection (§8.3.2) needs and filling
    /// ``AVIF/FrameModeInfo``; calls `reconstructor` where the syntax invokes the decoding
    /// process. Variable names follow the specification's.
    struct TileDecoder<Reconstructor: TileReconstructing> {
        let frame: FrameParameters
        let cdfs = CDFContext.shared
        var sd = SymbolDecoder()
        var info: FrameModeInfo
        var reconstructor: Reconstructor

        // The frame's constants.
        let miRows: Int, miCols: Int
        let subsamplingX: Int, subsamplingY: Int
        let numPlanes: Int
        let bitDepth: Int
        let use128: Bool
        /// `sbMask` of `residual()` and `transform_block()`.
        let sbMask: Int

        // The current tile (§5.11.1, §5.11.2).
        var miRowStart = 0, miRowEnd = 0, miColStart = 0, miColEnd = 0
        var currentQIndex = 0
        var readDeltas = false
        /// `DeltaLF[i]`, i < FRAME_LF_COUNT.
        var deltaLF = [0, 0, 0, 0]
        /// `RefSgrXqd[plane][pass]` (2 per plane) and `RefLrWiener[plane][pass][i]` (6 per plane).
        var refSgrXqd = [Int](repeating: 0, count: 6)
        var refLrWiener = [Int](repeating: 0, count: 18)

        /// `AboveLevelContext[plane][x4]`, `AboveDcContext`, with `contextStride` entries per
        /// plane (`MiCols` plus the widest transform's overhang); `Left…` likewise with `MiRows`.
        var aboveLevelContext: [UInt8], aboveDcContext: [UInt8]
        var leftLevelContext: [UInt8], leftDcContext: [UInt8]
        let aboveStride: Int, leftStride: Int
        /// `BlockDecoded[plane][y][x]` for y, x in −1…32, stored from (0, 0) at index `(y + 1) * 34 + x + 1`.
        var blockDecoded = [Bool](repeating: false, count: 3 * 34 * 34)

        // The current block (§5.11.5 onwards).
        var miRow = 0, miCol = 0, miSize = 0
        var hasChroma = false
        var availU = false, availL = false, availUChroma = false, availLChroma = false
        var skip = false
        var segmentId = 0
        var lossless = false
        var yMode = 0, uvMode = 0
        var angleDeltaY = 0, angleDeltaUV = 0
        var useFilterIntra = false, filterIntraMode = 0
        var cflAlphaU = 0, cflAlphaV = 0
        var paletteSizeY = 0, paletteSizeUV = 0
        var paletteColorsY = [UInt16](repeating: 0, count: 8)
        var paletteColorsU = [UInt16](repeating: 0, count: 8)
        var paletteColorsV = [UInt16](repeating: 0, count: 8)
        var paletteCache = [UInt16](repeating: 0, count: 16)
        /// `ColorMapY[i][j]` and `ColorMapUV` at `i * 64 + j` (palette blocks are at most 64×64).
        var colorMapY = [UInt8](repeating: 0, count: 64 * 64)
        var colorMapUV = [UInt8](repeating: 0, count: 64 * 64)
        var txSize = 0
        var maxLumaW = 0, maxLumaH = 0
        /// `TxTypes[row][col]` (§5.11.47), frame-wide; an intra block copy block's chroma reads its luma's.
        var txTypes: [UInt8]
        /// `is_inter`: set for an intra block copy block.
        var isInter = false
        /// `Mv[ 0 ]` (row, column in 1/8 luma sample) of an intra block copy block (§5.11.26).
        var mv = (row: 0, col: 0)
        /// `RefStackMv` and `WeightStack` of find_mv_stack() (§7.10.2), kept between blocks.
        var mvStack = AVIF.MotionVectorStack()
        var planeTxType = 0
        /// `Quant[pos]` of `coeffs()` (§5.11.39).
        var quant = [Int32](repeating: 0, count: 1024)
        var residual = ResidualBlock()

        init(frame: FrameParameters, reconstructor: Reconstructor) {
            self.frame = frame
            self.reconstructor = reconstructor
            info = FrameModeInfo(frame: frame)
            miRows = frame.miRows
            miCols = frame.miCols
            subsamplingX = frame.subsamplingX
            subsamplingY = frame.subsamplingY
            numPlanes = frame.numPlanes
            bitDepth = frame.sequence.color.bitDepth
            use128 = frame.sequence.uses128x128Superblocks
            sbMask = use128 ? 31 : 15
            txTypes = [UInt8](repeating: 0, count: miRows * miCols)
            aboveStride = miCols + 32
            leftStride = miRows + 32
            aboveLevelContext = [UInt8](repeating: 0, count: 3 * aboveStride)
            aboveDcContext = aboveLevelContext
            leftLevelContext = [UInt8](repeating: 0, count: 3 * leftStride)
            leftDcContext = leftLevelContext
            residual.quant = []
        }

        /// `init_symbol(tileSize)`, `decode_tile()` and `exit_symbol()` for tile `tileNum`
        /// whose data is `data[range]` (§5.11.1).
        mutating func decodeTile(_ tileNum: Int, _ data: [UInt8], _ range: Range<Int>) throws(ImageDecodingError) {
            let tiles = frame.tiles
            let tileRow = tileNum / tiles.tileCols, tileCol = tileNum % tiles.tileCols
            miRowStart = tiles.miRowStarts[tileRow]
            miRowEnd = tiles.miRowStarts[tileRow + 1]
            miColStart = tiles.miColStarts[tileCol]
            miColEnd = tiles.miColStarts[tileCol + 1]
            currentQIndex = frame.baseQIdx
            let q = CDFContext.coefficientContext(baseQIdx: frame.baseQIdx)
            sd = try SymbolDecoder(data, range, cdf: cdfs.defaults[q], disableCdfUpdate: frame.header.disablesCDFUpdate)
            try decodeTileSyntax()
            try sd.exit()
            // The saved CDFs of exit_symbol() serve only later frames, which a still has not.
        }

        /// `decode_tile()` (§5.11.2).
        private mutating func decodeTileSyntax() throws(ImageDecodingError) {
            // clear_above_context()
            for i in aboveLevelContext.indices { aboveLevelContext[i] = 0; aboveDcContext[i] = 0 }
            deltaLF = [0, 0, 0, 0]
            for plane in 0..<numPlanes {
                for pass in 0..<2 {
                    refSgrXqd[plane * 2 + pass] = AV1Tables.Sgrproj_Xqd_Mid[pass]
                    for i in 0..<AV1Tables.WIENER_COEFFS {
                        refLrWiener[plane * 6 + pass * 3 + i] = AV1Tables.Wiener_Taps_Mid[i]
                    }
                }
            }
            let sbSize = use128 ? AV1Tables.BLOCK_128X128 : AV1Tables.BLOCK_64X64
            let sbSize4 = AV1Tables.Num_4x4_Blocks_Wide[sbSize]
            var r = miRowStart
            while r < miRowEnd {
                // clear_left_context()
                for i in leftLevelContext.indices { leftLevelContext[i] = 0; leftDcContext[i] = 0 }
                var c = miColStart
                while c < miColEnd {
                    readDeltas = frame.deltaQPresent
                    clearCdef(r, c)
                    clearBlockDecodedFlags(r, c, sbSize4)
                    try readLr(r, c, sbSize)
                    try decodePartition(r, c, sbSize)
                    // A damaged tile is caught here rather than after decoding the rest as padding.
                    if sd.hasOverread { throw .avif(.tileData(.overread)) }
                    c += sbSize4
                }
                r += sbSize4
            }
        }

        /// `clear_cdef(r, c)` (§5.11.55).
        private mutating func clearCdef(_ r: Int, _ c: Int) {
            setCdefIdx(r, c, -1)
            if use128 {
                setCdefIdx(r, c + 16, -1)
                setCdefIdx(r + 16, c, -1)
                setCdefIdx(r + 16, c + 16, -1)
            }
        }

        mutating func setCdefIdx(_ r: Int, _ c: Int, _ value: Int8) {
            let index = (r >> 4) * info.cdefCols + (c >> 4)
            if c >> 4 < info.cdefCols, index < info.cdefIdx.count { info.cdefIdx[index] = value }
        }

        /// `clear_block_decoded_flags(r, c, sbSize4)` (§5.11.3).
        private mutating func clearBlockDecodedFlags(_ r: Int, _ c: Int, _ sbSize4: Int) {
            for plane in 0..<numPlanes {
                let subX = plane > 0 ? subsamplingX : 0, subY = plane > 0 ? subsamplingY : 0
                let sbWidth4 = (miColEnd - c) >> subX
                let sbHeight4 = (miRowEnd - r) >> subY
                let base = plane * 34 * 34
                for y in -1...(sbSize4 >> subY) {
                    for x in -1...(sbSize4 >> subX) {
                        let decoded = (y < 0 && x < sbWidth4) || (x < 0 && y < sbHeight4)
                        blockDecoded[base + (y + 1) * 34 + x + 1] = decoded
                    }
                }
                blockDecoded[base + ((sbSize4 >> subY) + 1) * 34] = false
            }
        }

        /// `BlockDecoded[plane][y][x]`, false outside the stored border.
        func isBlockDecoded(_ plane: Int, _ y: Int, _ x: Int) -> Bool {
            guard y >= -1, y <= 32, x >= -1, x <= 32 else { return false }
            return blockDecoded[plane * 34 * 34 + (y + 1) * 34 + x + 1]
        }

        /// `is_inside(candidateR, candidateC)` (§5.11.51): inside the current tile.
        func isInside(_ candidateR: Int, _ candidateC: Int) -> Bool {
            candidateC >= miColStart && candidateC < miColEnd && candidateR >= miRowStart && candidateR < miRowEnd
        }

        /// `partitionCdf[p] - partitionCdf[p - 1]` of §8.3.2 (split_or_horz, split_or_vert).
        private func probability(_ offset: Int, _ p: Int) -> Int {
            Int(sd.cdf[offset + p]) - Int(sd.cdf[offset + p - 1])
        }

        /// `decode_partition(r, c, bSize)` (§5.11.4).
        mutating func decodePartition(_ r: Int, _ c: Int, _ bSize: Int) throws(ImageDecodingError) {
            typealias T = AV1Tables
            if r >= miRows || c >= miCols { return }
            let availU = isInside(r - 1, c), availL = isInside(r, c - 1)
            let num4x4 = T.Num_4x4_Blocks_Wide[bSize]
            let halfBlock4x4 = num4x4 >> 1
            let quarterBlock4x4 = halfBlock4x4 >> 1
            let hasRows = (r + halfBlock4x4) < miRows
            let hasCols = (c + halfBlock4x4) < miCols
            var partition: Int
            if bSize < T.BLOCK_8X8 {
                partition = T.PARTITION_NONE
            } else {
                // The CDF selection of partition (§8.3.2).
                let bsl = T.Mi_Width_Log2[bSize]
                let above = availU && T.Mi_Width_Log2[Int(info.miSizes[(r - 1) * miCols + c])] < bsl
                let left = availL && T.Mi_Height_Log2[Int(info.miSizes[r * miCols + c - 1])] < bsl
                let ctx = (left ? 2 : 0) + (above ? 1 : 0)
                let table = cdfs.partition[bsl - 1]
                let offset = table.at(ctx)
                if hasRows && hasCols {
                    partition = sd.symbol(offset, table.n)
                } else if hasCols {
                    // split_or_horz: the probability of every partition that splits vertically.
                    var psum = probability(offset, T.PARTITION_VERT) + probability(offset, T.PARTITION_SPLIT)
                        + probability(offset, T.PARTITION_HORZ_A) + probability(offset, T.PARTITION_VERT_A)
                        + probability(offset, T.PARTITION_VERT_B)
                    if bSize != T.BLOCK_128X128 { psum += probability(offset, T.PARTITION_VERT_4) }
                    partition = sd.binary(cdf0: (1 << 15) - psum) == 1 ? T.PARTITION_SPLIT : T.PARTITION_HORZ
                } else if hasRows {
                    // split_or_vert: the probability of every partition that splits horizontally.
                    var psum = probability(offset, T.PARTITION_HORZ) + probability(offset, T.PARTITION_SPLIT)
                        + probability(offset, T.PARTITION_HORZ_A) + probability(offset, T.PARTITION_HORZ_B)
                        + probability(offset, T.PARTITION_VERT_A)
                    if bSize != T.BLOCK_128X128 { psum += probability(offset, T.PARTITION_HORZ_4) }
                    partition = sd.binary(cdf0: (1 << 15) - psum) == 1 ? T.PARTITION_SPLIT : T.PARTITION_VERT
                } else {
                    partition = T.PARTITION_SPLIT
                }
            }
            let subSize = T.Partition_Subsize[partition][bSize]
            let splitSize = T.Partition_Subsize[T.PARTITION_SPLIT][bSize]
            switch partition {
            case T.PARTITION_NONE:
                try decodeBlock(r, c, subSize)
            case T.PARTITION_HORZ:
                try decodeBlock(r, c, subSize)
                if hasRows { try decodeBlock(r + halfBlock4x4, c, subSize) }
            case T.PARTITION_VERT:
                try decodeBlock(r, c, subSize)
                if hasCols { try decodeBlock(r, c + halfBlock4x4, subSize) }
            case T.PARTITION_SPLIT:
                try decodePartition(r, c, subSize)
                try decodePartition(r, c + halfBlock4x4, subSize)
                try decodePartition(r + halfBlock4x4, c, subSize)
                try decodePartition(r + halfBlock4x4, c + halfBlock4x4, subSize)
            case T.PARTITION_HORZ_A:
                try decodeBlock(r, c, splitSize)
                try decodeBlock(r, c + halfBlock4x4, splitSize)
                try decodeBlock(r + halfBlock4x4, c, subSize)
            case T.PARTITION_HORZ_B:
                try decodeBlock(r, c, subSize)
                try decodeBlock(r + halfBlock4x4, c, splitSize)
                try decodeBlock(r + halfBlock4x4, c + halfBlock4x4, splitSize)
            case T.PARTITION_VERT_A:
                try decodeBlock(r, c, splitSize)
                try decodeBlock(r + halfBlock4x4, c, splitSize)
                try decodeBlock(r, c + halfBlock4x4, subSize)
            case T.PARTITION_VERT_B:
                try decodeBlock(r, c, subSize)
                try decodeBlock(r, c + halfBlock4x4, splitSize)
                try decodeBlock(r + halfBlock4x4, c + halfBlock4x4, splitSize)
            case T.PARTITION_HORZ_4:
                for i in 0..<4 where i < 3 || r + quarterBlock4x4 * 3 < miRows {
                    try decodeBlock(r + quarterBlock4x4 * i, c, subSize)
                }
            default:  // PARTITION_VERT_4
                for i in 0..<4 where i < 3 || c + quarterBlock4x4 * 3 < miCols {
                    try decodeBlock(r, c + quarterBlock4x4 * i, subSize)
                }
            }
        }
    }
}
