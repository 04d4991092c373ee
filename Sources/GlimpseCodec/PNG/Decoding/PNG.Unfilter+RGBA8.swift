extension PNG.Unfilter {
    // 8-bit RGB and RGBA rows unfiltered (PNG §9) straight into RGBA8 output:
    // the filtered bytes are read where zlib inflated them, the row above is
    // read from the output (its RGBA8 bytes are the unfiltered samples, alpha
    // aside), and each pixel is written once, in its final place. This saves
    // the in-place unfilter's write and a second pass that copies (RGBA) or
    // expands (RGB) the row.
    //
    // One 4-lane vector per pixel. For RGB the vector's fourth lane holds a
    // byte of the next pixel (source) or the alpha of the row above (prior):
    // lanes never mix, so that lane only carries junk, replaced by 255 when
    // stored.
    //
    // The caller guarantees: `src` holds `width · channels` bytes plus one
    // readable byte after them (the 4-byte load of an RGB row's last pixel);
    // `prior`, `dst` (and `dst1`) hold `width · 4` bytes each; `dst` rows do
    // not overlap `src` rows.

    /// Whether two consecutive rows with this filter go through
    /// ``rgba8Pair(_:_:_:prior:_:_:width:channels:)``.
    static func canPairRGBA8(_ filter: UInt8) -> Bool {
        filter == 3 || filter == 4
    }

    /// Unfilters one row of `width` pixels of `channels` (3 or 4) bytes from
    /// `src` into `dst` as RGBA8.
    @inline(never)
    static func rgba8(_ filter: UInt8, _ src: UnsafePointer<UInt8>, prior: UnsafeRawPointer, _ dst: UnsafeMutableRawPointer,
                      width: Int, channels: Int) throws(DecodingError) {
        if channels == 4 {
            try rgba8Row(filter, UnsafeRawPointer(src), prior, dst, width, 4)
        } else {
            try rgba8Row(filter, UnsafeRawPointer(src), prior, dst, width, 3)
        }
    }

    /// Two consecutive rows with the same filter (3 or 4, see ``canPairRGBA8(_:)``):
    /// the second runs one pixel behind the first, taking its row above from
    /// the first's output in registers, so two dependency chains run side by side.
    @inline(never)
    static func rgba8Pair(_ filter: UInt8, _ src0: UnsafePointer<UInt8>, _ src1: UnsafePointer<UInt8>, prior: UnsafeRawPointer,
                          _ dst0: UnsafeMutableRawPointer, _ dst1: UnsafeMutableRawPointer, width: Int, channels: Int) {
        let s0 = UnsafeRawPointer(src0), s1 = UnsafeRawPointer(src1)
        switch (filter, channels) {
        case (3, 4): averagePairRGBA8(s0, s1, prior, dst0, dst1, width, 4)
        case (3, _): averagePairRGBA8(s0, s1, prior, dst0, dst1, width, 3)
        case (_, 4): paethPairRGBA8(s0, s1, prior, dst0, dst1, width, 4)
        default: paethPairRGBA8(s0, s1, prior, dst0, dst1, width, 3)
        }
    }

    /// Lane 3 forced to 255 for RGB sources, left alone for RGBA.
    @inline(__always)
    private static func alphaFill(_ channels: Int) -> SIMD4<UInt8> {
        SIMD4<UInt8>(0, 0, 0, channels == 3 ? 255 : 0)
    }

    @inline(__always)
    private static func load(_ raw: UnsafeRawPointer, _ offset: Int) -> SIMD4<UInt8> {
        raw.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt8>.self)
    }

    @inline(__always)
    private static func load16(_ raw: UnsafeRawPointer, _ offset: Int) -> SIMD4<Int16> {
        SIMD4<Int16>(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt8>.self))
    }

    @inline(__always)
    private static func store(_ value: SIMD4<UInt8>, _ raw: UnsafeMutableRawPointer, _ pixel: Int) {
        raw.storeBytes(of: value, toByteOffset: pixel &<< 2, as: SIMD4<UInt8>.self)
    }

    /// floor((a + b) / 2) per byte lane, without widening.
    @inline(__always)
    private static func mean(_ a: SIMD4<UInt8>, _ b: SIMD4<UInt8>) -> SIMD4<UInt8> {
        (a & b) &+ ((a ^ b) &>> 1)
    }

    // In every loop below pixel k < width: source bytes k·channels ..< k·channels + 4
    // (one past the pixel for RGB, which the caller provides), prior and output bytes
    // 4k ..< 4k + 4.

    @inline(__always)
    private static func rgba8Row(_ filter: UInt8, _ src: UnsafeRawPointer, _ prior: UnsafeRawPointer,
                                 _ dst: UnsafeMutableRawPointer, _ width: Int, _ channels: Int) throws(DecodingError) {
        let fill = alphaFill(channels)
        switch filter {
        case 0:
            if channels == 4 {
                dst.copyMemory(from: src, byteCount: width &<< 2)
            } else {
                for k in 0..<width { store(load(src, k &* channels) | fill, dst, k) }
            }
        case 1:
            var a = SIMD4<UInt8>(repeating: 0)
            for k in 0..<width {
                a = load(src, k &* channels) &+ a
                store(a | fill, dst, k)
            }
        case 2:
            for k in 0..<width { store((load(src, k &* channels) &+ load(prior, k &<< 2)) | fill, dst, k) }
        case 3:
            var a = SIMD4<UInt8>(repeating: 0)
            for k in 0..<width {
                a = load(src, k &* channels) &+ mean(a, load(prior, k &<< 2))
                store(a | fill, dst, k)
            }
        case 4:
            var a = SIMD4<Int16>(repeating: 0), c = a
            for k in 0..<width {
                let b = load16(prior, k &<< 2)
                a = (load16(src, k &* channels) &+ simdPaeth(a, b, c)) & 0xFF
                store(SIMD4<UInt8>(truncatingIfNeeded: a) | fill, dst, k)
                c = b
            }
        default:
            throw .malformed("filter type \(filter)")
        }
    }

    @inline(__always)
    private static func averagePairRGBA8(_ src0: UnsafeRawPointer, _ src1: UnsafeRawPointer, _ prior: UnsafeRawPointer,
                                         _ dst0: UnsafeMutableRawPointer, _ dst1: UnsafeMutableRawPointer,
                                         _ width: Int, _ channels: Int) {
        guard width > 0 else { return }
        let fill = alphaFill(channels)
        // Row 0 at pixel k, row 1 at pixel k − 1: b1 is row 0's pixel k − 1 (a0).
        var a0 = load(src0, 0) &+ mean(.zero, load(prior, 0))
        store(a0 | fill, dst0, 0)
        var a1 = SIMD4<UInt8>.zero
        var k = 1
        while k < width {
            let n0 = load(src0, k &* channels) &+ mean(a0, load(prior, k &<< 2))
            let n1 = load(src1, (k &- 1) &* channels) &+ mean(a1, a0)
            store(n0 | fill, dst0, k)
            store(n1 | fill, dst1, k &- 1)
            a0 = n0
            a1 = n1
            k &+= 1
        }
        store((load(src1, (width &- 1) &* channels) &+ mean(a1, a0)) | fill, dst1, width &- 1)
    }

    @inline(__always)
    private static func paethPairRGBA8(_ src0: UnsafeRawPointer, _ src1: UnsafeRawPointer, _ prior: UnsafeRawPointer,
                                       _ dst0: UnsafeMutableRawPointer, _ dst1: UnsafeMutableRawPointer,
                                       _ width: Int, _ channels: Int) {
        guard width > 0 else { return }
        let fill = alphaFill(channels)
        let zero = SIMD4<Int16>.zero
        // Pixel 0 has no left neighbour: a = c = 0 makes the predictor b.
        var c0 = load16(prior, 0)
        var a0 = (load16(src0, 0) &+ simdPaeth(zero, c0, zero)) & 0xFF
        store(SIMD4<UInt8>(truncatingIfNeeded: a0) | fill, dst0, 0)
        // Row 1 at pixel j = k − 1: a1 = its pixel j − 1, b1 = row 0's pixel j (a0), c1 = row 0's pixel j − 1.
        var a1 = zero, c1 = zero
        var k = 1
        while k < width {
            let b0 = load16(prior, k &<< 2)
            let b1 = a0
            let n0 = (load16(src0, k &* channels) &+ simdPaeth(a0, b0, c0)) & 0xFF
            let n1 = (load16(src1, (k &- 1) &* channels) &+ simdPaeth(a1, b1, c1)) & 0xFF
            store(SIMD4<UInt8>(truncatingIfNeeded: n0) | fill, dst0, k)
            store(SIMD4<UInt8>(truncatingIfNeeded: n1) | fill, dst1, k &- 1)
            a0 = n0
            c0 = b0
            a1 = n1
            c1 = b1
            k &+= 1
        }
        let last = (load16(src1, (width &- 1) &* channels) &+ simdPaeth(a1, a0, c1)) & 0xFF
        store(SIMD4<UInt8>(truncatingIfNeeded: last) | fill, dst1, width &- 1)
    }
}
