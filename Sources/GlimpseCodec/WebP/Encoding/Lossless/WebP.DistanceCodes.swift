extension WebP {
    /// Distances in pixels → VP8L distance codes (RFC 9649 §5.2.2): the 120 codes
    /// of the 2D neighbourhood (up to 8 pixels left or right, 7 rows up) when the
    /// distance is one of them, otherwise the distance plus 120.
    struct DistanceCodes {
        let width: Int
        /// Code (1…120) per neighbourhood offset, indexed `dy * 17 + dx + 8`; 0 if none.
        private let planeCodes: [UInt8]

        init(width: Int) {
            self.width = width
            var codes = [UInt8](repeating: 0, count: 17 * 8)
            for (index, (dx, dy)) in LosslessStreamDecoder.distanceMap.enumerated() {
                codes[Int(dy) * 17 + Int(dx) + 8] = UInt8(index + 1)
            }
            planeCodes = codes
        }

        /// The smallest code naming `distance` (≥ 1) exactly.
        @inline(__always)
        func code(_ distance: Int) -> Int {
            let dy = distance / width
            let dx = distance - dy * width
            var best = distance + 120
            // The same distance as (dx, dy) or, when near the row's end, (dx − width, dy + 1).
            if dx <= 8, dy < 8 { best = min(best, verified(dx, dy, distance)) }
            if dx >= width - 8, dy + 1 < 8 { best = min(best, verified(dx - width, dy + 1, distance)) }
            return best
        }

        @inline(__always)
        private func verified(_ dx: Int, _ dy: Int, _ distance: Int) -> Int {
            guard dx >= -8, dx <= 8 else { return Int.max }
            let code = Int(planeCodes[dy * 17 + dx + 8])
            guard code > 0, LosslessStreamDecoder.planeDistance(code, width: width) == distance else { return Int.max }
            return code
        }
    }
}
