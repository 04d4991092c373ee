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
        /// Adobe CMYK written as ink amounts (0 = none) into the four RGBA bytes, for an ICC profile to convert.
        case cmykInk
        /// Adobe YCCK written as ink amounts, likewise.
        case ycckInk

        /// The variant that leaves CMYK for a profile, for the two CMYK transforms.
        var inkVariant: ColorTransform? {
            switch self {
            case .cmyk: .cmykInk
            case .ycck: .ycckInk
            default: nil
            }
        }

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
                let words = UnsafeMutableRawPointer(out)
                for x in 0..<width {
                    // Two 16-bit halves per pixel (r, g) and (b, a): 16-bit lanes let the compiler
                    // vectorise eight pixels per register rather than four with a 32-bit word.
                    let v = UInt16(y[x])
                    words.storeBytes(of: UInt16(littleEndian: v | v &<< 8), toByteOffset: 4 &* x, as: UInt16.self)
                    words.storeBytes(of: UInt16(littleEndian: v | 0xFF00), toByteOffset: 4 &* x &+ 2, as: UInt16.self)
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
            case .cmykInk:
                for c in 0..<4 {
                    let row = rows[c]
                    for x in 0..<width { out[4 &* x &+ c] = 255 &- row[x] }
                }
            case .ycckInk:
                let yy = rows[0], cb = rows[1], cr = rows[2], k = rows[3]
                for x in 0..<width {
                    // The YCC part decodes to 255 − stored CMY, which is the ink itself.
                    let (r, g, b) = Self.ycc(Int(yy[x]), Int(cb[x]), Int(cr[x]))
                    let o = out + 4 &* x
                    o[0] = UInt8(truncatingIfNeeded: r); o[1] = UInt8(truncatingIfNeeded: g); o[2] = UInt8(truncatingIfNeeded: b)
                    o[3] = 255 &- k[x]
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

        /// Clamps to 0…255 with masks rather than branches, so that loops using it vectorise.
        @inline(__always)
        static func clamp16(_ v: Int16) -> Int16 {
            let positive = v & ~(v &>> 15)
            let over = positive &- 255
            return positive &- (over & ~(over &>> 15))
        }

        /// Clamps to 0…255 with masks rather than branches, so that loops using it vectorise.
        @inline(__always)
        static func clamp32(_ v: Int32) -> Int32 {
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
            // A plain loop in 16-bit integers, one RGBA word stored per pixel: LLVM vectorises it
            // eight pixels per SSE2 register (pmulhw/pmullw). Explicit `SIMD8<Int32>` code was
            // slower: its conversions from `SIMD8<UInt8>` were not inlined.
            //
            // Exactness: for a product P = c·v with |2v| < 2^15, ⌊P / 2^15⌋ = mulhi(2v, c), and
            // (P + 2^15) >> 16 = (⌊P / 2^15⌋ + 1) >> 1. For G's sum P1 + P2 the two floors are
            // added with the carry out of their low 15 bits (from the low halves, mullo).
            @inline(__always) func mulhi(_ a: Int16, _ c: Int16) -> Int16 {
                Int16(truncatingIfNeeded: (Int32(a) &* Int32(c)) &>> 16)
            }
            @inline(__always) func low15(_ a: Int16, _ c: Int16) -> UInt16 { UInt16(bitPattern: a &* c) & 0x7FFF }
            let words = UnsafeMutableRawPointer(out)
            for x in 0..<width {
                let yy = Int16(y[x]), cbc = Int16(cb[x]) &- 128, crc = Int16(cr[x]) &- 128
                let cr2 = crc &<< 1, cb2 = cbc &<< 1
                let r = clamp16(yy &+ crc &+ ((mulhi(cr2, 26345) &+ 1) &>> 1))
                let b = clamp16(yy &+ cb2 &+ ((mulhi(cb2, -14942) &+ 1) &>> 1))
                let carry = Int16(bitPattern: (low15(crc, 18734) &+ low15(cbc, -22554)) &>> 15)
                let g = clamp16(yy &- crc &+ ((mulhi(cr2, 18734) &+ mulhi(cb2, -22554) &+ carry &+ 1) &>> 1))
                // Two 16-bit halves (r, g) and (b, 255) keep every lane 16 bits wide.
                let rg = UInt16(bitPattern: r) | UInt16(bitPattern: g) &<< 8
                let ba = UInt16(bitPattern: b) | 0xFF00
                // `x < width`: the four bytes lie inside the row.
                words.storeBytes(of: UInt16(littleEndian: rg), toByteOffset: 4 &* x, as: UInt16.self)
                words.storeBytes(of: UInt16(littleEndian: ba), toByteOffset: 4 &* x &+ 2, as: UInt16.self)
            }
        }
    }
}
