extension JPEG {
    /// How the decoded components map to RGB (T.81 leaves it to JFIF §1, Adobe
    /// APP14 and convention; the choice follows libjpeg's
    /// `default_decompress_parms`).
    enum ColorTransform: Sendable, Hashable {
        case grayscale
        case ycbcr
        case rgb
        /// Adobe CMYK: samples stored inverted.
        case cmyk
        /// Adobe YCCK: YCbCr-coded inverted CMY, plus inverted K.
        case ycck

        static func choose(componentIDs ids: [UInt8], sawJFIF: Bool, adobeTransform: UInt8?) -> ColorTransform {
            switch ids.count {
            case 1, 2:
                return .grayscale
            case 3:
                if sawJFIF { return .ycbcr }
                if let adobeTransform { return adobeTransform == 0 ? .rgb : .ycbcr }
                if ids == [0x52, 0x47, 0x42] { return .rgb }   // 'R', 'G', 'B'
                return .ycbcr
            default:
                if let adobeTransform { return adobeTransform == 0 ? .cmyk : .ycck }
                return .cmyk
            }
        }

        /// Converts one row of `width` pixels to RGBA8.
        @inline(__always)
        func convert(_ rows: UnsafePointer<UnsafePointer<UInt8>>, width: Int, into out: UnsafeMutablePointer<UInt8>) {
            switch self {
            case .grayscale:
                let y = rows[0]
                for x in 0..<width {
                    let v = y[x], o = out + 4 &* x
                    o[0] = v; o[1] = v; o[2] = v; o[3] = 255
                }
            case .rgb:
                let r = rows[0], g = rows[1], b = rows[2]
                for x in 0..<width {
                    let o = out + 4 &* x
                    o[0] = r[x]; o[1] = g[x]; o[2] = b[x]; o[3] = 255
                }
            case .ycbcr:
                Self.convertYCbCr(rows[0], rows[1], rows[2], width: width, out: out)
            case .cmyk:
                let c = rows[0], m = rows[1], y = rows[2], k = rows[3]
                for x in 0..<width {
                    let o = out + 4 &* x, kk = Int(k[x])
                    o[0] = Self.multiply(Int(c[x]), kk)
                    o[1] = Self.multiply(Int(m[x]), kk)
                    o[2] = Self.multiply(Int(y[x]), kk)
                    o[3] = 255
                }
            case .ycck:
                let yy = rows[0], cb = rows[1], cr = rows[2], k = rows[3]
                for x in 0..<width {
                    let (r, g, b) = Self.ycc(Int(yy[x]), Int(cb[x]), Int(cr[x]))
                    let o = out + 4 &* x, kk = Int(k[x])
                    // YCCK codes inverted CMY: C = 255 - R and so on.
                    o[0] = Self.multiply(255 &- r, kk)
                    o[1] = Self.multiply(255 &- g, kk)
                    o[2] = Self.multiply(255 &- b, kk)
                    o[3] = 255
                }
            }
        }

        /// a·b/255 rounded, with the shifts Pillow uses.
        @inline(__always)
        static func multiply(_ a: Int, _ b: Int) -> UInt8 {
            let t = a &* b &+ 128
            return UInt8(truncatingIfNeeded: (t &+ (t &>> 8)) &>> 8)
        }

        @inline(__always)
        static func clamp(_ v: Int) -> Int { v < 0 ? 0 : (v > 255 ? 255 : v) }

        /// Clamps lanes to 0…255 with masks (the generic `clamped` is not inlined).
        @inline(__always)
        static func clamp(_ v: SIMD8<Int32>) -> SIMD8<Int32> {
            let positive = v & ~(v &>> 31)
            let over = positive &- 255
            return positive &- (over & ~(over &>> 31))
        }

        /// JFIF YCbCr → RGB with libjpeg's 16-bit fixed-point constants and rounding:
        /// R = Y + ((91881·Cr' + 2^15) >> 16), G = Y + ((−46802·Cr' − 22554·Cb' + 2^15) >> 16),
        /// B = Y + ((116130·Cb' + 2^15) >> 16). The whole multiples of 2^16 are taken out of the
        /// constants (91881 = 65536 + 26345, …) so every product fits 16-bit multipliers; the
        /// results are the same integers.
        @inline(__always)
        static func ycc(_ y: Int, _ cb: Int, _ cr: Int) -> (Int, Int, Int) {
            let cbc = cb &- 128, crc = cr &- 128
            let r = y &+ crc &+ ((26345 &* crc &+ 32768) &>> 16)
            let g = y &- crc &+ ((18734 &* crc &- 22554 &* cbc &+ 32768) &>> 16)
            let b = y &+ 2 &* cbc &+ ((-14942 &* cbc &+ 32768) &>> 16)
            return (clamp(r), clamp(g), clamp(b))
        }

        static func convertYCbCr(_ y: UnsafePointer<UInt8>, _ cb: UnsafePointer<UInt8>, _ cr: UnsafePointer<UInt8>,
                                 width: Int, out: UnsafeMutablePointer<UInt8>) {
            var x = 0
            // Eight pixels at a time in 32-bit lanes; same arithmetic as the scalar tail.
            while x &+ 8 <= width {
                let yv = SIMD8<Int32>(truncatingIfNeeded: UnsafeRawPointer(y + x).loadUnaligned(as: SIMD8<UInt8>.self))
                let cbv = SIMD8<Int32>(truncatingIfNeeded: UnsafeRawPointer(cb + x).loadUnaligned(as: SIMD8<UInt8>.self)) &- 128
                let crv = SIMD8<Int32>(truncatingIfNeeded: UnsafeRawPointer(cr + x).loadUnaligned(as: SIMD8<UInt8>.self)) &- 128
                let r = clamp(yv &+ crv &+ ((crv &* 26345 &+ 32768) &>> 16))
                let g = clamp(yv &- crv &+ ((crv &* 18734 &- cbv &* 22554 &+ 32768) &>> 16))
                let b = clamp(yv &+ cbv &+ cbv &+ ((cbv &* -14942 &+ 32768) &>> 16))
                // One 32-bit RGBA word per lane, little-endian byte order r, g, b, a.
                let rgba = SIMD8<UInt32>(truncatingIfNeeded: r) | (SIMD8<UInt32>(truncatingIfNeeded: g) &<< 8)
                    | (SIMD8<UInt32>(truncatingIfNeeded: b) &<< 16) | SIMD8<UInt32>(repeating: 0xFF00_0000)
                #if _endian(big)
                let word = SIMD8<UInt32>((0..<8).map { rgba[$0].byteSwapped })
                #else
                let word = rgba
                #endif
                // `x + 8 <= width`: the 32 bytes lie inside the row.
                UnsafeMutableRawPointer(out + 4 &* x).storeBytes(of: word, as: SIMD8<UInt32>.self)
                x &+= 8
            }
            while x < width {
                let (r, g, b) = ycc(Int(y[x]), Int(cb[x]), Int(cr[x]))
                let o = out + 4 &* x
                o[0] = UInt8(truncatingIfNeeded: r); o[1] = UInt8(truncatingIfNeeded: g)
                o[2] = UInt8(truncatingIfNeeded: b); o[3] = 255
                x &+= 1
            }
        }
    }
}
