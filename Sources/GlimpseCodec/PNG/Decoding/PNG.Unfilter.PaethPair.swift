extension PNG.Unfilter {
    /// Two consecutive Paeth rows in one 8-lane vector: row 0's pixel k in the
    /// low half, row 1's pixel k − 2 in the high half. Two pixels behind, row
    /// 1's `b` and `c` (row 0's outputs) were ready an iteration earlier, so
    /// the predictor bounds (``PNG/PaethAbove``) of both rows are computed off
    /// the chain, and each vector operation serves both rows.
    struct PaethPair<S: DirectSource> {
        // Members are `@_transparent` for the reason given in ``PNG/PaethAbove``:
        // with `@inline(__always)`, `step` stayed a call per pixel.
        typealias Pair = SIMD8<Int16>
        let src0: UnsafeRawPointer, src1: UnsafeRawPointer, prior: UnsafeRawPointer
        let dst0: UnsafeMutableRawPointer, dst1: UnsafeMutableRawPointer
        let fill: SIMD4<UInt8>
        /// At step k: (row 0's pixel k − 1, row 1's pixel k − 3).
        var left: Pair
        /// At step k: (the prior row's pixel k − 1, row 0's pixel k − 3).
        var upperLeft: Pair
        /// At step k: row 0's pixel k − 2 (row 1's `b`).
        var older: SIMD4<Int16>

        /// Unfilters row 0's pixels 0 and 1 (pixel 0 has no left neighbour:
        /// a = c = 0). The rows are at least 2 pixels wide.
        @_transparent
        init(_ src0: UnsafeRawPointer, _ src1: UnsafeRawPointer, _ prior: UnsafeRawPointer,
             _ dst0: UnsafeMutableRawPointer, _ dst1: UnsafeMutableRawPointer) {
            self.src0 = src0
            self.src1 = src1
            self.prior = prior
            self.dst0 = dst0
            self.dst1 = dst1
            let stride = S.stride
            let fill = PNG.Unfilter.alphaFill(stride)
            self.fill = fill
            let zero = SIMD4<Int16>.zero
            let above0 = PNG.Unfilter.load16(prior, 0), above1 = PNG.Unfilter.load16(prior, 4)
            let first = PNG.PaethAbove.unfilter(PNG.Unfilter.pixel16(src0, 0, stride), left: zero, above: above0, upperLeft: zero)
            let second = PNG.PaethAbove.unfilter(PNG.Unfilter.pixel16(src0, 1, stride), left: first, above: above1, upperLeft: above0)
            PNG.Unfilter.store(SIMD4<UInt8>(truncatingIfNeeded: first) | fill, dst0, 0)
            PNG.Unfilter.store(SIMD4<UInt8>(truncatingIfNeeded: second) | fill, dst0, 1)
            // Row 1's pixel −1 is 0 (its a and c at pixel 0).
            older = first
            left = Pair(lowHalf: second, highHalf: zero)
            upperLeft = Pair(lowHalf: above1, highHalf: zero)
        }

        /// Row 0's pixel k and row 1's pixel k − 2, for 2 ≤ k < width.
        @_transparent
        mutating func step(_ k: Int) {
            let stride = S.stride
            let up = Pair(lowHalf: PNG.Unfilter.load16(prior, k &<< 2), highHalf: older)
            let x = Pair(lowHalf: PNG.Unfilter.pixel16(src0, k, stride), highHalf: PNG.Unfilter.pixel16(src1, k &- 2, stride))
            let out = PNG.PaethAbove(b: up, c: upperLeft).unfilter(x, left: left)
            let bytes = SIMD8<UInt8>(truncatingIfNeeded: out) | SIMD8<UInt8>(lowHalf: fill, highHalf: fill)
            PNG.Unfilter.store(bytes.lowHalf, dst0, k)
            PNG.Unfilter.store(bytes.highHalf, dst1, k &- 2)
            older = left.lowHalf
            left = out
            upperLeft = up
        }

        /// Row 1's last two pixels, after every step up to `width − 1`.
        @_transparent
        func finish(_ width: Int) {
            let stride = S.stride
            // Pixel width − 2: b = row 0's width − 2, c = its width − 3.
            let penultimate = PNG.PaethAbove.unfilter(PNG.Unfilter.pixel16(src1, width &- 2, stride), left: left.highHalf,
                                                      above: older, upperLeft: upperLeft.highHalf)
            let last = PNG.PaethAbove.unfilter(PNG.Unfilter.pixel16(src1, width &- 1, stride), left: penultimate,
                                               above: left.lowHalf, upperLeft: older)
            PNG.Unfilter.store(SIMD4<UInt8>(truncatingIfNeeded: penultimate) | fill, dst1, width &- 2)
            PNG.Unfilter.store(SIMD4<UInt8>(truncatingIfNeeded: last) | fill, dst1, width &- 1)
        }
    }
}
