extension JPEG {
    /// RGB → YCbCr (or Y alone) with libjpeg's fixed-point arithmetic
    /// (`jccolor.c`): each weight is a 16-bit fraction, FIX(x) = ⌊x · 2¹⁶ + ½⌋,
    /// the rounding half (and for chroma the +128 offset, less one) added
    /// before `>> 16`, so that the samples equal libjpeg-turbo's (JFIF §7).
    ///
    /// The weights of each output sum to 2^16 (Y) or 0 (Cb, Cr): FIX(0.299) +
    /// FIX(0.587) + FIX(0.114) = 65536, FIX(0.16874) + FIX(0.33126) = FIX(0.41869)
    /// + FIX(0.08131) = 32768. So each output is exactly G · 2^16 (or 0) plus two
    /// differences of samples times weights that fit in 16 signed bits:
    ///
    ///     Y  · 2^16 = G · 2^16 + 19595 (R − G) +  7471 (B − G)
    ///     Cb · 2^16 =          − 11059 (R − B) + 21709 (B − G)
    ///     Cr · 2^16 =            27439 (R − G) −  5329 (B − R)
    ///
    /// Each pair of differences sits in one 32-bit lane as two 16-bit halves,
    /// which is what SSE2's `pmaddwd` multiplies and sums: one instruction per
    /// output for four pixels, the same integers as libjpeg's table lookups.
    enum ColorConverter {
        static let yR: Int32 = 19595, yG: Int32 = 38470, yB: Int32 = 7471
        static let cbR: Int32 = -11059, cbG: Int32 = -21709, half: Int32 = 32768
        static let crG: Int32 = -27439, crB: Int32 = -5329
        /// ONE_HALF for Y; CBCR_OFFSET + ONE_HALF − 1 for chroma.
        static let yRounding: Int32 = 1 << 15
        static let chromaRounding: Int32 = (128 << 16) + (1 << 15) - 1

        /// Converts `count` RGBA8 pixels into `y`, and into `cb` and `cr` when
        /// they are non-nil. Returns the AND of the pixels' alpha samples (255
        /// when every pixel is opaque), which the caller needs to decide whether
        /// flattening was due.
        @inline(never)
        static func convert(rgba: UnsafeRawPointer, count: Int, y: UnsafeMutablePointer<UInt8>,
                            cb: UnsafeMutablePointer<UInt8>?, cr: UnsafeMutablePointer<UInt8>?) -> UInt8 {
            var x = 0
            var alpha = SIMD4<UInt32>(repeating: 0xFFFF_FFFF)
            // The vector path reads 16-bit halves of 32-bit lanes in little-endian order.
            #if _endian(little)
            if let cb, let cr {
                while x &+ 16 <= count {
                    // 16 pixels = 64 bytes: `rgba` holds count × 4 bytes.
                    let p = rgba + x &* 4
                    let w0 = quadWords(p), w1 = quadWords(p + 16), w2 = quadWords(p + 32), w3 = quadWords(p + 48)
                    alpha &= w0 & w1 & w2 & w3
                    let q0 = colour(w0), q1 = colour(w1), q2 = colour(w2), q3 = colour(w3)
                    (y + x).storeSIMD(narrow(q0.y, q1.y, q2.y, q3.y))
                    (cb + x).storeSIMD(narrow(q0.cb, q1.cb, q2.cb, q3.cb))
                    (cr + x).storeSIMD(narrow(q0.cr, q1.cr, q2.cr, q3.cr))
                    x &+= 16
                }
            } else {
                while x &+ 16 <= count {
                    // As above, luma alone.
                    let p = rgba + x &* 4
                    let w0 = quadWords(p), w1 = quadWords(p + 16), w2 = quadWords(p + 32), w3 = quadWords(p + 48)
                    alpha &= w0 & w1 & w2 & w3
                    (y + x).storeSIMD(narrow(luma(w0), luma(w1), luma(w2), luma(w3)))
                    x &+= 16
                }
            }
            #endif
            let lanes = alpha &>> 24
            var alphaAnd = UInt8(truncatingIfNeeded: lanes[0] & lanes[1] & lanes[2] & lanes[3])
            let bytes = rgba.assumingMemoryBound(to: UInt8.self)
            while x < count {
                let r = Int32(bytes[x &* 4]), g = Int32(bytes[x &* 4 &+ 1]), b = Int32(bytes[x &* 4 &+ 2])
                alphaAnd &= bytes[x &* 4 &+ 3]
                y[x] = UInt8(truncatingIfNeeded: (r &* yR &+ g &* yG &+ b &* yB &+ yRounding) &>> 16)
                if let cb, let cr {
                    cb[x] = UInt8(truncatingIfNeeded: (r &* cbR &+ g &* cbG &+ b &* half &+ chromaRounding) &>> 16)
                    cr[x] = UInt8(truncatingIfNeeded: (r &* half &+ g &* crG &+ b &* crB &+ chromaRounding) &>> 16)
                }
                x &+= 1
            }
            return alphaAnd
        }
    }
}

extension JPEG.ColorConverter {
    typealias Quad = SIMD4<Int32>

    /// Four RGBA8 pixels at `p` as little-endian words R | G << 8 | B << 16 | A << 24.
    @inline(__always)
    static func quadWords(_ p: UnsafeRawPointer) -> SIMD4<UInt32> {
        p.loadUnaligned(as: SIMD4<UInt32>.self).littleEndianWords
    }

