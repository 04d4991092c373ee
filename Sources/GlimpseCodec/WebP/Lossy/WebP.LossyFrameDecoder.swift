/// The working state of one lossy frame decode: the row-sized context arrays,
/// libwebp's 32-byte-pitch work area for predicting one macroblock, and a
/// cache of the macroblock row being filtered plus the rows above it that the
/// loop filter and the chroma upsampler still need (RFC 6386 §15: the filter
/// reaches up to four pixels into the row above).
///
/// Memory is allocated once in `init` and released in `deinit`; the type is
/// non-copyable so that exactly one owner frees it. Every buffer is sized from
/// the macroblock counts, which the caller has checked against its limits.
extension WebP {
    struct LossyFrameDecoder: ~Copyable {
        let width: Int
        let height: Int
        let columns: Int
        let rows: Int
        var picture: LossyPictureHeader

        // Macroblock work area (libwebp's `yuv_b`): luma at `lumaOffset`, chroma below.
        let work: UnsafeMutablePointer<UInt8>
        static let workSize = LossyPrediction.stride * (17 + 9)
        static let lumaOffset = LossyPrediction.stride + 8
        static let uOffset = lumaOffset + LossyPrediction.stride * 16 + LossyPrediction.stride
        static let vOffset = uOffset + 16

        /// Unfiltered bottom rows of the macroblock row above (16 luma, 8 + 8 chroma per column).
        let topSamples: UnsafeMutablePointer<UInt8>
        /// Sub-block modes of the bottom blocks of the row above, 4 per column.
        let modesAbove: UnsafeMutablePointer<UInt8>
        /// Sub-block modes of the right blocks of the macroblock to the left.
        let modesLeft: UnsafeMutablePointer<UInt8>
        /// Non-zero flags of the blocks above (libwebp's `nz` bits) and of the Y2 block above.
        let nonZeroAbove: UnsafeMutablePointer<UInt8>
        let nonZeroDCAbove: UnsafeMutablePointer<UInt8>
        var nonZeroLeft: UInt32 = 0
        var nonZeroDCLeft: UInt32 = 0
        /// Dequantised coefficients of one macroblock: 16 luma blocks, 4 U, 4 V, then the Y2 block.
        let coefficients: UnsafeMutablePointer<Int16>
        /// Modes of the current macroblock row, read ahead from the first partition.
        let rowModes: UnsafeMutablePointer<LossyMacroblockModes>
        /// Loop-filter parameters of each macroblock of the current row.
        let rowFilters: UnsafeMutablePointer<LossyPictureHeader.FilterStrength>
        /// Flattened token probabilities and, per type and position, the offset of their band.
        let probabilities: UnsafeMutablePointer<UInt8>
        let bandOffsets: UnsafeMutablePointer<Int>
        let subblockProbabilities: UnsafeMutablePointer<UInt8>
        /// One row of upsampled U and V (width + 16 bytes each) for the colour conversion.
        let chromaRow: UnsafeMutablePointer<UInt8>

        // Plane cache: `margin` rows above the current macroblock row, then the row itself.
        let lumaStride: Int
        let chromaStride: Int
        let lumaMargin: Int
        let chromaMargin: Int
        let cacheY: UnsafeMutablePointer<UInt8>
        let cacheU: UnsafeMutablePointer<UInt8>
        let cacheV: UnsafeMutablePointer<UInt8>
        /// Rows of the last macroblock row that wait for the next row's filtering (libwebp's `kFilterExtraRows`).
        let filterDelay: Int
        /// The next output row to convert to RGBA.
        var nextOutputRow = 0

        /// Bytes of working memory for a frame of the given size and filter type.
        static func workingBytes(columns: Int, filterType: Int) -> Int {
            let margin = [0, 2, 8][filterType] + 2
            let cache = (16 + margin) * columns * 16 * 3 / 2
            return cache + columns * (32 + 4 + 2 + MemoryLayout<LossyMacroblockModes>.stride + 16 + 32) + 4096
        }

