extension JPEG {
    /// Dequantisation and inverse DCT (T.81 §A.3.3) with the arithmetic of
    /// libjpeg's accurate integer IDCT ("islow", Loeffler–Ligtenberg–Moschytz
    /// with 13-bit constants and 2 extra bits between the passes), so the
    /// samples are identical to libjpeg-turbo's.
    enum IDCT {
        static let constBits = 13
        static let pass1Bits = 2

        static let fix0_298631336 = 2446
        static let fix0_390180644 = 3196
        static let fix0_541196100 = 4433
        static let fix0_765366865 = 6270
        static let fix0_899976223 = 7373
        static let fix1_175875602 = 9633
        static let fix1_501321110 = 12299
        static let fix1_847759065 = 15137
        static let fix1_961570560 = 16069
        static let fix2_053119869 = 16819
        static let fix2_562915447 = 20995
        static let fix3_072711026 = 25172

        /// libjpeg's post-IDCT range limit: the value is taken modulo 1024 as a
        /// signed 10-bit number (so wildly corrupt input wraps the way libjpeg's
        /// table does), shifted by +128 and clamped to 0…255.
        @inline(__always)
        static func rangeLimit(_ x: Int) -> UInt8 {
            let wrapped = ((x & 1023) ^ 512) &- 512 &+ 128
            return UInt8(truncatingIfNeeded: wrapped < 0 ? 0 : (wrapped > 255 ? 255 : wrapped))
        }

        /// The sample of a block whose only non-zero coefficient is DC, at any scale.
        @inline(__always)
        static func dcOnlyValue(_ coefficient: Int16, _ quant: Int16) -> UInt8 {
            // Same steps as the full transform: the first pass keeps 32 bits.
            let dc = Int(Int32(truncatingIfNeeded: Int(Int32(coefficient) &* Int32(quant)) &<< pass1Bits))
            return rangeLimit((dc &+ 16) &>> 5)
        }

