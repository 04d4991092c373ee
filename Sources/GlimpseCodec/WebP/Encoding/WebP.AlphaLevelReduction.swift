extension WebP {
    /// Level reduction of an alpha plane before its lossless compression, as `cwebp -alpha_q`
    /// does (RFC 9649 §2.7.1.4 calls it pre-processing 1): the values are mapped onto fewer
    /// levels, which the VP8L coder then codes in fewer bits.
    ///
    /// The number of levels follows cwebp's mapping of the quality, so that the same
    /// `-alpha_q` gives the same coarseness: `2 + q / 5` up to 70, then `16 + 8 (q − 70)`
    /// (256, exact, at 100). The levels are placed by Lloyd's algorithm on the histogram
    /// (each level the mean of the values nearest to it, repeated until they settle),
    /// with 0 and 255 kept as levels of their own when present and no other value mapped to
    /// them: fully transparent and fully opaque pixels stay exactly so and no others become
    /// so, which is where alpha errors show most.
    enum AlphaLevelReduction {
        /// How many levels `quality` (0…100) allows.
        static func levelCount(quality: Int) -> Int {
            let quality = min(max(quality, 0), 100)
            return quality <= 70 ? 2 + quality / 5 : 16 + (quality - 70) * 8
        }

        /// `plane` with its values reduced to at most ``levelCount(quality:)`` levels (one more
        /// when 0 and 255 take the two a quality below 5 allows and values lie between them); the
        /// plane itself when it holds no more distinct values than that.
        static func reduce(_ plane: [UInt8], quality: Int) -> [UInt8] {
            var histogram = [Int](repeating: 0, count: 256)
            for value in plane { histogram[Int(value)] += 1 }
            let distinct = histogram.lazy.filter { $0 > 0 }.count
            let count = levelCount(quality: quality)
            guard distinct > count else { return plane }
            let map = self.map(histogram: histogram, levels: count)
            return plane.map { map[Int($0)] }
        }

        /// For every value 0…255, the level it becomes.
        static func map(histogram: [Int], levels count: Int) -> [UInt8] {
            let present = (0...255).filter { histogram[$0] > 0 }
            let pinned = present.filter { $0 == 0 || $0 == 255 }
            let between = present.filter { $0 != 0 && $0 != 255 }
            // At least one free level for the values between: with 0 and 255 both present and two
            // levels allowed (quality below 5), they would otherwise map to 0 or 255.
            let free = between.isEmpty ? 0 : max(count - pinned.count, 1)
            // Pinned levels first (they win ties), then free ones spread evenly over the values between.
            var levels = pinned.map(Double.init)
            levels += (0..<min(free, between.count)).map { index in
                Double(between[(2 * index + 1) * between.count / (2 * free)])
            }
            for _ in 0..<16 {
                // Lloyd's step: every value to its nearest level (as the final map assigns it),
                // every free level to the mean of its values.
                var sums = [Double](repeating: 0, count: levels.count), weights = [Double](repeating: 0, count: levels.count)
                for value in present {
                    let level = value == 0 || value == 255 || levels.count == pinned.count
                        ? nearest(Double(value), levels)
                        : pinned.count + nearest(Double(value), Array(levels[pinned.count...]))
                    sums[level] += Double(value) * Double(histogram[value])
                    weights[level] += Double(histogram[value])
                }
                var moved = false
                for index in pinned.count..<levels.count where weights[index] > 0 {
                    let mean = sums[index] / weights[index]
                    if abs(mean - levels[index]) > 0.01 { moved = true }
                    levels[index] = mean
                }
                if !moved { break }
            }
            // Values between stay between: only 0 and 255 map to 0 and 255, so what was fully
            // transparent or opaque is exactly that, and nothing else becomes so. Free levels are
            // means of values in 1…254 and round into that range.
            let freeLevels = Array(levels[pinned.count...])
            return (0...255).map { value in
                if value == 0 || value == 255 || freeLevels.isEmpty {
                    return UInt8(levels[nearest(Double(value), levels)].rounded())
                }
                return UInt8(freeLevels[nearest(Double(value), freeLevels)].rounded())
            }
        }

        /// The index of the level nearest to `value` (the first of equals); `levels` is not empty.
        private static func nearest(_ value: Double, _ levels: [Double]) -> Int {
            var best = 0, distance = Double.infinity
            for (index, level) in levels.enumerated() where abs(level - value) < distance {
                best = index
                distance = abs(level - value)
            }
            return best
        }
    }
}
