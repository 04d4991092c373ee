extension JPEG {
    /// RGB → YCbCr (or Y alone) with libjpeg's fixed-point arithmetic
    /// (`jccolor.c`): each weight is a 16-bit fraction, FIX(x) = ⌊x · 2¹⁶ + ½⌋,
    /// the rounding half (and for chroma the +128 offset, less one) added
    /// before `>> 16`, so that the samples equal libjpeg-turbo's (JFIF §7).
    /// libjpeg reads the products from tables of FIX(x) · i; multiplying gives
    /// the same integers, which lets 16 pixels go through at once.
    enum ColorConverter {
        static let yR: Int32 = 19595, yG: Int32 = 38470, yB: Int32 = 7471
        static let cbR: Int32 = -11059, cbG: Int32 = -21709, half: Int32 = 32768
        static let crG: Int32 = -27439, crB: Int32 = -5329
        /// ONE_HALF for Y; CBCR_OFFSET + ONE_HALF − 1 for chroma.
        static let yRounding: Int32 = 1 << 15
        static let chromaRounding: Int32 = (128 << 16) + (1 << 15) - 1
        /// The roundings less 255 times the weights of the differences (see `convert`).
        static let lumaBias: Int32 = yRounding - 255 * (yR + yB)
        static let blueBias: Int32 = chromaRounding + 255 * cbR
        static let redBias: Int32 = chromaRounding + 255 * crB

        /// Converts `count` RGBA8 pixels (alpha not read) into `y`, and into
        /// `cb` and `cr` when they are non-nil.
        @inline(__always)
        static func convert(rgba: UnsafeRawPointer, count: Int, y: UnsafeMutablePointer<UInt8>,
                            cb: UnsafeMutablePointer<UInt8>?, cr: UnsafeMutablePointer<UInt8>?) {
            var x = 0
            let mask = SIMD16<UInt32>(repeating: 0xFF)
            while x &+ 16 <= count {
                // 16 pixels = 64 bytes read as 16 little-endian words R | G << 8 | B << 16 | A << 24.
                let words = (rgba + x &* 4).loadUnaligned(as: SIMD16<UInt32>.self).littleEndianWords
                let r = unsafeBitCast(words & mask, to: SIMD16<Int32>.self)
                let g = unsafeBitCast((words &>> 8) & mask, to: SIMD16<Int32>.self)
                let b = unsafeBitCast((words &>> 16) & mask, to: SIMD16<Int32>.self)
                // The weights of each output sum to 0 or 2^16 (FIX(0.299) + FIX(0.587) + FIX(0.114)
                // = 65536, FIX(0.16874) + FIX(0.33126) = FIX(0.41869) + FIX(0.08131) = 32768), so
                // each output is G·2^16 (or 0) plus two differences times a positive constant under
                // 2^15: the same integers, and products LLVM turns into `pmaddwd` (a negative constant
                // becomes emulated 32-bit multiplies on SSE2).
                // x ^ 255 = 255 − x for samples: each difference plus 255, never negative. Written as
                // plain differences, LLVM shares their negations and multiplies by negative constants.
                let notR = r ^ 255, notG = g ^ 255, notB = b ^ 255
                let luma = (g &<< 16 &+ (r &+ notG) &* yR &+ (b &+ notG) &* yB &+ lumaBias) &>> 16
                (y + x).storeSIMD(narrow(luma))
                if let cb, let cr {
                    let blue = ((b &- g) &<< 15 &+ (g &+ notR) &* (0 &- cbR) &+ blueBias) &>> 16
                    let red = ((r &- g) &<< 15 &+ (g &+ notB) &* (0 &- crB) &+ redBias) &>> 16
                    (cb + x).storeSIMD(narrow(blue))
                    (cr + x).storeSIMD(narrow(red))
                }
                x &+= 16
            }
            let bytes = rgba.assumingMemoryBound(to: UInt8.self)
            while x < count {
                let r = Int32(bytes[x &* 4]), g = Int32(bytes[x &* 4 &+ 1]), b = Int32(bytes[x &* 4 &+ 2])
                y[x] = UInt8(truncatingIfNeeded: (r &* yR &+ g &* yG &+ b &* yB &+ yRounding) &>> 16)
                if let cb, let cr {
                    cb[x] = UInt8(truncatingIfNeeded: (r &* cbR &+ g &* cbG &+ b &* half &+ chromaRounding) &>> 16)
                    cr[x] = UInt8(truncatingIfNeeded: (r &* half &+ g &* crG &+ b &* crB &+ chromaRounding) &>> 16)
                }
                x &+= 1
            }
        }
    }
}

extension JPEG.ColorConverter {
    /// The low byte of each lane (the values are 0…255 here).
    @inline(__always)
    static func narrow(_ v: SIMD16<Int32>) -> SIMD16<UInt8> {
        // Lane by lane: LLVM makes packs of it (the generic initialiser is not always inlined).
        var r = SIMD16<UInt8>()
        for i in 0..<16 { r[i] = UInt8(truncatingIfNeeded: min(max(v[i], 0), 255)) }
        return r
    }
}

extension SIMD16<UInt32> {
    /// The words as stored little-endian (a no-op on little-endian hosts).
    @inline(__always)
    var littleEndianWords: SIMD16<UInt32> {
        #if _endian(little)
        return self
        #else
        var copy = self
        for i in 0..<16 { copy[i] = self[i].byteSwapped }
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
