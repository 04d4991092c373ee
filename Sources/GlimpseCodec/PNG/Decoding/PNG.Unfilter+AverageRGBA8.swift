extension PNG.Unfilter {
    /// Four consecutive Average rows (filter type 3, PNG §9.2) unfiltered
    /// straight into RGBA8 in one 16-byte vector: row r's pixel k − r in
    /// lanes 4r ..< 4r + 4.
    ///
    /// Average is one short dependency chain per row (each pixel needs its
    /// left neighbour's output). With each row one pixel behind the row above,
    /// a row's `b` is the previous step's lane group of the row above, so the
    /// whole vector advances by one shift, one mean and one add per step: four
    /// pixels for the cost of one. The layout rules are those of
    /// ``rgba8(_:_:prior:_:width:stride:)``; `src` is row 0's first sample,
    /// rows `srcStride` bytes apart; `dst` is row 0's output, rows `dstStride`
    /// bytes apart.
    @inline(never)
    static func rgba8AverageQuad(_ src: UnsafePointer<UInt8>, srcStride: Int, prior: UnsafeRawPointer,
                                 _ dst: UnsafeMutableRawPointer, dstStride: Int, width: Int, stride: Int) {
        let s = UnsafeRawPointer(src)
        switch stride {
        case 3: averageQuad(RGB8.self, s, srcStride, prior, dst, dstStride, width)
        case 4: averageQuad(RGBA8.self, s, srcStride, prior, dst, dstStride, width)
        case 6: averageQuad(RGB16.self, s, srcStride, prior, dst, dstStride, width)
        default: averageQuad(RGBA16.self, s, srcStride, prior, dst, dstStride, width)
        }
    }

    private static func averageQuad<S: DirectSource>(_: S.Type, _ src: UnsafeRawPointer, _ srcStride: Int,
                                                     _ prior: UnsafeRawPointer, _ dst: UnsafeMutableRawPointer,
                                                     _ dstStride: Int, _ width: Int) {
        let stride = S.stride
        let fill = alphaFill(stride)
        let rows = (src, src + srcStride, src + 2 &* srcStride, src + 3 &* srcStride)
        let out = (dst, dst + dstStride, dst + 2 &* dstStride, dst + 3 &* dstStride)
        let above = (prior, UnsafeRawPointer(out.0), UnsafeRawPointer(out.1), UnsafeRawPointer(out.2))

        /// One pixel on its own, its neighbours read back from the output (the
        /// corners of the wavefront: where it starts and where it ends).
        @inline(__always)
        func single(_ row: UnsafeRawPointer, _ above: UnsafeRawPointer, _ dst: UnsafeMutableRawPointer, _ k: Int) {
            let a = k > 0 ? load(UnsafeRawPointer(dst), (k &- 1) &<< 2) : .zero
            store((pixel(row, k, stride) &+ mean(a, load(above, k &<< 2))) | fill, dst, k)
        }

        guard width >= 3 else {
            averagePairRGBA8(S.self, rows.0, rows.1, prior, out.0, out.1, width)
            averagePairRGBA8(S.self, rows.2, rows.3, above.2, out.2, out.3, width)
            return
        }
        // Row r's pixels before 3 − r, in order: each reads only pixels already stored.
        single(rows.0, above.0, out.0, 0)
        single(rows.0, above.0, out.0, 1)
        single(rows.1, above.1, out.1, 0)
        single(rows.0, above.0, out.0, 2)
        single(rows.1, above.1, out.1, 1)
        single(rows.2, above.2, out.2, 0)
        // Before step k: (row 0's pixel k − 1, row 1's k − 2, row 2's k − 3, row 3's k − 4).
        var left = SIMD16<UInt8>(lowHalf: SIMD8(lowHalf: load(above.1, 8), highHalf: load(above.2, 4)),
                                 highHalf: SIMD8(lowHalf: load(above.3, 0), highHalf: .zero))
        let fills = SIMD16<UInt8>(lowHalf: SIMD8(lowHalf: fill, highHalf: fill), highHalf: SIMD8(lowHalf: fill, highHalf: fill))
        var k = 3
        while k < width {
            // Each row's `b` is the row above's output one pixel to the left: the
            // previous step's vector moved up one lane group, row 0's from `prior`.
            let previous = unsafeBitCast(left, to: SIMD4<UInt32>.self)
            let first = unsafeBitCast(load(prior, k &<< 2), to: UInt32.self)
            // A whole-register shift and an or: integer operations, which keep the
            // chain out of the slower float-domain shuffles.
            let shifted = SIMD4<UInt32>(0, previous[0], previous[1], previous[2])
            let up = unsafeBitCast(shifted | SIMD4<UInt32>(first, 0, 0, 0), to: SIMD16<UInt8>.self)
            let x = SIMD16<UInt8>(lowHalf: SIMD8(lowHalf: pixel(rows.0, k, stride), highHalf: pixel(rows.1, k &- 1, stride)),
                                  highHalf: SIMD8(lowHalf: pixel(rows.2, k &- 2, stride), highHalf: pixel(rows.3, k &- 3, stride)))
            let next = x &+ mean16(left, up)
            let bytes = next | fills
            store(bytes.lowHalf.lowHalf, out.0, k)
            store(bytes.lowHalf.highHalf, out.1, k &- 1)
            store(bytes.highHalf.lowHalf, out.2, k &- 2)
            store(bytes.highHalf.highHalf, out.3, k &- 3)
            left = next
            k &+= 1
        }
        // Rows 1 to 3 finish the pixels their lag left.
        single(rows.1, above.1, out.1, width &- 1)
        single(rows.2, above.2, out.2, width &- 2)
        single(rows.2, above.2, out.2, width &- 1)
        single(rows.3, above.3, out.3, width &- 3)
        single(rows.3, above.3, out.3, width &- 2)
        single(rows.3, above.3, out.3, width &- 1)
    }

    /// floor((a + b) / 2) per byte lane, without widening.
    @inline(__always)
    private static func mean16(_ a: SIMD16<UInt8>, _ b: SIMD16<UInt8>) -> SIMD16<UInt8> {
        (a & b) &+ ((a ^ b) &>> 1)
    }
}
