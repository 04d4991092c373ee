extension PNG.Unfilter {
    // Whole-pixel unfiltering for 3, 4, 6 and 8 bytes per pixel: one vector per
    // pixel, the lanes past `bpp` masked to zero and not stored (a store that
    // overlapped the next pixel's load would stall store-to-load forwarding).
    // The loops stop while a full vector still fits in the row; the last pixel,
    // when narrower than the vector, goes through the byte loops, which continue
    // correctly from already unfiltered bytes. Sub and Average stay in 8-bit
    // lanes (floor((a + b) / 2) = (a & b) + ((a ^ b) >> 1)); Paeth needs 16.

    /// Unfilters whole pixels with filter 1, 3 or 4; returns the offset where
    /// the byte loop must take over.
    @inline(never)
    static func pixels(_ filter: UInt8, _ row: UnsafeMutablePointer<UInt8>, _ prior: UnsafePointer<UInt8>,
                       _ count: Int, _ bpp: Int) -> Int {
        switch (filter, bpp) {
        case (1, 3): return 0  // a one-instruction byte chain: the byte loop is as fast
        case (1, 4): return sub4(row, count, 4)
        case (1, 6): return sub8(row, count, 6)
        case (1, 8): return sub8(row, count, 8)
        case (3, 3): return 0  // three interleaved byte chains beat one vector chain here
        case (3, 4): return average4(row, prior, count, 4)
        case (3, 6): return 0
        case (3, 8): return average8(row, prior, count, 8)
        case (4, 3): return paeth3(row, prior, count)
        case (4, 4): return paeth4(row, prior, count, 4)
        case (4, 6): return paeth8(row, prior, count, 6)
        case (4, 8): return paeth8(row, prior, count, 8)
        default: return 0
        }
    }

    @inline(__always)
    private static func store4(_ value: SIMD4<UInt8>, _ raw: UnsafeMutableRawPointer, _ i: Int, _ bpp: Int) {
        let bytes = unsafeBitCast(value, to: UInt32.self)
        if bpp == 4 {
            raw.storeBytes(of: bytes, toByteOffset: i, as: UInt32.self)
        } else {
            raw.storeBytes(of: UInt16(truncatingIfNeeded: bytes), toByteOffset: i, as: UInt16.self)
            raw.storeBytes(of: UInt8(truncatingIfNeeded: bytes >> 16), toByteOffset: i &+ 2, as: UInt8.self)
        }
    }

    @inline(__always)
    private static func store8(_ value: SIMD8<UInt8>, _ raw: UnsafeMutableRawPointer, _ i: Int, _ bpp: Int) {
        let bytes = unsafeBitCast(value, to: UInt64.self)
        if bpp == 8 {
            raw.storeBytes(of: bytes, toByteOffset: i, as: UInt64.self)
        } else {
            raw.storeBytes(of: UInt32(truncatingIfNeeded: bytes), toByteOffset: i, as: UInt32.self)
            raw.storeBytes(of: UInt16(truncatingIfNeeded: bytes >> 32), toByteOffset: i &+ 4, as: UInt16.self)
        }
    }

    // In every loop below `i + 4 <= count` (or `+ 8`) keeps each load and store inside the row.

    @inline(__always)
    private static func sub4(_ row: UnsafeMutablePointer<UInt8>, _ count: Int, _ bpp: Int) -> Int {
        let raw = UnsafeMutableRawPointer(row)
        let mask = SIMD4<UInt8>(0xFF, 0xFF, 0xFF, bpp == 4 ? 0xFF : 0)
        var a = SIMD4<UInt8>(repeating: 0)
        var i = 0
        while i &+ 4 <= count {
            a = (raw.loadUnaligned(fromByteOffset: i, as: SIMD4<UInt8>.self) &+ a) & mask
            store4(a, raw, i, bpp)
            i &+= bpp
        }
        return i
    }

    @inline(__always)
    private static func sub8(_ row: UnsafeMutablePointer<UInt8>, _ count: Int, _ bpp: Int) -> Int {
        let raw = UnsafeMutableRawPointer(row)
        let last: UInt8 = bpp == 8 ? 0xFF : 0
        let mask = SIMD8<UInt8>(0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, last, last)
        var a = SIMD8<UInt8>(repeating: 0)
        var i = 0
        while i &+ 8 <= count {
            a = (raw.loadUnaligned(fromByteOffset: i, as: SIMD8<UInt8>.self) &+ a) & mask
            store8(a, raw, i, bpp)
            i &+= bpp
        }
        return i
    }

    @inline(__always)
    private static func average4(_ row: UnsafeMutablePointer<UInt8>, _ prior: UnsafePointer<UInt8>, _ count: Int, _ bpp: Int) -> Int {
        let raw = UnsafeMutableRawPointer(row)
        let up = UnsafeRawPointer(prior)
        let mask = SIMD4<UInt8>(0xFF, 0xFF, 0xFF, bpp == 4 ? 0xFF : 0)
        var a = SIMD4<UInt8>(repeating: 0)
        var i = 0
        while i &+ 4 <= count {
            let b = up.loadUnaligned(fromByteOffset: i, as: SIMD4<UInt8>.self)
            let x = raw.loadUnaligned(fromByteOffset: i, as: SIMD4<UInt8>.self)
            a = (x &+ (a & b) &+ ((a ^ b) &>> 1)) & mask
            store4(a, raw, i, bpp)
            i &+= bpp
        }
        return i
    }

    @inline(__always)
    private static func average8(_ row: UnsafeMutablePointer<UInt8>, _ prior: UnsafePointer<UInt8>, _ count: Int, _ bpp: Int) -> Int {
        let raw = UnsafeMutableRawPointer(row)
        let up = UnsafeRawPointer(prior)
        let last: UInt8 = bpp == 8 ? 0xFF : 0
        let mask = SIMD8<UInt8>(0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, last, last)
        var a = SIMD8<UInt8>(repeating: 0)
        var i = 0
        while i &+ 8 <= count {
            let b = up.loadUnaligned(fromByteOffset: i, as: SIMD8<UInt8>.self)
            let x = raw.loadUnaligned(fromByteOffset: i, as: SIMD8<UInt8>.self)
            a = (x &+ (a & b) &+ ((a ^ b) &>> 1)) & mask
            store8(a, raw, i, bpp)
            i &+= bpp
        }
        return i
    }

    @inline(__always)
    private static func paeth4(_ row: UnsafeMutablePointer<UInt8>, _ prior: UnsafePointer<UInt8>, _ count: Int, _ bpp: Int) -> Int {
        let raw = UnsafeMutableRawPointer(row)
        let up = UnsafeRawPointer(prior)
        let mask = SIMD4<Int16>(0xFF, 0xFF, 0xFF, bpp == 4 ? 0xFF : 0)
        var a = SIMD4<Int16>(repeating: 0)
        var c = SIMD4<Int16>(repeating: 0)
        var i = 0
        while i &+ 4 <= count {
            let x = SIMD4<Int16>(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: i, as: SIMD4<UInt8>.self))
            let b = SIMD4<Int16>(truncatingIfNeeded: up.loadUnaligned(fromByteOffset: i, as: SIMD4<UInt8>.self)) & mask
            a = (x &+ simdPaeth(a, b, c)) & mask
            store4(SIMD4<UInt8>(truncatingIfNeeded: a), raw, i, bpp)
            c = b
            i &+= bpp
        }
        return i
    }

    @inline(__always)
    private static func paeth8(_ row: UnsafeMutablePointer<UInt8>, _ prior: UnsafePointer<UInt8>, _ count: Int, _ bpp: Int) -> Int {
        let raw = UnsafeMutableRawPointer(row)
        let up = UnsafeRawPointer(prior)
        let last: Int16 = bpp == 8 ? 0xFF : 0
        let mask = SIMD8<Int16>(0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, last, last)
        var a = SIMD8<Int16>(repeating: 0)
        var c = SIMD8<Int16>(repeating: 0)
        var i = 0
        while i &+ 8 <= count {
            let x = SIMD8<Int16>(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: i, as: SIMD8<UInt8>.self))
            let b = SIMD8<Int16>(truncatingIfNeeded: up.loadUnaligned(fromByteOffset: i, as: SIMD8<UInt8>.self)) & mask
            a = (x &+ simdPaeth(a, b, c)) & mask
            store8(SIMD8<UInt8>(truncatingIfNeeded: a), raw, i, bpp)
            c = b
            i &+= bpp
        }
        return i
    }

    /// Paeth for RGB8: the vector does the arithmetic, bytes move one by one
    /// (measured faster than 4-byte loads and split stores for this width).
    @inline(__always)
    private static func paeth3(_ row: UnsafeMutablePointer<UInt8>, _ prior: UnsafePointer<UInt8>, _ count: Int) -> Int {
        var a = SIMD4<Int16>(repeating: 0)
        var c = SIMD4<Int16>(repeating: 0)
        var i = 0
        // `i + 3 <= count`: the three bytes of the pixel lie inside the row.
        while i &+ 3 <= count {
            let b = SIMD4<Int16>(Int16(prior[i]), Int16(prior[i &+ 1]), Int16(prior[i &+ 2]), 0)
            let x = SIMD4<Int16>(Int16(row[i]), Int16(row[i &+ 1]), Int16(row[i &+ 2]), 0)
            a = (x &+ simdPaeth(a, b, c)) & 0xFF
            c = b
            row[i] = UInt8(truncatingIfNeeded: a[0])
            row[i &+ 1] = UInt8(truncatingIfNeeded: a[1])
            row[i &+ 2] = UInt8(truncatingIfNeeded: a[2])
            i &+= 3
        }
        return i
    }
}
