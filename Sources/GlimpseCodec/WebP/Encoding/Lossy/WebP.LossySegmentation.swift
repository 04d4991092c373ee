/// Segments with their own quantiser and loop-filter level (RFC 6386 §9.3,
/// §9.6): spatial noise shaping. Flat macroblocks, where quantisation noise
/// shows, get a finer quantiser than busy ones, where texture masks it; the
/// frame's bits move to where the eye sees them.
///
/// A macroblock's activity is the mean absolute deviation of its luma from the
/// mean of each 4×4 block (texture, not gradients across the macroblock);
/// macroblocks are split into four segments of equal count by activity. Each
/// segment's quantiser comes from cwebp's quality mapping with the compression
/// exponent scaled by how much flatter or busier than the middle the segment is
/// (libwebp's `VP8SetSegmentParams` at its default `-sns 50` spreads the
/// indices about as far: roughly ±10 around the base at quality 75).
extension WebP {
    struct LossySegmentation {
        static let count = 4
        /// Segment of every macroblock, raster order.
        var segments: [UInt8]
        /// Quantiser index and loop-filter level of each segment.
        var indices: [Int]
        var filterLevels: [Int]
        /// The segment-id tree's three probabilities (RFC 6386 §9.3).
        var treeProbabilities: [UInt8]

        init(planes: LossyPlanes, quality: Int) {
            let columns = planes.lumaWidth / 16, rows = planes.lumaHeight / 16
            let count = columns * rows
            var activity = [Int](repeating: 0, count: count)
            let stride = planes.lumaWidth
            for mbY in 0..<rows {
                for mbX in 0..<columns {
                    var deviation = 0
                    for block in 0..<16 {
                        let origin = (mbY * 16 + (block >> 2) * 4) * stride + mbX * 16 + (block & 3) * 4
                        var sum = 0
                        for j in 0..<4 { for i in 0..<4 { sum += Int(planes.y[origin + j * stride + i]) } }
                        for j in 0..<4 {
                            for i in 0..<4 { deviation += abs(16 * Int(planes.y[origin + j * stride + i]) - sum) }
                        }
                    }
                    activity[mbY * columns + mbX] = deviation
                }
            }
            let order = activity.indices.sorted { activity[$0] < activity[$1] }
            segments = [UInt8](repeating: 0, count: count)
            var totals = [Double](repeating: 0, count: Self.count), members = [Int](repeating: 0, count: Self.count)
            for (rank, index) in order.enumerated() {
                let segment = rank * Self.count / count
                segments[index] = UInt8(segment)
                // Activity on a log scale: doubling the texture moves a segment as far at any level.
                totals[segment] += ScalarMath.log(1 + Double(activity[index]) / 256)
                members[segment] += 1
            }
            let centers = (0..<Self.count).map { members[$0] > 0 ? totals[$0] / Double(members[$0]) : 0 }
            let used = (0..<Self.count).filter { members[$0] > 0 }.map { centers[$0] }
            let low = used.min() ?? 0, high = used.max() ?? 0
            let compression = LossyQuantizer.compression(quality: quality)
            // The exponent's reach: ±0.45 at the extremes (cwebp's -sns 50).
            let amplitude = 0.9 * 50 / 100 / 128
            indices = centers.map { center in
                let alpha = high > low ? min(max(255 * ((low + high) / 2 - center) / (high - low), -127), 127) : 0
                let c = compression > 0 ? ScalarMath.power(compression, 1 - amplitude * alpha) : 0
                return min(max(Int(127 * (1 - c)), 0), 127)
            }
            filterLevels = indices.map { LossyQuantizer.filterLevel(index: $0) }
            func probability(_ zeros: Int, _ total: Int) -> UInt8 {
                total > 0 ? UInt8(min(max(zeros * 255 / total, 1), 255)) : 255
            }
            treeProbabilities = [probability(members[0] + members[1], count),
                                 probability(members[0], members[0] + members[1]),
                                 probability(members[2], members[2] + members[3])]
        }

        /// Writes the segment header (RFC 6386 §9.3): the map is updated, values are absolute.
        func writeHeader(into encoder: inout LossyBoolEncoder) {
            encoder.putFlag(true)  // segmentation enabled
            encoder.putFlag(true)  // update the map
            encoder.putFlag(true)  // update the feature data
            encoder.putFlag(true)  // absolute values, not deltas
            for index in indices {
                encoder.putFlag(true)
                encoder.putSignedLiteral(index, 7)
            }
            for level in filterLevels {
                encoder.putFlag(true)
                encoder.putSignedLiteral(level, 6)
            }
            for probability in treeProbabilities {
                encoder.putFlag(true)
                encoder.putLiteral(Int(probability), 8)
            }
        }
    }
}
