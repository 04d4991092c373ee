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
        static func dcOnlyValue(_ coefficient: Int32, _ quant: Int32, size: Int) -> UInt8 {
            if size == 8 {
                // libjpeg-turbo's SIMD islow (jidctint-sse2/-avx2) takes its "AC rows all zero"
                // shortcut: 16-bit dequantisation and shift (`pmullw`, `psllw`, which wrap),
                // then the second pass saturates to bytes. The same as below for any DC an
                // encoder writes; different (and so kept) for hostile ones.
                let first = Int16(truncatingIfNeeded: coefficient &* quant) &<< 2
                let value = (Int(first) &+ 16) &>> 5
                return UInt8(truncatingIfNeeded: min(max(value, -128), 127) &+ 128)
            }
            // Same steps as the reduced transforms: the first pass keeps 32 bits.
            let dc = Int((coefficient &* quant) &<< Int32(pass1Bits))
            return rangeLimit((dc &+ 16) &>> 5)
        }
    }
}
