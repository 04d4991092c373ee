/// The frame-wide parameters at the start of the first partition (RFC 6386
/// §9.2–9.11, §19.2): segmentation, loop filter, token partition count,
/// quantisers and token probabilities, with the per-segment values derived
/// from them the way libwebp derives them (`VP8ParseQuant`,
/// `PrecomputeFilterStrengths`).
extension WebP {
    struct LossyPictureHeader {
        /// Dequantisation factors of one segment (RFC 6386 §14.1), as libwebp clips and scales them.
        struct Dequantizer {
            var y1: (dc: Int32, ac: Int32)
            var y2: (dc: Int32, ac: Int32)
            var uv: (dc: Int32, ac: Int32)
        }

        /// Loop-filter parameters of one segment and block kind (RFC 6386 §15.2), precomputed.
        struct FilterStrength {
            /// Edge limit before the +4 of macroblock edges; 0 turns filtering off.
            var limit: Int32 = 0
            /// Interior limit.
            var interiorLimit: Int32 = 0
            /// High edge variance threshold.
            var hevThreshold: Int32 = 0
            /// Whether inner edges are filtered (4×4-predicted or coded macroblocks).
            var filtersInnerEdges = false
        }

        /// Whether macroblocks carry segment ids (RFC 6386 §9.3).
        var updatesSegmentMap = false
        /// Segment-id tree probabilities (RFC 6386 §9.3).
        var segmentProbabilities: [UInt8] = [255, 255, 255]
        /// 0: no filter, 1: simple, 2: normal (RFC 6386 §15).
        var filterType = 0
        /// Number of token partitions, 1, 2, 4 or 8 (RFC 6386 §9.5).
        var partitionCount = 1
        /// Per-segment dequantisers.
        var dequantizers: [Dequantizer] = []
        /// Per-segment filter strengths, `[segment * 2 + (is4x4 ? 1 : 0)]`.
        var filterStrengths: [FilterStrength] = Array(repeating: FilterStrength(), count: 8)
        /// Token probabilities `[type][band][context][node]` flattened (RFC 6386 §13.4).
        var coefficientProbabilities = LossyTables.defaultCoefficientProbabilities
        /// Probability that a macroblock has no coefficients, when signalled (RFC 6386 §9.11).
        var skipProbability: Int?

        /// Reads everything before the partition sizes (colour space through the
        /// loop-filter deltas and the partition count). Then ``parseRest(_:)``
        /// reads the quantisers and probabilities, which follow in the same partition.
        mutating func parseStart(_ reader: inout LossyBoolDecoder) throws(ImageDecodingError) {
            _ = reader.readFlag()  // colour space: only 0 is defined, and libwebp ignores it
            _ = reader.readFlag()  // clamping type: pixel values are always clamped here
            try parseSegmentation(&reader)
            try parseFilter(&reader)
            partitionCount = 1 << reader.readLiteral(2)
        }

        // Segment header (RFC 6386 §9.3), kept for the quantiser and filter derivations.
        private var segmentation = false
        private var segmentAbsolute = true
        private var segmentQuantizers = [0, 0, 0, 0]
        private var segmentFilterLevels = [0, 0, 0, 0]
        private var simpleFilter = false
        private var filterLevel = 0
        private var sharpness = 0
        private var usesFilterDeltas = false
        private var referenceFilterDeltas = [0, 0, 0, 0]
        private var modeFilterDeltas = [0, 0, 0, 0]

        private mutating func parseSegmentation(_ reader: inout LossyBoolDecoder) throws(ImageDecodingError) {
            segmentation = reader.readFlag()
            if segmentation {
                updatesSegmentMap = reader.readFlag()
                if reader.readFlag() {  // update segment feature data
                    segmentAbsolute = reader.readFlag()
                    for s in 0..<4 { segmentQuantizers[s] = reader.readFlag() ? reader.readSignedLiteral(7) : 0 }
                    for s in 0..<4 { segmentFilterLevels[s] = reader.readFlag() ? reader.readSignedLiteral(6) : 0 }
                }
                if updatesSegmentMap {
                    for s in 0..<3 { segmentProbabilities[s] = reader.readFlag() ? UInt8(reader.readLiteral(8)) : 255 }
                }
            }
            guard !reader.isPastEnd else { throw LossyDefect.headerPartitionEnded.error }
        }

