extension PNG.Unfilter {
    // Whole-pixel unfiltering for 3, 4, 6 and 8 bytes per pixel: one vector per
    // pixel, the lanes past `bpp` masked to zero so that they leave the bytes of
    // the next pixel as they are (they are stored back unchanged). The loops
    // stop while a full vector still fits in the row; the last pixel, when
    // narrower than the vector, goes through the byte loops, which continue
    // correctly from already unfiltered bytes.

    /// Sub, Average or Paeth over whole pixels with 4-lane vectors (bpp 3 or 4);
    /// returns the offset where the byte loop must take over.
    @inline(__always)
    static func pixels4(_ filter: UInt8, _ row: UnsafeMutablePointer<UInt8>, _ prior: UnsafePointer<UInt8>,
                        _ count: Int, _ bpp: Int) -> Int {
        let raw = UnsafeMutableRawPointer(row)
        let up = UnsafeRawPointer(prior)
        let mask = SIMD4<Int16>(0xFF, 0xFF, 0xFF, bpp == 4 ? 0xFF : 0)
        var a = SIMD4<Int16>(repeating: 0)
        var c = SIMD4<Int16>(repeating: 0)
        var i = 0
        // `i + 4 <= count`: every load and store stays inside the row.
        while i &+ 4 <= count {
            let x = SIMD4<Int16>(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: i, as: SIMD4<UInt8>.self))
            let b = SIMD4<Int16>(truncatingIfNeeded: up.loadUnaligned(fromByteOffset: i, as: SIMD4<UInt8>.self)) & mask
            let predicted: SIMD4<Int16>
            switch filter {
            case 1: predicted = a
            case 3: predicted = (a &+ b) &>> 1
            default: predicted = simdPaeth(a, b, c)
            }
            let out = (x &+ predicted) & 0xFF
            raw.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: out), toByteOffset: i, as: SIMD4<UInt8>.self)
            a = out & mask
            c = b
            i &+= bpp
        }
        return i
    }

    /// The same with 8-lane vectors (bpp 6 or 8: 16-bit RGB and RGBA).
    @inline(__always)
    static func pixels8(_ filter: UInt8, _ row: UnsafeMutablePointer<UInt8>, _ prior: UnsafePointer<UInt8>,
                        _ count: Int, _ bpp: Int) -> Int {
        let raw = UnsafeMutableRawPointer(row)
        let up = UnsafeRawPointer(prior)
        let last: Int16 = bpp == 8 ? 0xFF : 0
        let mask = SIMD8<Int16>(0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, last, last)
        var a = SIMD8<Int16>(repeating: 0)
        var c = SIMD8<Int16>(repeating: 0)
        var i = 0
        // `i + 8 <= count`: every load and store stays inside the row.
        while i &+ 8 <= count {
            let x = SIMD8<Int16>(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: i, as: SIMD8<UInt8>.self))
            let b = SIMD8<Int16>(truncatingIfNeeded: up.loadUnaligned(fromByteOffset: i, as: SIMD8<UInt8>.self)) & mask
            let predicted: SIMD8<Int16>
            switch filter {
            case 1: predicted = a
            case 3: predicted = (a &+ b) &>> 1
            default:
                let pa = pointwiseMax(b &- c, c &- b)
                let pb = pointwiseMax(a &- c, c &- a)
                let pc = pointwiseMax(a &+ b &- c &- c, c &+ c &- a &- b)
                let bOrC = c.replacing(with: b, where: pb .<= pc)
                predicted = bOrC.replacing(with: a, where: (pa .<= pb) .& (pa .<= pc))
            }
            let out = (x &+ predicted) & 0xFF
            raw.storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: out), toByteOffset: i, as: SIMD8<UInt8>.self)
            a = out & mask
            c = b
            i &+= bpp
        }
        return i
    }
}
