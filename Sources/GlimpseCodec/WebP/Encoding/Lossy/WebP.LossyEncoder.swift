/// Encodes a still image as one VP8 key frame (RFC 6386), the payload of a
/// `VP8 ` chunk.
///
/// 1. RGBA → padded Y′CbCr 4:2:0 planes (``WebP/LossyPlanes``).
/// 2. Every macroblock in raster order: modes chosen by rate–distortion,
///    quantised and reconstructed as the decoder will (``WebP/LossyMacroblockEncoder``).
/// 3. Token statistics of the whole frame; each probability whose update saves
///    more bits than it costs is sent (RFC 6386 §13.4).
/// 4. The first partition (frame header, then every macroblock's modes) and the
///    token partitions (macroblock row r in partition r mod count, §9.5).
extension WebP {
    enum LossyEncoder {
        /// The largest width or height a frame header can state (14 bits).
        static let maxDimension = 16383
        /// The largest first partition the 19-bit size field of the frame tag can state.
        static let maxFirstPartition = (1 << 19) - 1

        struct Settings: Sendable, Hashable {
            /// cwebp's quality, 0…100.
            var quality = 75
            /// 0…6, as `cwebp -m`: 0–1 predict luma 16×16 only; 2, 3 and 4 also try the best
            /// 3, 4 and 5 of the ten 4×4 modes by prediction error; 5–6 test all ten fully.
            var method = 4
            /// Token partitions: 1, 2, 4 or 8.
            var partitions = 1
            /// Four segments with adaptive quantisation (``LossySegmentation``), else one quantiser.
            var segments = true
        }

        enum Failure: Error, Sendable, Hashable {
            /// The modes of so many macroblocks outgrow the first partition's 19-bit size.
            case firstPartitionTooLarge(Int)
        }

