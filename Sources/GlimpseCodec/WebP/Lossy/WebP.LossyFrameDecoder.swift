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
        let header: LossyFrameHeader
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
        /// Where decoding resumes: the macroblock row, whether its modes have been read and
        /// its reconstruction begun, and the next macroblock in it.
        var nextRow = 0
        var rowStarted = false
        var nextColumn = 0

        /// Bytes of working memory for a frame of the given size and filter type.
        static func workingBytes(columns: Int, filterType: Int) -> Int {
            let margin = [0, 2, 8][filterType] + 2
            let cache = (16 + margin) * columns * 16 * 3 / 2
            return cache + columns * (32 + 4 + 2 + MemoryLayout<LossyMacroblockModes>.stride + 16 + 32) + 4096
        }

        init(header: LossyFrameHeader, picture: LossyPictureHeader) {
            self.header = header
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

            let chromaScratch = 2 * LossyUpsampler.scratchBytes(width: header.width)
            chromaRow = .allocate(capacity: chromaScratch)
            chromaRow.initialize(repeating: 0, count: chromaScratch)
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

        /// An independent copy of `other` in the middle of its decode (for a decoder
        /// value that is copied: each copy goes on on its own).
        init(copying other: borrowing LossyFrameDecoder) {
            self.init(header: other.header, picture: other.picture)
            @inline(__always) func copy<T>(_ from: UnsafeMutablePointer<T>, _ to: UnsafeMutablePointer<T>, _ count: Int) {
                to.update(from: from, count: count)
            }
            copy(other.work, work, Self.workSize)
            copy(other.topSamples, topSamples, 32 &* columns)
            copy(other.modesAbove, modesAbove, 4 &* columns)
            copy(other.modesLeft, modesLeft, 4)
            copy(other.nonZeroAbove, nonZeroAbove, columns)
            copy(other.nonZeroDCAbove, nonZeroDCAbove, columns)
            copy(other.coefficients, coefficients, 384 &+ 16)
            copy(other.rowModes, rowModes, columns)
            copy(other.rowFilters, rowFilters, columns)
            copy(other.chromaRow, chromaRow, 2 &* LossyUpsampler.scratchBytes(width: width))
            copy(other.cacheY, cacheY, lumaStride &* (lumaMargin &+ 16))
            copy(other.cacheU, cacheU, chromaStride &* (chromaMargin &+ 8))
            copy(other.cacheV, cacheV, chromaStride &* (chromaMargin &+ 8))
            // probabilities, bandOffsets and subblockProbabilities are constant after init.
            nonZeroLeft = other.nonZeroLeft
            nonZeroDCLeft = other.nonZeroDCLeft
            nextOutputRow = other.nextOutputRow
            nextRow = other.nextRow
            rowStarted = other.rowStarted
            nextColumn = other.nextColumn
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
            _ = try advance(modes: &modeReader, partitions: partitions, partitionCount: partitionCount,
                            completePartitions: partitionCount, output: output, rowsDecoded: rowsDecoded)
        }

        /// Decodes macroblocks from where the last call stopped, as far as the token data
        /// allows; returns whether the frame is finished.
        ///
        /// Partitions below `completePartitions` hold all their bytes, and reading past
        /// their end is the error libwebp reports. The others hold what has arrived: a
        /// macroblock that reads past it is undone (the token reader and the non-zero
        /// contexts, its only state outside the work area, are restored) and the call
        /// returns, to be retried with more bytes, as libwebp's incremental decoder
        /// (`idec_dec.c`) retries it. Prediction and filtering only ever see macroblocks
        /// whose tokens were read from real bytes, so the output is that of one call
        /// with all the bytes, however they were split.
        mutating func advance(modes modeReader: inout LossyBoolDecoder,
                              partitions: UnsafeMutablePointer<LossyBoolDecoder>, partitionCount: Int,
                              completePartitions: Int, output: LossyOutput,
                              rowsDecoded: (Range<Int>) -> Void) throws(ImageDecodingError) -> Bool {
            while nextRow < rows {
                let mbY = nextRow
                if !rowStarted {
                    for mbX in 0..<columns {
                        rowModes[mbX] = LossyMacroblockModes(reading: &modeReader, picture: picture,
                                                             above: modesAbove + 4 &* mbX, left: modesLeft,
                                                             subblockProbabilities: subblockProbabilities)
                    }
                    guard !modeReader.isPastEnd else { throw LossyDefect.modesEnded(row: mbY).error }
                    modesLeft.update(repeating: UInt8(LossyPrediction.dc), count: 4)
                    beginReconstructionRow(mbY)
                    nonZeroLeft = 0
                    nonZeroDCLeft = 0
                    nextColumn = 0
                    rowStarted = true
                }

                let partition = mbY & (partitionCount &- 1)
                let tokens = partitions + partition
                let isPartial = partition >= completePartitions
                while nextColumn < columns {
                    let mbX = nextColumn
                    let modes = rowModes[mbX]
                    // What reading this macroblock's tokens changes, to undo it when the bytes run out.
                    let saved = isPartial
                        ? (tokens.pointee, nonZeroAbove[mbX], nonZeroDCAbove[mbX], nonZeroLeft, nonZeroDCLeft) : nil
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
                    if tokens.pointee.isPastEnd {
                        guard let saved else { throw LossyDefect.tokensEnded(column: mbX, row: mbY).error }
                        (tokens.pointee, nonZeroAbove[mbX], nonZeroDCAbove[mbX], nonZeroLeft, nonZeroDCLeft) = saved
                        return false
                    }
                    if picture.filterType > 0 {
                        var strength = picture.filterStrengths[modes.segment &* 2 &+ (modes.is4x4 ? 1 : 0)]
                        strength.filtersInnerEdges = strength.filtersInnerEdges || !hasNoCoefficients
                        rowFilters[mbX] = strength
                    }
                    reconstruct(mbX, mbY, modes: modes, nonZero: nonZero)
                    nextColumn = mbX &+ 1
                }
                if picture.filterType > 0 { filterRow(mbY) }
                let first = nextOutputRow
                emitRows(mbY, output: output)
                if nextOutputRow > first { rowsDecoded(first..<nextOutputRow) }
                if mbY < rows &- 1 { shiftCache() }
                nextRow = mbY &+ 1
                rowStarted = false
            }
            return true
        }
    }
}
