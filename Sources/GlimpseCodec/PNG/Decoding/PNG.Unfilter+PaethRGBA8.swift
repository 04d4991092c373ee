extension PNG.Unfilter {
    // Paeth rows (PNG §9.4) unfiltered straight into RGBA8, several rows at a
    // time. Paeth is one dependency chain per row: each pixel waits for its
    // left neighbour's output. Rows are independent chains once the row above
    // is a pixel or two ahead, so consecutive Paeth rows run as a wavefront:
    // four rows in one 16-byte vector (`paethQuad`, through
    // ``rgba8Quad(_:_:srcStride:prior:_:dstStride:width:stride:)``), or two
    // rows in one 8-lane vector (`PaethPair`). The layout rules are those of
    // ``rgba8(_:_:prior:_:width:stride:)``.

    static func paethPairRGBA8<S: DirectSource>(_: S.Type, _ src0: UnsafeRawPointer, _ src1: UnsafeRawPointer,
                                                _ prior: UnsafeRawPointer, _ dst0: UnsafeMutableRawPointer,
                                                _ dst1: UnsafeMutableRawPointer, _ width: Int) {
        guard width > 1 else {
            guard width == 1 else { return }
            let fill = alphaFill(S.stride)
            let zero = SIMD4<Int16>.zero
            let first = PNG.PaethAbove.unfilter(pixel16(src0, 0, S.stride), left: zero, above: load16(prior, 0), upperLeft: zero)
            store(SIMD4<UInt8>(truncatingIfNeeded: first) | fill, dst0, 0)
            let second = PNG.PaethAbove.unfilter(pixel16(src1, 0, S.stride), left: zero, above: first, upperLeft: zero)
            store(SIMD4<UInt8>(truncatingIfNeeded: second) | fill, dst1, 0)
            return
        }
        var pair = PaethPair<S>(src0, src1, prior, dst0, dst1)
        var k = 2
        while k < width {
            pair.step(k)
            k &+= 1
        }
        pair.finish(width)
    }

    /// Four consecutive Paeth rows as a ``Wavefront``: each row's `b` is the
    /// row above's output of two steps back, its `c` that of three, so only
    /// the left neighbour `a` is on the chain. The predictor works on the
    /// bytes themselves (``paeth(_:_:_:)``). (One pixel behind, `b` came from
    /// the step just finished and the chain was longer: 4.2 against 3.9 ms of
    /// Paeth on a 1080 × 1920 image stored without compression.)
    static func paethQuad<S: DirectSource>(_: S.Type, _ src: UnsafeRawPointer, _ srcStride: Int, _ prior: UnsafeRawPointer,
                                           _ dst: UnsafeMutableRawPointer, _ dstStride: Int, _ width: Int) {
        let rows = Wavefront<S>(src, srcStride, prior, dst, dstStride)
        let stride = S.stride
        let fill = alphaFill(stride)
        /// One pixel on its own, its neighbours read back from the output.
        func single(_ r: Int, _ k: Int) {
            let (source, output, above) = rows.row(r)
            let zero = SIMD4<Int16>.zero
            let a = k > 0 ? load16(UnsafeRawPointer(output), (k &- 1) &<< 2) : zero
            let c = k > 0 ? load16(above, (k &- 1) &<< 2) : zero
            let value = PNG.PaethAbove.unfilter(pixel16(source, k, stride), left: a, above: load16(above, k &<< 2), upperLeft: c)
            store(SIMD4<UInt8>(truncatingIfNeeded: value) | fill, output, k)
        }
        rows.start(single)
        var left = rows.stored(behind: 1)
        var older = rows.stored(behind: 2)
        // The `b` of step 5, as ``Wavefront/above(_:older:)`` would have made it.
        var upperLeft = rows.above(5, older: rows.stored(behind: 3))
        var k = 6
        while k < width {
            let up = rows.above(k, older: older)
            let next = rows.source(k) &+ paeth(left, up, upperLeft)
            rows.store(k, next)
            older = left
            left = next
            upperLeft = up
            k &+= 1
        }
        rows.finish(width, single)
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