        private mutating func parseFilter(_ reader: inout LossyBoolDecoder) throws(ImageDecodingError) {
            simpleFilter = reader.readFlag()
            filterLevel = reader.readLiteral(6)
            sharpness = reader.readLiteral(3)
            usesFilterDeltas = reader.readFlag()
            if usesFilterDeltas, reader.readFlag() {  // update the deltas
                for i in 0..<4 where reader.readFlag() { referenceFilterDeltas[i] = reader.readSignedLiteral(6) }
                for i in 0..<4 where reader.readFlag() { modeFilterDeltas[i] = reader.readSignedLiteral(6) }
            }
            filterType = filterLevel == 0 ? 0 : simpleFilter ? 1 : 2
            guard !reader.isPastEnd else { throw LossyDefect.headerPartitionEnded.error }
        }

        /// Reads the quantisers (§9.6), the ignored refresh flag, the token
        /// probability updates (§13.4) and the skip probability (§9.11), and
        /// derives the per-segment tables.
        mutating func parseRest(_ reader: inout LossyBoolDecoder) {
            parseQuantizers(&reader)
            _ = reader.readFlag()  // refresh_entropy_probs: irrelevant for a single key frame
            LossyTables.coefficientUpdateProbabilities.withUnsafeBufferPointer { update in
                for i in 0..<update.count where reader.readBit(Int(update[i])) {
                    coefficientProbabilities[i] = UInt8(reader.readLiteral(8))
                }
            }
            skipProbability = reader.readFlag() ? reader.readLiteral(8) : nil
            computeFilterStrengths()
        }

        private mutating func parseQuantizers(_ reader: inout LossyBoolDecoder) {
            let base = reader.readLiteral(7)
            let y1DC = reader.readFlag() ? reader.readSignedLiteral(4) : 0
            let y2DC = reader.readFlag() ? reader.readSignedLiteral(4) : 0
            let y2AC = reader.readFlag() ? reader.readSignedLiteral(4) : 0
            let uvDC = reader.readFlag() ? reader.readSignedLiteral(4) : 0
            let uvAC = reader.readFlag() ? reader.readSignedLiteral(4) : 0
            func dc(_ q: Int, max: Int = 127) -> Int32 { Int32(LossyTables.dcQuantizer[Swift.min(Swift.max(q, 0), max)]) }
            func ac(_ q: Int) -> Int32 { Int32(LossyTables.acQuantizer[Swift.min(Swift.max(q, 0), 127)]) }
            dequantizers = (0..<4).map { s in
                // Without segmentation every macroblock is in segment 0 with the base quantiser.
                let q = segmentation ? segmentQuantizers[s] + (segmentAbsolute ? 0 : base) : base
                // libwebp's scaling of the second-order AC factor: x * 155 / 100, at least 8.
                let y2ac = Swift.max((ac(q + y2AC) &* 101_581) >> 16, 8)
                return Dequantizer(y1: (dc(q + y1DC), ac(q)),
                                   y2: (dc(q + y2DC) &* 2, y2ac),
                                   uv: (dc(q + uvDC, max: 117), ac(q + uvAC)))
            }
        }

        /// Filter level, interior limit and high-variance threshold per segment
        /// and block kind (RFC 6386 §15.2, §9.6; libwebp's `PrecomputeFilterStrengths`).
        private mutating func computeFilterStrengths() {
            guard filterType > 0 else { return }
            for s in 0..<4 {
                var baseLevel = filterLevel
                if segmentation {
                    baseLevel = segmentFilterLevels[s] + (segmentAbsolute ? 0 : filterLevel)
                }
                for is4x4 in 0...1 {
                    var level = baseLevel
                    if usesFilterDeltas {
                        level += referenceFilterDeltas[0]  // intra frame
                        if is4x4 == 1 { level += modeFilterDeltas[0] }  // B_PRED
                    }
                    level = Swift.min(Swift.max(level, 0), 63)
                    var strength = FilterStrength()
                    if level > 0 {
                        var interior = level
                        if sharpness > 0 {
                            interior >>= sharpness > 4 ? 2 : 1
                            interior = Swift.min(interior, 9 - sharpness)
                        }
                        interior = Swift.max(interior, 1)
                        strength.interiorLimit = Int32(interior)
                        strength.limit = Int32(2 * level + interior)
                        strength.hevThreshold = level >= 40 ? 2 : level >= 15 ? 1 : 0
                    }
                    strength.filtersInnerEdges = is4x4 == 1
                    filterStrengths[s * 2 + is4x4] = strength
                }
            }
        }
    }
}
