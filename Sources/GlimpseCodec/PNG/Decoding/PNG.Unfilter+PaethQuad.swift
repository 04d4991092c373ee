extension PNG.Unfilter {
    /// Four consecutive Paeth rows in one 16-byte vector: row r's pixel
    /// k − 2r in lanes 4r ..< 4r + 4. Two pixels behind the row above, each
    /// row finds its `b` and `c` among outputs of earlier steps, so only the
    /// left neighbour `a` is on the chain from one step to the next. The
    /// predictor works on the bytes themselves (``paeth(_:_:_:)``), so each
    /// vector operation serves four rows. (One pixel behind, `b` came from
    /// the step just finished and the chain was longer: 4.2 against 3.9 ms of
    /// Paeth on a 1080 × 1920 image stored without compression.)
    static func paethQuad<S: DirectSource>(_: S.Type, _ src: UnsafeRawPointer, _ srcStride: Int, _ prior: UnsafeRawPointer,
                                           _ dst: UnsafeMutableRawPointer, _ dstStride: Int, _ width: Int) {
        let stride = S.stride
        let fill = alphaFill(stride)
        let rows = (src, src + srcStride, src + 2 &* srcStride, src + 3 &* srcStride)
        let out = (dst, dst + dstStride, dst + 2 &* dstStride, dst + 3 &* dstStride)
        let above = (prior, UnsafeRawPointer(out.0), UnsafeRawPointer(out.1), UnsafeRawPointer(out.2))

        /// One pixel on its own, its neighbours read back from the output (the
        /// corners of the wavefront).
        @inline(__always)
        func single(_ row: UnsafeRawPointer, _ above: UnsafeRawPointer, _ dst: UnsafeMutableRawPointer, _ k: Int) {
            let zero = SIMD4<Int16>.zero
            let a = k > 0 ? load16(UnsafeRawPointer(dst), (k &- 1) &<< 2) : zero
            let c = k > 0 ? load16(above, (k &- 1) &<< 2) : zero
            let value = PNG.PaethAbove.unfilter(pixel16(row, k, stride), left: a, above: load16(above, k &<< 2), upperLeft: c)
            store(SIMD4<UInt8>(truncatingIfNeeded: value) | fill, dst, k)
        }

        guard width >= 6 else {
            paethPairRGBA8(S.self, rows.0, rows.1, prior, out.0, out.1, width)
            paethPairRGBA8(S.self, rows.2, rows.3, above.2, out.2, out.3, width)
            return
        }
        // Row r's pixels before 6 − 2r, in order: each reads only pixels already stored.
        for k in 0..<6 {
            single(rows.0, above.0, out.0, k)
            if k >= 2 { single(rows.1, above.1, out.1, k &- 2) }
            if k >= 4 { single(rows.2, above.2, out.2, k &- 4) }
        }
        /// Lane group r holds row r's pixel k − 2r − `behind` (pixel −1 and −2 are 0).
        func lanes(_ behind: Int) -> SIMD16<UInt8> {
            @inline(__always)
            func pixel(_ row: UnsafeRawPointer, _ k: Int) -> SIMD4<UInt8> { k >= 0 ? load(row, k &<< 2) : .zero }
            return SIMD16(lowHalf: SIMD8(lowHalf: pixel(above.1, 6 &- behind), highHalf: pixel(above.2, 4 &- behind)),
                          highHalf: SIMD8(lowHalf: pixel(above.3, 2 &- behind), highHalf: pixel(UnsafeRawPointer(out.3), 0 &- behind)))
        }
        // Before step k: `left` = each row's pixel to the left of this step's (k − 1 − 2r),
        // `older` = the step before that's (k − 2 − 2r), `upperLeft` = the `up` of the step before.
        var left = lanes(1)
        var older = lanes(2)
        var upperLeft = unsafeBitCast(SIMD4<UInt32>(unsafeBitCast(load(prior, 20), to: UInt32.self), 0, 0, 0), to: SIMD16<UInt8>.self)
        // upperLeft's lane groups 1–3: rows 0–2 at pixel k − 1 − 2r − 2 (3, 1 and −1 for k = 6).
        let third = unsafeBitCast(lanes(3), to: SIMD4<UInt32>.self)
        upperLeft = unsafeBitCast(unsafeBitCast(upperLeft, to: SIMD4<UInt32>.self) | SIMD4<UInt32>(0, third[0], third[1], third[2]),
                                  to: SIMD16<UInt8>.self)
        let fills = SIMD16<UInt8>(lowHalf: SIMD8(lowHalf: fill, highHalf: fill), highHalf: SIMD8(lowHalf: fill, highHalf: fill))
        var k = 6
        while k < width {
            // Each row's `b` is the row above's output two steps ago, moved up one lane
            // group (row 0's from `prior`): ready before this step's chain starts.
            let previous = unsafeBitCast(older, to: SIMD4<UInt32>.self)
            let first = unsafeBitCast(load(prior, k &<< 2), to: UInt32.self)
            let up = unsafeBitCast(SIMD4<UInt32>(first, previous[0], previous[1], previous[2]), to: SIMD16<UInt8>.self)
            let x = SIMD16<UInt8>(lowHalf: SIMD8(lowHalf: pixel(rows.0, k, stride), highHalf: pixel(rows.1, k &- 2, stride)),
                                  highHalf: SIMD8(lowHalf: pixel(rows.2, k &- 4, stride), highHalf: pixel(rows.3, k &- 6, stride)))
            let next = x &+ paeth(left, up, upperLeft)
            let bytes = next | fills
            store(bytes.lowHalf.lowHalf, out.0, k)
            store(bytes.lowHalf.highHalf, out.1, k &- 2)
            store(bytes.highHalf.lowHalf, out.2, k &- 4)
            store(bytes.highHalf.highHalf, out.3, k &- 6)
            older = left
            left = next
            upperLeft = up
            k &+= 1
        }
        // Rows 1 to 3 finish the pixels their lag left, row by row.
        for k in (width &- 2)..<width { single(rows.1, above.1, out.1, k) }
        for k in (width &- 4)..<width { single(rows.2, above.2, out.2, k) }
        for k in (width &- 6)..<width { single(rows.3, above.3, out.3, k) }
    }

    /// The Paeth predictor (PNG §9.4) on bytes, without widening: `|b − c|` and
    /// `|a − c|` fit a byte, and `|a + b − 2c|` is their sum when `a − c` and
    /// `b − c` have the same sign, their difference otherwise. The sum is
    /// saturated at 255, which changes no comparison: it is then at least both
    /// of the others. Checked against the specification on all 2^24 triples
    /// when it was written; tests compare whole images.
    @_transparent  // `@inline(__always)` left it a call per step (see ``PNG/PaethAbove``)
    static func paeth(_ a: SIMD16<UInt8>, _ b: SIMD16<UInt8>, _ c: SIMD16<UInt8>) -> SIMD16<UInt8> {
        let pa = distance(b, c), pb = distance(a, c)
        let sum = pa &+ pb
        let saturated = sum.replacing(with: 255, where: sum .< pa)
        let sameSide = .!((a .>= c) .^ (b .>= c))
        let pc = distance(pa, pb).replacing(with: saturated, where: sameSide)
        let pickA = (pa .<= pb) .& (pa .<= pc)
        return c.replacing(with: b, where: pb .<= pc).replacing(with: a, where: pickA)
    }

    /// `|x − y|` per byte: the larger less the smaller.
    @_transparent
    static func distance(_ x: SIMD16<UInt8>, _ y: SIMD16<UInt8>) -> SIMD16<UInt8> {
        let below = x .< y
        return x.replacing(with: y, where: below) &- y.replacing(with: x, where: below)
    }
}
