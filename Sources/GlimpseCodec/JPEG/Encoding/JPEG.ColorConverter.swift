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
                let luma = (r &* yR &+ g &* yG &+ b &* yB &+ yRounding) &>> 16
                (y + x).storeSIMD(narrow(luma))
                if let cb, let cr {
                    let blue = (r &* cbR &+ g &* cbG &+ b &* half &+ chromaRounding) &>> 16
                    let red = (r &* half &+ g &* crG &+ b &* crB &+ chromaRounding) &>> 16
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
        let b = unsafeBitCast(v, to: SIMD64<UInt8>.self)
        #if _endian(little)
        return SIMD16<UInt8>(b[0], b[4], b[8], b[12], b[16], b[20], b[24], b[28],
                             b[32], b[36], b[40], b[44], b[48], b[52], b[56], b[60])
        #else
        return SIMD16<UInt8>(b[3], b[7], b[11], b[15], b[19], b[23], b[27], b[31],
                             b[35], b[39], b[43], b[47], b[51], b[55], b[59], b[63])
        #endif
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
