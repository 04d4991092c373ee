extension JPEG {
    /// libjpeg's accurate integer forward DCT (`jfdctint.c`, the Loeffler–
    /// Ligtenberg–Moschytz factorisation with 13-bit constants and two extra
    /// bits kept between the passes) followed by its quantiser, so that the
    /// coefficients equal libjpeg-turbo's (whose SIMD versions are exact
    /// copies of the same arithmetic).
    enum ForwardDCT {
        static let constBits: Int32 = 13
        static let pass1Bits: Int32 = 2
        static let fix0_298631336: Int32 = 2446
        static let fix0_390180644: Int32 = 3196
        static let fix0_541196100: Int32 = 4433
        static let fix0_765366865: Int32 = 6270
        static let fix0_899976223: Int32 = 7373
        static let fix1_175875602: Int32 = 9633
        static let fix1_501321110: Int32 = 12299
        static let fix1_847759065: Int32 = 15137
        static let fix1_961570560: Int32 = 16069
        static let fix2_053119869: Int32 = 16819
        static let fix2_562915447: Int32 = 20995
        static let fix3_072711026: Int32 = 25172

        /// Transforms 64 level-shifted samples (−128…127) in place; the result is
        /// eight times the DCT of T.81 §A.3.3, as libjpeg scales it.
        @inline(__always)
        static func transform(_ data: UnsafeMutablePointer<Int32>) {
            // Rows: keep PASS1_BITS extra bits of precision.
            for row in 0..<8 {
                pass(data + row &* 8, stride: 1, evenShift: pass1Bits, oddDescale: constBits &- pass1Bits, firstPass: true)
            }
            // Columns: remove the extra bits again.
            for column in 0..<8 {
                pass(data + column, stride: 8, evenShift: pass1Bits, oddDescale: constBits &+ pass1Bits, firstPass: false)
            }
        }

        @inline(__always)
        private static func descale(_ x: Int32, _ n: Int32) -> Int32 {
            (x &+ (1 &<< (n &- 1))) &>> n
        }

        /// One 8-point pass. Values stay far inside Int32 (inputs ≤ 2^13 after the
        /// first pass, constants < 2^15), so the wrapping operators never wrap.
        @inline(__always)
        private static func pass(_ p: UnsafeMutablePointer<Int32>, stride s: Int, evenShift: Int32, oddDescale: Int32,
                                 firstPass: Bool) {
            let d0 = p[0], d1 = p[s], d2 = p[2 &* s], d3 = p[3 &* s]
            let d4 = p[4 &* s], d5 = p[5 &* s], d6 = p[6 &* s], d7 = p[7 &* s]
            let tmp0 = d0 &+ d7, tmp7 = d0 &- d7
            let tmp1 = d1 &+ d6, tmp6 = d1 &- d6
            let tmp2 = d2 &+ d5, tmp5 = d2 &- d5
            let tmp3 = d3 &+ d4, tmp4 = d3 &- d4

            let tmp10 = tmp0 &+ tmp3, tmp13 = tmp0 &- tmp3
            let tmp11 = tmp1 &+ tmp2, tmp12 = tmp1 &- tmp2
            if firstPass {
                p[0] = (tmp10 &+ tmp11) &<< evenShift
                p[4 &* s] = (tmp10 &- tmp11) &<< evenShift
            } else {
                p[0] = descale(tmp10 &+ tmp11, evenShift)
                p[4 &* s] = descale(tmp10 &- tmp11, evenShift)
            }
            let z1e = (tmp12 &+ tmp13) &* fix0_541196100
            p[2 &* s] = descale(z1e &+ tmp13 &* fix0_765366865, oddDescale)
            p[6 &* s] = descale(z1e &- tmp12 &* fix1_847759065, oddDescale)

            var z1 = tmp4 &+ tmp7, z2 = tmp5 &+ tmp6
            var z3 = tmp4 &+ tmp6, z4 = tmp5 &+ tmp7
            let z5 = (z3 &+ z4) &* fix1_175875602
            let t4 = tmp4 &* fix0_298631336, t5 = tmp5 &* fix2_053119869
            let t6 = tmp6 &* fix3_072711026, t7 = tmp7 &* fix1_501321110
            z1 = z1 &* -fix0_899976223
            z2 = z2 &* -fix2_562915447
            z3 = z3 &* -fix1_961570560 &+ z5
            z4 = z4 &* -fix0_390180644 &+ z5
            p[7 &* s] = descale(t4 &+ z1 &+ z3, oddDescale)
            p[5 &* s] = descale(t5 &+ z2 &+ z4, oddDescale)
            p[3 &* s] = descale(t6 &+ z2 &+ z3, oddDescale)
            p[s] = descale(t7 &+ z1 &+ z4, oddDescale)
        }

        /// Divides the transformed block by the table's steps (× 8), rounding
        /// half away from zero through libjpeg-turbo's reciprocals (``QuantizationTable/divisors``), into `output`.
        @inline(__always)
        static func quantize(_ data: UnsafePointer<Int32>, divisors: UnsafePointer<UInt32>,
                             into output: UnsafeMutablePointer<Int16>) {
            for i in 0..<64 {
                let value = data[i]
                let magnitude = UInt32(truncatingIfNeeded: value < 0 ? 0 &- value : value)
                // |value| < 2^15 and correction < 2^11, reciprocal < 2^16: the product fits in 32 bits.
                let q = ((magnitude &+ divisors[64 &+ i]) &* divisors[i]) &>> divisors[128 &+ i]
                let signed = Int16(truncatingIfNeeded: q)
                output[i] = value < 0 ? 0 &- signed : signed
            }
        }
    }
}
