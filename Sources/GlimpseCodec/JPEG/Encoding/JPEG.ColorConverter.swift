extension JPEG {
    /// RGB → YCbCr (or Y alone) with libjpeg's fixed-point tables (`jccolor.c`):
    /// each product is a 16-bit-fraction constant times the sample, the
    /// rounding half folded into one table, so that `(sum) >> 16` gives the
    /// same samples as libjpeg-turbo (JFIF §7 equations).
    struct ColorConverter: Sendable {
        /// Eight tables of 256 entries: R→Y, G→Y, B→Y (+½), R→Cb, G→Cb,
        /// B→Cb and R→Cr (+128 +½ −ε, shared), G→Cr, B→Cr.
        let tables: [Int32]

        static let shared = ColorConverter()

        private init() {
            func fix(_ x: Double) -> Int32 { Int32(x * 65536 + 0.5) }
            let half: Int32 = 1 << 15, offset: Int32 = 128 << 16
            var tables = [Int32](repeating: 0, count: 8 * 256)
            for i in 0..<256 {
                let v = Int32(i)
                tables[i] = fix(0.29900) * v
                tables[256 + i] = fix(0.58700) * v
                tables[512 + i] = fix(0.11400) * v + half
                tables[768 + i] = -fix(0.16874) * v
                tables[1024 + i] = -fix(0.33126) * v
                tables[1280 + i] = fix(0.5) * v + offset + half - 1
                tables[1536 + i] = -fix(0.41869) * v
                tables[1792 + i] = -fix(0.08131) * v
            }
            self.tables = tables
        }

        /// Converts one row of `count` RGB pixels (already flattened, three bytes
        /// each) into `y`, and into `cb` and `cr` when they are non-nil.
        @inline(__always)
        func convert(rgb: UnsafePointer<UInt8>, count: Int, y: UnsafeMutablePointer<UInt8>,
                     cb: UnsafeMutablePointer<UInt8>?, cr: UnsafeMutablePointer<UInt8>?) {
            tables.withUnsafeBufferPointer { t in
                // Indices are samples (0…255) plus fixed table offsets inside the 2048 entries.
                let t = t.baseAddress.unsafelyUnwrapped
                if let cb, let cr {
                    for x in 0..<count {
                        let r = Int(rgb[x &* 3]), g = Int(rgb[x &* 3 &+ 1]), b = Int(rgb[x &* 3 &+ 2])
                        y[x] = UInt8(truncatingIfNeeded: (t[r] &+ t[256 &+ g] &+ t[512 &+ b]) &>> 16)
                        cb[x] = UInt8(truncatingIfNeeded: (t[768 &+ r] &+ t[1024 &+ g] &+ t[1280 &+ b]) &>> 16)
                        cr[x] = UInt8(truncatingIfNeeded: (t[1280 &+ r] &+ t[1536 &+ g] &+ t[1792 &+ b]) &>> 16)
                    }
                } else {
                    for x in 0..<count {
                        let r = Int(rgb[x &* 3]), g = Int(rgb[x &* 3 &+ 1]), b = Int(rgb[x &* 3 &+ 2])
                        y[x] = UInt8(truncatingIfNeeded: (t[r] &+ t[256 &+ g] &+ t[512 &+ b]) &>> 16)
                    }
                }
            }
        }
    }
}
