extension PNG.Unfilter {
    // A lone Average row (no neighbour with the same filter to run beside it,
    // as when input arrives a row at a time) is one dependency chain from pixel
    // to pixel. Here each sample is its own chain in a general register: short
    // chains side by side, of one-cycle scalar operations, where the vector form
    // is one chain of slower vector operations (measured on this project's x86
    // machine: a dependent vector operation takes twice as long as a scalar
    // one). Paeth has too many operations per sample for this to pay (a lone
    // Paeth row measured 1.4x slower in scalar form). Layout rules as in
    // ``rgba8(_:_:prior:_:width:stride:)``.

    /// The byte of sample `channel` of pixel `k`: its only byte, or the high
    /// byte of a big-endian 16-bit sample.
    @inline(__always)
    private static func sample<S: DirectSource>(_: S.Type, _ src: UnsafeRawPointer, _ k: Int, _ channel: Int) -> Int32 {
        let wide = S.stride >= 6
        return Int32(src.load(fromByteOffset: k &* S.stride &+ (wide ? channel &<< 1 : channel), as: UInt8.self))
    }

    @inline(__always)
    private static func storePixel(_ dst: UnsafeMutableRawPointer, _ k: Int, _ r: Int32, _ g: Int32, _ b: Int32, _ a: Int32) {
        let offset = k &<< 2
        dst.storeBytes(of: UInt8(truncatingIfNeeded: r), toByteOffset: offset, as: UInt8.self)
        dst.storeBytes(of: UInt8(truncatingIfNeeded: g), toByteOffset: offset &+ 1, as: UInt8.self)
        dst.storeBytes(of: UInt8(truncatingIfNeeded: b), toByteOffset: offset &+ 2, as: UInt8.self)
        dst.storeBytes(of: UInt8(truncatingIfNeeded: a), toByteOffset: offset &+ 3, as: UInt8.self)
    }

    @inline(__always)
    private static func above(_ prior: UnsafeRawPointer, _ k: Int, _ channel: Int) -> Int32 {
        Int32(prior.load(fromByteOffset: (k &<< 2) &+ channel, as: UInt8.self))
    }

    /// One Average row (filter type 3).
    static func averageRowScalar<S: DirectSource>(_: S.Type, _ src: UnsafeRawPointer, _ prior: UnsafeRawPointer,
                                                  _ dst: UnsafeMutableRawPointer, _ width: Int) {
        let alpha = S.stride == 4 || S.stride == 8
        var r: Int32 = 0, g: Int32 = 0, b: Int32 = 0, a: Int32 = 0
        for k in 0..<width {
            r = (sample(S.self, src, k, 0) &+ ((r &+ above(prior, k, 0)) &>> 1)) & 0xFF
            g = (sample(S.self, src, k, 1) &+ ((g &+ above(prior, k, 1)) &>> 1)) & 0xFF
            b = (sample(S.self, src, k, 2) &+ ((b &+ above(prior, k, 2)) &>> 1)) & 0xFF
            a = alpha ? (sample(S.self, src, k, 3) &+ ((a &+ above(prior, k, 3)) &>> 1)) & 0xFF : 255
            storePixel(dst, k, r, g, b, a)
        }
    }
}
