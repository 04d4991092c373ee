extension WebP {
    /// The prediction filters of an `ALPH` chunk (RFC 9649 §2.7.1.4 "Filtering
    /// method"), undone exactly as libwebp's `dsp/filters.c` undoes them: every
    /// row's first pixel is predicted from the pixel above it (0 for the very first
    /// pixel), and the first row is always predicted from the left.
    enum AlphaFilter: UInt8, Sendable, Hashable, CaseIterable {
        case none = 0
        /// Predictor: the pixel to the left.
        case horizontal = 1
        /// Predictor: the pixel above.
        case vertical = 2
        /// Predictor: `clip(left + above − above-left)` to 0…255.
        case gradient = 3

        /// Turns `row` (deltas) into values in place; `above` is the previous output row, `nil` for the first.
        func unfilter(_ row: UnsafeMutablePointer<UInt8>, above: UnsafePointer<UInt8>?, width: Int) {
            guard width > 0 else { return }
            switch self {
            case .none:
                return
            case .horizontal:
                Self.unfilterLeft(row, first: above?[0] ?? 0, width: width)
            case .vertical:
                guard let above else { return Self.unfilterLeft(row, first: 0, width: width) }
                for i in 0..<width { row[i] = row[i] &+ above[i] }
            case .gradient:
                guard let above else { return Self.unfilterLeft(row, first: 0, width: width) }
                // The first pixel's left and above-left are the pixel above, so it predicts from above.
                var left = above[0], aboveLeft = above[0]
                for i in 0..<width {
                    let top = above[i]
                    let g = Int(left) &+ Int(top) &- Int(aboveLeft)
                    let prediction = UInt8(truncatingIfNeeded: g < 0 ? 0 : (g > 255 ? 255 : g))
                    left = row[i] &+ prediction
                    aboveLeft = top
                    row[i] = left
                }
            }
        }

        /// Each value is the delta plus the value to its left; the first adds `first`.
        private static func unfilterLeft(_ row: UnsafeMutablePointer<UInt8>, first: UInt8, width: Int) {
            var previous = first
            for i in 0..<width {
                previous = previous &+ row[i]
                row[i] = previous
            }
        }
    }
}
