extension PNG.Unfilter {
    /// The narrowest rows that run as a ``Wavefront``: row 3 starts 6 pixels
    /// behind row 0.
    static var quadMinimumWidth: Int { 6 }

    /// Four consecutive rows unfiltered straight into RGBA8 in one 16-byte
    /// vector: lanes 4r ..< 4r + 4 hold row r's pixel k − 2r at step k.
    ///
    /// Each row runs two pixels behind the row above, so its `b` (and `c`) are
    /// outputs of earlier steps, ready before the step starts, and only the
    /// left neighbour is on the dependency chain from one step to the next;
    /// each vector operation serves four rows. The first steps (rows not yet
    /// started) and the last (rows finishing) are done pixel by pixel, reading
    /// neighbours back from the output. The layout rules are those of
    /// ``rgba8(_:_:prior:_:width:stride:)``; rows are at least
    /// ``quadMinimumWidth`` pixels wide.
    struct Wavefront<S: DirectSource> {
        let rows: (UnsafeRawPointer, UnsafeRawPointer, UnsafeRawPointer, UnsafeRawPointer)
        let out: (UnsafeMutableRawPointer, UnsafeMutableRawPointer, UnsafeMutableRawPointer, UnsafeMutableRawPointer)
        /// The row above each row: `prior`, then rows 0 to 2 of the output.
        let above: (UnsafeRawPointer, UnsafeRawPointer, UnsafeRawPointer, UnsafeRawPointer)
        let fills: SIMD16<UInt8>

        /// `src` is row 0's first sample, rows `srcStride` bytes apart; `dst` is
        /// row 0's output, rows `dstStride` bytes apart.
        @_transparent
        init(_ src: UnsafeRawPointer, _ srcStride: Int, _ prior: UnsafeRawPointer, _ dst: UnsafeMutableRawPointer, _ dstStride: Int) {
            rows = (src, src + srcStride, src + 2 &* srcStride, src + 3 &* srcStride)
            out = (dst, dst + dstStride, dst + 2 &* dstStride, dst + 3 &* dstStride)
            above = (prior, UnsafeRawPointer(out.0), UnsafeRawPointer(out.1), UnsafeRawPointer(out.2))
            let fill = PNG.Unfilter.alphaFill(S.stride)
            fills = SIMD16(lowHalf: SIMD8(lowHalf: fill, highHalf: fill), highHalf: SIMD8(lowHalf: fill, highHalf: fill))
        }

        /// Calls `single(row, k)` for every pixel before the first full step
        /// (row r's pixels before 6 − 2r), in an order where each finds its
        /// neighbours stored.
        @inline(__always)
        func start(_ single: (Int, Int) -> Void) {
            for k in 0..<6 {
                single(0, k)
                if k >= 2 { single(1, k &- 2) }
                if k >= 4 { single(2, k &- 4) }
            }
        }

        /// Calls `single(row, k)` for the pixels rows 1 to 3 still lack after
        /// the last full step.
        @inline(__always)
        func finish(_ width: Int, _ single: (Int, Int) -> Void) {
            for row in 1..<4 {
                for k in (width &- 2 &* row)..<width { single(row, k) }
            }
        }

        /// At step 6: lane group r holds row r's stored pixel 6 − 2r − `behind`
        /// (0 for pixels left of the row).
        @inline(__always)
        func stored(behind: Int) -> SIMD16<UInt8> {
            @inline(__always)
            func pixel(_ row: UnsafeRawPointer, _ k: Int) -> SIMD4<UInt8> { k >= 0 ? PNG.Unfilter.load(row, k &<< 2) : .zero }
            return SIMD16(lowHalf: SIMD8(lowHalf: pixel(above.1, 6 &- behind), highHalf: pixel(above.2, 4 &- behind)),
                          highHalf: SIMD8(lowHalf: pixel(above.3, 2 &- behind), highHalf: pixel(UnsafeRawPointer(out.3), -behind)))
        }

        /// The filtered samples of step k.
        @_transparent
        func source(_ k: Int) -> SIMD16<UInt8> {
            let stride = S.stride
            return SIMD16(lowHalf: SIMD8(lowHalf: PNG.Unfilter.pixel(rows.0, k, stride), highHalf: PNG.Unfilter.pixel(rows.1, k &- 2, stride)),
                          highHalf: SIMD8(lowHalf: PNG.Unfilter.pixel(rows.2, k &- 4, stride), highHalf: PNG.Unfilter.pixel(rows.3, k &- 6, stride)))
        }

        /// The `b` samples of step k: the row above's outputs of step k − 2
        /// (`older`), moved up one lane group; row 0's from `prior`.
        @_transparent
        func above(_ k: Int, older: SIMD16<UInt8>) -> SIMD16<UInt8> {
            let previous = unsafeBitCast(older, to: SIMD4<UInt32>.self)
            let first = unsafeBitCast(PNG.Unfilter.load(above.0, k &<< 2), to: UInt32.self)
            return unsafeBitCast(SIMD4<UInt32>(first, previous[0], previous[1], previous[2]), to: SIMD16<UInt8>.self)
        }

        /// Stores step k's outputs (alpha set to 255 for RGB sources).
        @_transparent
        func store(_ k: Int, _ value: SIMD16<UInt8>) {
            let bytes = value | fills
            PNG.Unfilter.store(bytes.lowHalf.lowHalf, out.0, k)
            PNG.Unfilter.store(bytes.lowHalf.highHalf, out.1, k &- 2)
            PNG.Unfilter.store(bytes.highHalf.lowHalf, out.2, k &- 4)
            PNG.Unfilter.store(bytes.highHalf.highHalf, out.3, k &- 6)
        }

        /// Row r's source, output and row above, for the pixel-by-pixel corners.
        @inline(__always)
        func row(_ r: Int) -> (source: UnsafeRawPointer, output: UnsafeMutableRawPointer, above: UnsafeRawPointer) {
            switch r {
            case 0: (rows.0, out.0, above.0)
            case 1: (rows.1, out.1, above.1)
            case 2: (rows.2, out.2, above.2)
            default: (rows.3, out.3, above.3)
            }
        }
    }
}
