extension PNG.Unfilter {
    // RGB and RGBA rows, 8- or 16-bit, unfiltered (PNG §9) straight into
    // RGBA8 output: the filtered bytes are read where zlib inflated them, the
    // row above is read from the output (its RGBA8 bytes are the unfiltered
    // samples, alpha aside), and each pixel is written once, in its final
    // place. This saves the in-place unfilter's write and a second pass that
    // copies or expands the row.
    //
    // Filters work byte by byte, each byte against the same byte of the pixel
    // to the left and above, so the high bytes of 16-bit samples unfilter on
    // their own; RGBA8 output keeps only those (libpng's `png_set_strip_16`),
    // and the low bytes are never touched.
    //
    // One 4-lane vector per pixel (`stride` source bytes: 3 = RGB8, 4 = RGBA8,
    // 6 = RGB16, 8 = RGBA16). Without alpha the vector's fourth lane holds a
    // byte of the next pixel (source) or the alpha of the row above (prior):
    // lanes never mix, so that lane only carries junk, replaced by 255 when
    // stored.
    //
    // The caller guarantees: `src` holds `width · stride` bytes plus two
    // readable bytes after them (a row's last pixel is loaded as 4 or 8
    // bytes); `prior`, `dst` (and `dst1`) hold `width · 4` bytes each; `dst`
    // rows do not overlap `src` rows.

    /// Whether two consecutive rows with this filter go through
    /// ``rgba8Pair(_:_:_:prior:_:_:width:stride:)``.
    static func canPairRGBA8(_ filter: UInt8) -> Bool {
        filter == 3 || filter == 4
    }

    /// Unfilters one row of `width` pixels of `stride` (3, 4, 6 or 8) bytes
    /// from `src` into `dst` as RGBA8.
    @inline(never)
    static func rgba8(_ filter: UInt8, _ src: UnsafePointer<UInt8>, prior: UnsafeRawPointer, _ dst: UnsafeMutableRawPointer,
                      width: Int, stride: Int) throws(ImageDecodingError) {
        let s = UnsafeRawPointer(src)
        switch stride {
        case 3: try rgba8Row(RGB8.self, filter, s, prior, dst, width)
        case 4: try rgba8Row(RGBA8.self, filter, s, prior, dst, width)
        case 6: try rgba8Row(RGB16.self, filter, s, prior, dst, width)
        default: try rgba8Row(RGBA16.self, filter, s, prior, dst, width)
        }
    }

    /// Two consecutive rows with the same filter (3 or 4, see ``canPairRGBA8(_:)``):
    /// the second runs one pixel behind the first, taking its row above from
    /// the first's output in registers, so two dependency chains run side by side.
    @inline(never)
    static func rgba8Pair(_ filter: UInt8, _ src0: UnsafePointer<UInt8>, _ src1: UnsafePointer<UInt8>, prior: UnsafeRawPointer,
                          _ dst0: UnsafeMutableRawPointer, _ dst1: UnsafeMutableRawPointer, width: Int, stride: Int) {
        let s0 = UnsafeRawPointer(src0), s1 = UnsafeRawPointer(src1)
        switch (filter, stride) {
        case (3, 3): averagePairRGBA8(RGB8.self, s0, s1, prior, dst0, dst1, width)
        case (3, 4): averagePairRGBA8(RGBA8.self, s0, s1, prior, dst0, dst1, width)
        case (3, 6): averagePairRGBA8(RGB16.self, s0, s1, prior, dst0, dst1, width)
        case (3, _): averagePairRGBA8(RGBA16.self, s0, s1, prior, dst0, dst1, width)
        case (_, 3): paethPairRGBA8(RGB8.self, s0, s1, prior, dst0, dst1, width)
        case (_, 4): paethPairRGBA8(RGBA8.self, s0, s1, prior, dst0, dst1, width)
        case (_, 6): paethPairRGBA8(RGB16.self, s0, s1, prior, dst0, dst1, width)
        default: paethPairRGBA8(RGBA16.self, s0, s1, prior, dst0, dst1, width)
        }
    }

    /// Four consecutive rows with the same filter (3 or 4, see ``canPairRGBA8(_:)``)
    /// as a ``Wavefront``. `src` is row 0's first sample, rows `srcStride` bytes
    /// apart; `dst` is row 0's output, rows `dstStride` bytes apart. Returns
    /// `false`, having done nothing, for rows narrower than ``quadMinimumWidth``:
    /// the caller unfilters them in pairs instead.
    @inline(never)
    static func rgba8Quad(_ filter: UInt8, _ src: UnsafePointer<UInt8>, srcStride: Int, prior: UnsafeRawPointer,
                          _ dst: UnsafeMutableRawPointer, dstStride: Int, width: Int, stride: Int) -> Bool {
        guard width >= quadMinimumWidth else { return false }
        let s = UnsafeRawPointer(src)
        switch (filter, stride) {
        case (3, 3): averageQuad(RGB8.self, s, srcStride, prior, dst, dstStride, width)
        case (3, 4): averageQuad(RGBA8.self, s, srcStride, prior, dst, dstStride, width)
        case (3, 6): averageQuad(RGB16.self, s, srcStride, prior, dst, dstStride, width)
        case (3, _): averageQuad(RGBA16.self, s, srcStride, prior, dst, dstStride, width)
        case (_, 3): paethQuad(RGB8.self, s, srcStride, prior, dst, dstStride, width)
        case (_, 4): paethQuad(RGBA8.self, s, srcStride, prior, dst, dstStride, width)
        case (_, 6): paethQuad(RGB16.self, s, srcStride, prior, dst, dstStride, width)
        default: paethQuad(RGBA16.self, s, srcStride, prior, dst, dstStride, width)
        }
        return true
    }