        init(header: LossyFrameHeader, picture: LossyPictureHeader) {
            width = header.width
            height = header.height
            columns = header.macroblockColumns
            rows = header.macroblockRows
            self.picture = picture
            work = .allocate(capacity: Self.workSize)
            work.initialize(repeating: 0, count: Self.workSize)
            topSamples = .allocate(capacity: 32 * columns)
            topSamples.initialize(repeating: 0, count: 32 * columns)
            modesAbove = .allocate(capacity: 4 * columns)
            modesAbove.initialize(repeating: UInt8(LossyPrediction.dc), count: 4 * columns)
            modesLeft = .allocate(capacity: 4)
            modesLeft.initialize(repeating: UInt8(LossyPrediction.dc), count: 4)
            nonZeroAbove = .allocate(capacity: columns)
            nonZeroAbove.initialize(repeating: 0, count: columns)
            nonZeroDCAbove = .allocate(capacity: columns)
            nonZeroDCAbove.initialize(repeating: 0, count: columns)
            coefficients = .allocate(capacity: 384 + 16)
            coefficients.initialize(repeating: 0, count: 384 + 16)
            rowModes = .allocate(capacity: columns)
            rowModes.initialize(repeating: LossyMacroblockModes(), count: columns)
            rowFilters = .allocate(capacity: columns)
            rowFilters.initialize(repeating: .init(), count: columns)
            probabilities = .allocate(capacity: picture.coefficientProbabilities.count)
            _ = UnsafeMutableBufferPointer(start: probabilities, count: picture.coefficientProbabilities.count)
                .initialize(from: picture.coefficientProbabilities)
            bandOffsets = .allocate(capacity: 4 * 17)
            for type in 0..<4 {
                for position in 0...16 {
                    bandOffsets[type * 17 + position] = (type * 8 + LossyTables.bands[position]) * 33
                }
            }
            let modeTable = LossyTables.subblockModeProbabilities
            subblockProbabilities = .allocate(capacity: modeTable.count)
            _ = UnsafeMutableBufferPointer(start: subblockProbabilities, count: modeTable.count).initialize(from: modeTable)

            chromaRow = .allocate(capacity: 2 * (header.width + 16))
            chromaRow.initialize(repeating: 0, count: 2 * (header.width + 16))
            filterDelay = [0, 2, 8][picture.filterType]
            lumaMargin = filterDelay + 2
            chromaMargin = lumaMargin / 2
            lumaStride = columns * 16
            chromaStride = columns * 8
            let lumaCount = lumaStride * (lumaMargin + 16), chromaCount = chromaStride * (chromaMargin + 8)
            cacheY = .allocate(capacity: lumaCount)
            cacheY.initialize(repeating: 0, count: lumaCount)
            cacheU = .allocate(capacity: chromaCount)
            cacheU.initialize(repeating: 0, count: chromaCount)
            cacheV = .allocate(capacity: chromaCount)
            cacheV.initialize(repeating: 0, count: chromaCount)
        }

        deinit {
            work.deallocate()
            topSamples.deallocate()
            modesAbove.deallocate()
            modesLeft.deallocate()
            nonZeroAbove.deallocate()
            nonZeroDCAbove.deallocate()
            coefficients.deallocate()
            rowModes.deallocate()
            rowFilters.deallocate()
            probabilities.deallocate()
            bandOffsets.deallocate()
            subblockProbabilities.deallocate()
            chromaRow.deallocate()
            cacheY.deallocate()
            cacheU.deallocate()
            cacheV.deallocate()
        }

        /// Decodes every macroblock row, writing RGBA rows to `output` as they
        /// become final and reporting each finished band to `rowsDecoded`.
        mutating func run(modes modeReader: inout LossyBoolDecoder,
                          partitions: UnsafeMutablePointer<LossyBoolDecoder>, partitionCount: Int,
                          output: LossyOutput, rowsDecoded: (Range<Int>) -> Void) throws(ImageDecodingError) {
            for mbY in 0..<rows {
                for mbX in 0..<columns {
                    rowModes[mbX] = LossyMacroblockModes(reading: &modeReader, picture: picture,
                                                         above: modesAbove + 4 &* mbX, left: modesLeft,
                                                         subblockProbabilities: subblockProbabilities)
                }
                guard !modeReader.isPastEnd else { throw LossyDefect.modesEnded(row: mbY).error }
                modesLeft.update(repeating: UInt8(LossyPrediction.dc), count: 4)

                let tokens = partitions + (mbY & (partitionCount &- 1))
                beginReconstructionRow(mbY)
                nonZeroLeft = 0
                nonZeroDCLeft = 0
                for mbX in 0..<columns {
                    let modes = rowModes[mbX]
                    var hasNoCoefficients = true
                    var nonZero = (luma: UInt32(0), chroma: UInt32(0))
                    if !(modes.skipsCoefficients) {
                        nonZero = parseResiduals(mbX, modes: modes, reader: &tokens.pointee)
                        hasNoCoefficients = nonZero.luma | nonZero.chroma == 0
                    } else {
                        nonZeroAbove[mbX] = 0
                        nonZeroLeft = 0
                        if !modes.is4x4 {
                            nonZeroDCAbove[mbX] = 0
                            nonZeroDCLeft = 0
                        }
                    }
                    if picture.filterType > 0 {
                        var strength = picture.filterStrengths[modes.segment &* 2 &+ (modes.is4x4 ? 1 : 0)]
                        strength.filtersInnerEdges = strength.filtersInnerEdges || !hasNoCoefficients
                        rowFilters[mbX] = strength
                    }
                    guard !tokens.pointee.isPastEnd else {
                        throw LossyDefect.tokensEnded(column: mbX, row: mbY).error
                    }
                    reconstruct(mbX, mbY, modes: modes, nonZero: nonZero)
                }
                if picture.filterType > 0 { filterRow(mbY) }
                let first = nextOutputRow
                emitRows(mbY, output: output)
                if nextOutputRow > first { rowsDecoded(first..<nextOutputRow) }
                if mbY < rows &- 1 { shiftCache() }
            }
        }
    }
}