        /// The `VP8 ` payload for `width`×`height` RGBA8 pixels, and what a decoder will reconstruct.
        static func encode(rgba: [UInt8], width: Int, height: Int, settings: Settings = Settings())
            throws(Failure) -> (bitstream: [UInt8], reconstruction: LossyReconstruction) {
            let planes = LossyPlanes(rgba: rgba, width: width, height: height)
            let index = LossyQuantizer.index(quality: settings.quality)
            let segmentation = settings.segments ? LossySegmentation(planes: planes, quality: settings.quality) : nil
            let segmentIndices = segmentation?.indices ?? [index]
            let segmentQuantizers = segmentIndices.map { LossyQuantizer.set(index: $0) }
            let coder = LossyMacroblockEncoder(planes: planes, quantizers: segmentQuantizers[0])
            coder.subblockCandidates = [0, 0, 3, 4, 5, 10, 10][min(max(settings.method, 0), 6)]
            let columns = coder.columns, rows = coder.rows
            var infos = [LossyMacroblockInfo](repeating: LossyMacroblockInfo(), count: columns * rows)
            var levels = [Int16](repeating: 0, count: columns * rows * LossyBlocks.levelsPerMacroblock)
            var lasts = [Int8](repeating: -1, count: columns * rows * LossyBlocks.perMacroblock)
            levels.withUnsafeMutableBufferPointer { levelBuffer in
                lasts.withUnsafeMutableBufferPointer { lastBuffer in
                    guard let levelBase = levelBuffer.baseAddress, let lastBase = lastBuffer.baseAddress else { return }
                    for mbY in 0..<rows {
                        coder.beginRow()
                        for mbX in 0..<columns {
                            let index = mbY * columns + mbX
                            let segment = Int(segmentation?.segments[index] ?? 0)
                            coder.use(segmentQuantizers[segment])
                            let blockLasts = lastBase + index * LossyBlocks.perMacroblock
                            var info = coder.encode(mbX, mbY, levels: levelBase + index * LossyBlocks.levelsPerMacroblock,
                                                    lasts: blockLasts)
                            info.segment = UInt8(segment)
                            let first: Int8 = info.is4x4 ? 0 : 1
                            info.hasNoCoefficients = (0..<16).allSatisfy { blockLasts[$0] < first }
                                && (16..<25).allSatisfy { blockLasts[$0] < 0 }
                            infos[index] = info
                        }
                    }
                }
            }
            let frame = LossyFrameTokens(columns: columns, rows: rows, infos: infos, levels: levels, lasts: lasts)
            let skippable = infos.reduce(0) { $0 + ($1.hasNoCoefficients ? 1 : 0) }
            let skipProbability = skippable > 0
                ? min(max((infos.count - skippable) * 256 / infos.count, 1), 255) : nil
            let probabilities = frame.adaptedProbabilities(usesSkip: skipProbability != nil)
            let filterLevels = segmentation?.filterLevels ?? [LossyQuantizer.filterLevel(index: index)]
            // The frame's level only switches the filter on or off when segments give their own (§9.6).
            let filterLevel = filterLevels.max() ?? 0

            // First partition: frame header (RFC 6386 §19.2), then the macroblock headers (§19.3).
            var header = LossyBoolEncoder(capacity: 64 + infos.count * 4)
            header.putFlag(false)  // colour space 0
            header.putFlag(false)  // clamping required
            if let segmentation { segmentation.writeHeader(into: &header) } else { header.putFlag(false) }
            header.putFlag(false)  // normal loop filter
            header.putLiteral(filterLevel, 6)
            header.putLiteral(0, 3)  // sharpness
            header.putFlag(false)  // no loop-filter deltas
            let partitionCount = [1, 2, 4, 8].contains(settings.partitions) ? settings.partitions : 1
            header.putLiteral(partitionCount.trailingZeroBitCount, 2)
            header.putLiteral(segmentIndices[0], 7)  // ignored by decoders when the segments' values are absolute
            for _ in 0..<3 { header.putFlag(false) }  // no Y1 DC, Y2 DC or Y2 AC delta
            header.putFlag(true)
            header.putSignedLiteral(LossyQuantizer.chromaDCDelta, 4)
            header.putFlag(false)  // no chroma AC delta
            header.putFlag(false)  // refresh_entropy_probs: irrelevant for one key frame
            let defaults = LossyTables.defaultCoefficientProbabilities, updates = LossyTables.coefficientUpdateProbabilities
            for i in 0..<LossyTokenizer.probabilityCount {
                let changed = probabilities[i] != defaults[i]
                header.put(changed, Int(updates[i]))
                if changed { header.putLiteral(Int(probabilities[i]), 8) }
            }
            header.putFlag(skipProbability != nil)
            if let skipProbability { header.putLiteral(skipProbability, 8) }
            var above = [UInt8](repeating: UInt8(LossyPrediction.dc), count: 4 * columns)
            var left = [UInt8](repeating: UInt8(LossyPrediction.dc), count: 4)
            above.withUnsafeMutableBufferPointer { aboveBuffer in
                left.withUnsafeMutableBufferPointer { leftBuffer in
                    guard let aboveBase = aboveBuffer.baseAddress, let leftBase = leftBuffer.baseAddress else { return }
                    for mbY in 0..<rows {
                        leftBase.update(repeating: UInt8(LossyPrediction.dc), count: 4)
                        for mbX in 0..<columns {
                            LossyModeCoder.write(infos[mbY * columns + mbX], into: &header, segmentProbabilities: segmentation?.treeProbabilities,
                                                 skipProbability: skipProbability, above: aboveBase + 4 * mbX, left: leftBase)
                        }
                    }
                }
            }
            let first = header.finish()
            guard first.count <= maxFirstPartition else { throw .firstPartitionTooLarge(first.count) }

            let partitions = frame.writePartitions(count: partitionCount, probabilities: probabilities,
                                                   usesSkip: skipProbability != nil)
            var payload: [UInt8] = []
            payload.reserveCapacity(10 + first.count + partitions.reduce(3 * partitionCount) { $0 + $1.count })
            // Frame tag (§9.1): key frame, version 0, shown, then the first partition's size.
            let tag = (1 << 4) | (first.count << 5)
            payload += [UInt8(tag & 0xff), UInt8((tag >> 8) & 0xff), UInt8(tag >> 16)]
            payload += [0x9d, 0x01, 0x2a]
            payload += [UInt8(width & 0xff), UInt8(width >> 8), UInt8(height & 0xff), UInt8(height >> 8)]
            payload += first
            for partition in partitions.dropLast() {
                payload += [UInt8(partition.count & 0xff), UInt8((partition.count >> 8) & 0xff), UInt8(partition.count >> 16)]
            }
            for partition in partitions { payload += partition }

            let reconstruction = LossyReconstruction(width: width, height: height, columns: columns,
                                                     y: Array(UnsafeBufferPointer(start: coder.reconY, count: planes.y.count)),
                                                     u: Array(UnsafeBufferPointer(start: coder.reconU, count: planes.u.count)),
                                                     v: Array(UnsafeBufferPointer(start: coder.reconV, count: planes.v.count)),
                                                     filterLevels: infos.map { filterLevel > 0 ? filterLevels[Int($0.segment)] : 0 },
                                                     filtersInnerEdges: frame.innerEdgeFlags(y2Quantizers: segmentQuantizers.map(\.y2)))
            return (payload, reconstruction)
        }
    }
}