    /// A source pixel layout. The row loops are generic over it so that each
    /// layout gets its own copy with the stride as a constant (a plain stride
    /// argument was folded into one shared, slower copy).
    protocol DirectSource {
        static var stride: Int { get }
    }

    enum RGB8: DirectSource { static var stride: Int { 3 } }
    enum RGBA8: DirectSource { static var stride: Int { 4 } }
    enum RGB16: DirectSource { static var stride: Int { 6 } }
    enum RGBA16: DirectSource { static var stride: Int { 8 } }

    /// Lane 3 forced to 255 for RGB sources, left alone for RGBA.
    @inline(__always)
    static func alphaFill(_ stride: Int) -> SIMD4<UInt8> {
        SIMD4<UInt8>(0, 0, 0, stride == 3 || stride == 6 ? 255 : 0)
    }

    /// Prior (output) pixels: 4 bytes at `offset`.
    @inline(__always)
    static func load(_ raw: UnsafeRawPointer, _ offset: Int) -> SIMD4<UInt8> {
        raw.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt8>.self)
    }

    @inline(__always)
    static func load16(_ raw: UnsafeRawPointer, _ offset: Int) -> SIMD4<Int16> {
        SIMD4<Int16>(truncatingIfNeeded: load(raw, offset))
    }

    /// Source pixel `k`: its four bytes (8-bit samples) or the high bytes of
    /// its four 16-bit big-endian samples, each sample's first byte.
    @inline(__always)
    static func pixel(_ raw: UnsafeRawPointer, _ k: Int, _ stride: Int) -> SIMD4<UInt8> {
        guard stride >= 6 else { return load(raw, k &* stride) }
        let samples = raw.loadUnaligned(fromByteOffset: k &* stride, as: SIMD4<UInt16>.self)
        #if _endian(little)
        return SIMD4<UInt8>(truncatingIfNeeded: samples)
        #else
        return SIMD4<UInt8>(truncatingIfNeeded: samples &>> 8)
        #endif
    }

    @inline(__always)
    static func pixel16(_ raw: UnsafeRawPointer, _ k: Int, _ stride: Int) -> SIMD4<Int16> {
        SIMD4<Int16>(truncatingIfNeeded: pixel(raw, k, stride))
    }

    @inline(__always)
    static func store(_ value: SIMD4<UInt8>, _ raw: UnsafeMutableRawPointer, _ pixel: Int) {
        raw.storeBytes(of: value, toByteOffset: pixel &<< 2, as: SIMD4<UInt8>.self)
    }

    /// floor((a + b) / 2) per byte lane, without widening.
    @inline(__always)
    static func mean(_ a: SIMD4<UInt8>, _ b: SIMD4<UInt8>) -> SIMD4<UInt8> {
        (a & b) &+ ((a ^ b) &>> 1)
    }

    // In every loop below pixel k < width: source bytes k·stride ..< k·stride + 4 (or + 8;
    // up to two past the pixel without alpha, which the caller provides), prior and
    // output bytes 4k ..< 4k + 4.

    private static func rgba8Row<S: DirectSource>(_: S.Type, _ filter: UInt8, _ src: UnsafeRawPointer, _ prior: UnsafeRawPointer,
                                                  _ dst: UnsafeMutableRawPointer, _ width: Int) throws(ImageDecodingError) {
        let stride = S.stride
        let fill = alphaFill(stride)
        switch filter {
        case 0:
            if stride == 4 {
                dst.copyMemory(from: src, byteCount: width &<< 2)
            } else {
                for k in 0..<width { store(pixel(src, k, stride) | fill, dst, k) }
            }
        case 1:
            var a = SIMD4<UInt8>(repeating: 0)
            var k = 0
            if stride == 4 {
                k = subRGBA8(src, dst, width, &a)
            }
            while k < width {
                a = pixel(src, k, stride) &+ a
                store(a | fill, dst, k)
                k &+= 1
            }
        case 2:
            var k = 0
            if stride == 4 {
                // Up on RGBA8 is bytewise with no chain: 4 pixels per vector.
                // Pixels k ..< k + 4 lie inside the row: k + 4 <= width.
                while k &+ 4 <= width {
                    let x = src.loadUnaligned(fromByteOffset: k &<< 2, as: SIMD16<UInt8>.self)
                    let b = prior.loadUnaligned(fromByteOffset: k &<< 2, as: SIMD16<UInt8>.self)
                    dst.storeBytes(of: x &+ b, toByteOffset: k &<< 2, as: SIMD16<UInt8>.self)
                    k &+= 4
                }
            }
            while k < width {
                store((pixel(src, k, stride) &+ load(prior, k &<< 2)) | fill, dst, k)
                k &+= 1
            }
        case 3:
            // RGB: three scalar chains beat one vector chain (see `averageRowScalar`);
            // RGBA's fourth chain tips the balance back (rgb: 17.0 -> 12.7 ms, rgba:
            // 4.2 -> 4.5 ms on stored images alternating Average and Sub rows).
            if stride == 3 || stride == 6 {
                averageRowScalar(S.self, src, prior, dst, width)
            } else {
                var a = SIMD4<UInt8>(repeating: 0)
                for k in 0..<width {
                    a = pixel(src, k, stride) &+ mean(a, load(prior, k &<< 2))
                    store(a | fill, dst, k)
                }
            }
        case 4:
            var a = SIMD4<Int16>(repeating: 0), c = a
            for k in 0..<width {
                let b = load16(prior, k &<< 2)
                a = PNG.PaethAbove.unfilter(pixel16(src, k, stride), left: a, above: b, upperLeft: c)
                store(SIMD4<UInt8>(truncatingIfNeeded: a) | fill, dst, k)
                c = b
            }
        default:
            throw .malformed(.png(.filterType(filter)))
        }
    }

    /// Sub on RGBA8, 4 pixels per vector: a prefix sum inside the vector
    /// (pixel 1 += pixel 0, 3 += 2, then 2 and 3 += 1) plus the running sum of
    /// the pixels before, broadcast. That running sum grows by the vector's own
    /// last prefix pixel, which does not wait for it, so the chain from one
    /// vector to the next is a single add. Returns the first pixel not done
    /// and leaves its left neighbour in `a`.
    @inline(__always)
    private static func subRGBA8(_ src: UnsafeRawPointer, _ dst: UnsafeMutableRawPointer, _ width: Int,
                                 _ a: inout SIMD4<UInt8>) -> Int {
        var carry = SIMD16<UInt8>(repeating: 0)
        var k = 0
        // Pixels k ..< k + 4 lie inside the row: k + 4 <= width.
        while k &+ 4 <= width {
            var v = src.loadUnaligned(fromByteOffset: k &<< 2, as: SIMD16<UInt8>.self)
            // Each 64-bit half moved up by one pixel: the first pixel of the half lands on the second.
            #if _endian(little)
            let pairs = unsafeBitCast(v, to: SIMD2<UInt64>.self) &<< 32
            #else
            let pairs = unsafeBitCast(v, to: SIMD2<UInt64>.self) &>> 32
            #endif
            v &+= unsafeBitCast(pairs, to: SIMD16<UInt8>.self)
            let halves = unsafeBitCast(v, to: SIMD4<UInt32>.self)
            v &+= unsafeBitCast(SIMD4<UInt32>(0, 0, halves[1], halves[1]), to: SIMD16<UInt8>.self)
            dst.storeBytes(of: v &+ carry, toByteOffset: k &<< 2, as: SIMD16<UInt8>.self)
            carry &+= unsafeBitCast(SIMD4<UInt32>(repeating: unsafeBitCast(v, to: SIMD4<UInt32>.self)[3]), to: SIMD16<UInt8>.self)
            k &+= 4
        }
        a = SIMD4<UInt8>(carry[0], carry[1], carry[2], carry[3])
        return k
    }

    static func averagePairRGBA8<S: DirectSource>(_: S.Type, _ src0: UnsafeRawPointer, _ src1: UnsafeRawPointer,
                                                  _ prior: UnsafeRawPointer, _ dst0: UnsafeMutableRawPointer,
                                                  _ dst1: UnsafeMutableRawPointer, _ width: Int) {
        guard width > 0 else { return }
        let stride = S.stride
        let fill = alphaFill(stride)
        // Row 0 at pixel k, row 1 at pixel k − 1: b1 is row 0's pixel k − 1 (a0).
        var a0 = pixel(src0, 0, stride) &+ mean(.zero, load(prior, 0))
        store(a0 | fill, dst0, 0)
        var a1 = SIMD4<UInt8>.zero
        var k = 1
        while k < width {
            let n0 = pixel(src0, k, stride) &+ mean(a0, load(prior, k &<< 2))
            let n1 = pixel(src1, (k &- 1), stride) &+ mean(a1, a0)
            store(n0 | fill, dst0, k)
            store(n1 | fill, dst1, k &- 1)
            a0 = n0
            a1 = n1
            k &+= 1
        }
        store((pixel(src1, (width &- 1), stride) &+ mean(a1, a0)) | fill, dst1, width &- 1)
    }
}
