extension JPEG {
    /// A quantisation table for writing (ITU T.81 §B.2.4.1), with the
    /// reciprocals libjpeg-turbo quantises by.
    struct QuantizationTable: Sendable, Equatable {
        /// Step sizes in natural (row-major) order, each 1…255.
        let steps: [UInt16]
        /// Per coefficient: multiplier, rounding correction and right shift
        /// that divide a DCT output (scaled by 8) by `8 * step`, rounding to
        /// nearest, exactly as libjpeg-turbo's `compute_reciprocal` sets them up
        /// for its 16-bit SIMD quantiser (which the C quantiser matches).
        /// 64 reciprocals, then 64 corrections, then 64 shifts.
        let divisors: [UInt32]
        /// The same as 16-bit lanes for the SIMD quantiser: 64 reciprocals, 64
        /// corrections, then 64 scales 2^(32 − shift), so that two multiply-highs
        /// divide (libjpeg-turbo's layout; the shift is at least 18).
        let divisors16: [UInt16]

        /// Annex K table K.1 (luminance), natural order.
        static let annexKLuminance: [Int] = [
            16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55,
            14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
            18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
            49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
        ]

        /// Annex K table K.2 (chrominance), natural order.
        static let annexKChrominance: [Int] = [
            17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99,
            24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99,
        ] + [Int](repeating: 99, count: 32)

        /// libjpeg's `jpeg_quality_scaling`: 5000 / q below 50, 200 − 2q above.
        static func scaleFactor(quality: Int) -> Int {
            let q = min(max(quality, 1), 100)
            return q < 50 ? 5000 / q : 200 - q * 2
        }

        /// `base` scaled for `quality` as libjpeg's `jpeg_add_quant_table` does
        /// with `force_baseline`: (step × scale + 50) / 100 within 1…255.
        init(base: [Int], quality: Int) {
            let scale = Self.scaleFactor(quality: quality)
            self.init(steps: base.map { UInt16(min(max(($0 * scale + 50) / 100, 1), 255)) })
        }

        init(steps: [UInt16]) {
            self.steps = steps
            var reciprocals: [UInt32] = [], corrections: [UInt32] = [], shifts: [UInt32] = []
            for step in steps {
                let divisor = UInt32(step) << 3
                // divisor >= 8, so the 16-bit reciprocal never needs the identity case.
                let b = 31 - divisor.leadingZeroBitCount
                var r = 16 + b
                var fq = (UInt32(1) << r) / divisor
                let fr = (UInt32(1) << r) % divisor
                var c = divisor / 2
                if fr == 0 {
                    fq >>= 1
                    r -= 1
                } else if fr <= divisor / 2 {
                    c += 1
                } else {
                    fq += 1
                }
                reciprocals.append(fq)
                corrections.append(c)
                shifts.append(UInt32(r))
            }
            self.divisors = reciprocals + corrections + shifts
            divisors16 = (reciprocals + corrections).map { UInt16(truncatingIfNeeded: $0) }
                + shifts.map { UInt16(truncatingIfNeeded: 1 << (32 - $0)) }
        }

        /// The DQT payload after the precision/index byte: steps in zig-zag order.
        var zigZagBytes: [UInt8] {
            (0..<64).map { UInt8(truncatingIfNeeded: steps[JPEG.naturalOrder[$0]]) }
        }
    }
}