        /// Full 8x8 inverse transform of `block` (natural order) into `out`.
        @inline(__always)
        static func islow8x8(_ block: UnsafePointer<Int16>, _ quant: UnsafePointer<Int16>,
                             _ out: UnsafeMutablePointer<UInt8>, _ stride: Int,
                             _ workspace: UnsafeMutablePointer<Int32>) {
            // Pass 1: columns → workspace, scaled up by 2^pass1Bits.
            for col in 0..<8 {
                let i = block + col, q = quant + col, w = workspace + col
                if i[8] == 0 && i[16] == 0 && i[24] == 0 && i[32] == 0 && i[40] == 0 && i[48] == 0 && i[56] == 0 {
                    let dc = Int32(truncatingIfNeeded: Int(Int32(i[0]) &* Int32(q[0])) &<< pass1Bits)
                    w[0] = dc; w[8] = dc; w[16] = dc; w[24] = dc; w[32] = dc; w[40] = dc; w[48] = dc; w[56] = dc
                    continue
                }
                var z2 = Int(Int32(i[16]) &* Int32(q[16]))
                var z3 = Int(Int32(i[48]) &* Int32(q[48]))
                var z1 = (z2 &+ z3) &* fix0_541196100
                var tmp2 = z1 &+ z3 &* -fix1_847759065
                var tmp3 = z1 &+ z2 &* fix0_765366865
                z2 = Int(Int32(i[0]) &* Int32(q[0]))
                z3 = Int(Int32(i[32]) &* Int32(q[32]))
                var tmp0 = (z2 &+ z3) &<< constBits
                var tmp1 = (z2 &- z3) &<< constBits
                let tmp10 = tmp0 &+ tmp3, tmp13 = tmp0 &- tmp3
                let tmp11 = tmp1 &+ tmp2, tmp12 = tmp1 &- tmp2

                tmp0 = Int(Int32(i[56]) &* Int32(q[56]))
                tmp1 = Int(Int32(i[40]) &* Int32(q[40]))
                tmp2 = Int(Int32(i[24]) &* Int32(q[24]))
                tmp3 = Int(Int32(i[8]) &* Int32(q[8]))
                z1 = tmp0 &+ tmp3
                z2 = tmp1 &+ tmp2
                z3 = tmp0 &+ tmp2
                var z4 = tmp1 &+ tmp3
                let z5 = (z3 &+ z4) &* fix1_175875602
                tmp0 = tmp0 &* fix0_298631336
                tmp1 = tmp1 &* fix2_053119869
                tmp2 = tmp2 &* fix3_072711026
                tmp3 = tmp3 &* fix1_501321110
                z1 = z1 &* -fix0_899976223
                z2 = z2 &* -fix2_562915447
                z3 = z3 &* -fix1_961570560 &+ z5
                z4 = z4 &* -fix0_390180644 &+ z5
                tmp0 = tmp0 &+ z1 &+ z3
                tmp1 = tmp1 &+ z2 &+ z4
                tmp2 = tmp2 &+ z2 &+ z3
                tmp3 = tmp3 &+ z1 &+ z4

                let shift = constBits - pass1Bits, round = 1 << (shift - 1)
                w[0] = Int32(truncatingIfNeeded: (tmp10 &+ tmp3 &+ round) &>> shift)
                w[56] = Int32(truncatingIfNeeded: (tmp10 &- tmp3 &+ round) &>> shift)
                w[8] = Int32(truncatingIfNeeded: (tmp11 &+ tmp2 &+ round) &>> shift)
                w[48] = Int32(truncatingIfNeeded: (tmp11 &- tmp2 &+ round) &>> shift)
                w[16] = Int32(truncatingIfNeeded: (tmp12 &+ tmp1 &+ round) &>> shift)
                w[40] = Int32(truncatingIfNeeded: (tmp12 &- tmp1 &+ round) &>> shift)
                w[24] = Int32(truncatingIfNeeded: (tmp13 &+ tmp0 &+ round) &>> shift)
                w[32] = Int32(truncatingIfNeeded: (tmp13 &- tmp0 &+ round) &>> shift)
            }
            // Pass 2: rows → samples.
            let shift = constBits + pass1Bits + 3, round = 1 << (shift - 1)
            for row in 0..<8 {
                let w = workspace + row * 8
                let o = out + row * stride
                if w[1] == 0 && w[2] == 0 && w[3] == 0 && w[4] == 0 && w[5] == 0 && w[6] == 0 && w[7] == 0 {
                    let v = rangeLimit((Int(w[0]) &+ 16) &>> 5)
                    o[0] = v; o[1] = v; o[2] = v; o[3] = v; o[4] = v; o[5] = v; o[6] = v; o[7] = v
                    continue
                }
                var z2 = Int(w[2]), z3 = Int(w[6])
                var z1 = (z2 &+ z3) &* fix0_541196100
                var tmp2 = z1 &+ z3 &* -fix1_847759065
                var tmp3 = z1 &+ z2 &* fix0_765366865
                var tmp0 = (Int(w[0]) &+ Int(w[4])) &<< constBits
                var tmp1 = (Int(w[0]) &- Int(w[4])) &<< constBits
                let tmp10 = tmp0 &+ tmp3, tmp13 = tmp0 &- tmp3
                let tmp11 = tmp1 &+ tmp2, tmp12 = tmp1 &- tmp2

                tmp0 = Int(w[7]); tmp1 = Int(w[5]); tmp2 = Int(w[3]); tmp3 = Int(w[1])
                z1 = tmp0 &+ tmp3
                z2 = tmp1 &+ tmp2
                z3 = tmp0 &+ tmp2
                var z4 = tmp1 &+ tmp3
                let z5 = (z3 &+ z4) &* fix1_175875602
                tmp0 = tmp0 &* fix0_298631336
                tmp1 = tmp1 &* fix2_053119869
                tmp2 = tmp2 &* fix3_072711026
                tmp3 = tmp3 &* fix1_501321110
                z1 = z1 &* -fix0_899976223
                z2 = z2 &* -fix2_562915447
                z3 = z3 &* -fix1_961570560 &+ z5
                z4 = z4 &* -fix0_390180644 &+ z5
                tmp0 = tmp0 &+ z1 &+ z3
                tmp1 = tmp1 &+ z2 &+ z4
                tmp2 = tmp2 &+ z2 &+ z3
                tmp3 = tmp3 &+ z1 &+ z4

                o[0] = rangeLimit((tmp10 &+ tmp3 &+ round) &>> shift)
                o[7] = rangeLimit((tmp10 &- tmp3 &+ round) &>> shift)
                o[1] = rangeLimit((tmp11 &+ tmp2 &+ round) &>> shift)
                o[6] = rangeLimit((tmp11 &- tmp2 &+ round) &>> shift)
                o[2] = rangeLimit((tmp12 &+ tmp1 &+ round) &>> shift)
                o[5] = rangeLimit((tmp12 &- tmp1 &+ round) &>> shift)
                o[3] = rangeLimit((tmp13 &+ tmp0 &+ round) &>> shift)
                o[4] = rangeLimit((tmp13 &- tmp0 &+ round) &>> shift)
            }
        }
    }
}
