extension PNG.Unfilter {
    /// Four consecutive Average rows (filter type 3, PNG §9.2) as a
    /// ``Wavefront``: each row's `b` is the row above's output of two steps
    /// back, so a step's chain is one mean and one add for four pixels.
    static func averageQuad<S: DirectSource>(_: S.Type, _ src: UnsafeRawPointer, _ srcStride: Int,
                                             _ prior: UnsafeRawPointer, _ dst: UnsafeMutableRawPointer,
                                             _ dstStride: Int, _ width: Int) {
        let rows = Wavefront<S>(src, srcStride, prior, dst, dstStride)
        let stride = S.stride
        let fill = alphaFill(stride)
        /// One pixel on its own, its neighbours read back from the output.
        func single(_ r: Int, _ k: Int) {
            let (source, output, above) = rows.row(r)
            let a = k > 0 ? load(UnsafeRawPointer(output), (k &- 1) &<< 2) : .zero
            store((pixel(source, k, stride) &+ mean(a, load(above, k &<< 2))) | fill, output, k)
        }
        rows.start(single)
        var left = rows.stored(behind: 1)
        var older = rows.stored(behind: 2)
        var k = 6
        while k < width {
            let next = rows.source(k) &+ mean16(left, rows.above(k, older: older))
            rows.store(k, next)
            older = left
            left = next
            k &+= 1
        }
        rows.finish(width, single)
    }

    /// floor((a + b) / 2) per byte lane, without widening.
    @inline(__always)
    private static func mean16(_ a: SIMD16<UInt8>, _ b: SIMD16<UInt8>) -> SIMD16<UInt8> {
        (a & b) &+ ((a ^ b) &>> 1)
    }
}