    /// Per pixel G, and (R − G) | (B − G) << 16 as two 16-bit lanes.
    @inline(__always)
    static func greenAndDifferences(_ w: SIMD4<UInt32>) -> (green: Quad, differences: Quad) {
        let words = unsafeBitCast(w, to: Quad.self)
        let rb = words & 0x00FF_00FF
        let g = (words &>> 8) & 0xFF
        return (g, subtract16(rb, g | (g &<< 16)))
    }

    @inline(__always)
    static func luma(_ w: SIMD4<UInt32>) -> Quad {
        let (g, d) = greenAndDifferences(w)
        // G · 2^16 is a multiple of 2^16: adding G after the shift gives the same floor.
        return g &+ ((multiplyAdd(d, Int16(yR), Int16(yB)) &+ yRounding) &>> 16)
    }

    @inline(__always)
    static func colour(_ w: SIMD4<UInt32>) -> (y: Quad, cb: Quad, cr: Quad) {
        let (g, d) = greenAndDifferences(w)
        // (R − G, B − R): the high half less the low one; (R − B, B − G): the low half less the high one.
        let u = subtract16(d, d &<< 16)
        let v = subtract16(d, unsafeBitCast(unsafeBitCast(d, to: SIMD4<UInt32>.self) &>> 16, to: Quad.self))
        let y = g &+ ((multiplyAdd(d, Int16(yR), Int16(yB)) &+ yRounding) &>> 16)
        let cb = (multiplyAdd(v, Int16(cbR), Int16(-cbG)) &+ chromaRounding) &>> 16
        let cr = (multiplyAdd(u, Int16(-crG), Int16(crB)) &+ chromaRounding) &>> 16
        return (y, cb, cr)
    }

    /// 16-bit lane-wise a − b of two vectors viewed as eight 16-bit lanes (`psubw`).
    @inline(__always)
    static func subtract16(_ a: Quad, _ b: Quad) -> Quad {
        unsafeBitCast(unsafeBitCast(a, to: SIMD8<Int16>.self) &- unsafeBitCast(b, to: SIMD8<Int16>.self), to: Quad.self)
    }

    /// Per 32-bit lane, low half × c0 + high half × c1, both halves signed
    /// 16-bit: `pmaddwd`. Written as LLVM recognises it (a widened product
    /// whose even and odd lanes are added); other spellings of the same sum
    /// compiled to shuffles rebuilding the operand, or to emulated 32-bit products.
    @inline(__always)
    static func multiplyAdd(_ pairs: Quad, _ c0: Int16, _ c1: Int16) -> Quad {
        let v = unsafeBitCast(pairs, to: SIMD8<Int16>.self)
        let c = SIMD8<Int16>(c0, c1, c0, c1, c0, c1, c0, c1)
        let p = SIMD8<Int32>(Int32(v[0]), Int32(v[1]), Int32(v[2]), Int32(v[3]),
                             Int32(v[4]), Int32(v[5]), Int32(v[6]), Int32(v[7]))
            &* SIMD8<Int32>(Int32(c[0]), Int32(c[1]), Int32(c[2]), Int32(c[3]),
                            Int32(c[4]), Int32(c[5]), Int32(c[6]), Int32(c[7]))
        return Quad(p[0], p[2], p[4], p[6]) &+ Quad(p[1], p[3], p[5], p[7])
    }

    /// Sixteen lanes (each 0…255 here) as bytes, saturating (`packssdw`,
    /// `packuswb`): with a truncation LLVM needs only the low bits of each
    /// product, rewrites the constants modulo 2^24 and loses `pmaddwd`.
    @inline(__always)
    static func narrow(_ a: Quad, _ b: Quad, _ c: Quad, _ d: Quad) -> SIMD16<UInt8> {
        let v = SIMD16<Int32>(lowHalf: SIMD8(lowHalf: a, highHalf: b), highHalf: SIMD8(lowHalf: c, highHalf: d))
        var r = SIMD16<UInt8>()
        for i in 0..<16 { r[i] = UInt8(truncatingIfNeeded: min(max(v[i], 0), 255)) }
        return r
    }
}

extension SIMD4<UInt32> {
    /// The words as stored little-endian (a no-op on little-endian hosts).
    @inline(__always)
    var littleEndianWords: SIMD4<UInt32> {
        #if _endian(little)
        return self
        #else
        var copy = self
        for i in 0..<4 { copy[i] = self[i].byteSwapped }
        return copy
        #endif
    }
}

extension UnsafeMutablePointer<UInt8> {
    /// Stores 16 bytes at this (unaligned) address.
    @inline(__always)
    func storeSIMD(_ value: SIMD16<UInt8>) {
        UnsafeMutableRawPointer(self).storeBytes(of: value, as: SIMD16<UInt8>.self)
    }
}

extension SIMD8<UInt16> {
    /// The pairs of bytes as stored little-endian (a no-op on little-endian hosts).
    @inline(__always)
    var littleEndianPairs: SIMD8<UInt16> {
        #if _endian(little)
        return self
        #else
        var copy = self
        for i in 0..<8 { copy[i] = self[i].byteSwapped }
        return copy
        #endif
    }
}
