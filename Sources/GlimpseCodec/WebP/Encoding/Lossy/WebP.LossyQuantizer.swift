/// Quantisation of one kind of block (Y, Y2 or chroma) for one segment: the
/// step sizes the decoder multiplies by (RFC 6386 §14.1, as libwebp and
/// ``WebP/LossyPictureHeader`` derive them from the quantiser index) and the
/// rounding the encoder uses to reach them.
extension WebP {
    struct LossyQuantizer: Sendable {
        /// Step of the DC (scan position 0) and of the AC coefficients.
        let dc: Int32
        let ac: Int32
        /// 2¹⁷ / step, so that a division is a multiply and a shift.
        private let dcReciprocal: Int64
        private let acReciprocal: Int64
        /// Added before truncation, in 2⁻¹⁷ units of a step: below one half, a dead zone
        /// that drops coefficients barely over half a step (they cost more bits than they save error).
        private let dcRounding: Int64
        private let acRounding: Int64

        /// The largest level the token alphabet carries comfortably (DCT_CAT6 reaches 2 114).
        static let maxLevel: Int32 = 2047

        init(dc: Int32, ac: Int32, dcRounding: Double, acRounding: Double) {
            self.dc = dc
            self.ac = ac
            dcReciprocal = (Int64(1) << 17) / Int64(dc)
            acReciprocal = (Int64(1) << 17) / Int64(ac)
            self.dcRounding = Int64(dcRounding * Double(1 << 17))
            self.acRounding = Int64(acRounding * Double(1 << 17))
        }

        /// The three quantisers of quantiser index `q` (0…127), with the decoder's scaling:
        /// Y2 DC ×2, Y2 AC ×155/100 (at least 8), chroma DC at most 132.
        /// Chroma DC is quantised two indices finer than the rest (written as the frame's
        /// `uv_dc_delta`, §9.6): flat colour errors are what the eye notices in chroma.
        static let chromaDCDelta = -2

        static func set(index q: Int) -> (y1: LossyQuantizer, y2: LossyQuantizer, uv: LossyQuantizer) {
            func dc(_ i: Int, max: Int = 127) -> Int32 { Int32(LossyTables.dcQuantizer[min(Swift.max(i, 0), max)]) }
            func ac(_ i: Int) -> Int32 { Int32(LossyTables.acQuantizer[min(Swift.max(i, 0), 127)]) }
            let y2ac = Swift.max((ac(q) &* 101_581) >> 16, 8)
            return (LossyQuantizer(dc: dc(q), ac: ac(q), dcRounding: 0.375, acRounding: 0.40),
                    LossyQuantizer(dc: dc(q) * 2, ac: y2ac, dcRounding: 0.375, acRounding: 0.40),
                    LossyQuantizer(dc: dc(q + chromaDCDelta, max: 117), ac: ac(q), dcRounding: 0.42, acRounding: 0.44))
        }

        /// Quantises `coefficients` (raster order) from scan position `first`: levels in
        /// zigzag order into `levels`, the values the decoder will reconstruct (level × step,
        /// raster order) into `dequantized`. Returns the scan position of the last non-zero
        /// level, or −1.
        @inline(__always)
        func quantize(_ coefficients: UnsafePointer<Int32>, first: Int,
                      levels: UnsafeMutablePointer<Int16>, dequantized: UnsafeMutablePointer<Int16>) -> Int {
            var last = -1
            if first > 0 {
                levels[0] = 0
                dequantized[0] = 0
            }
            for n in first..<16 {
                let position = LossyTables.zigzag[n]
                let c = coefficients[position]
                let magnitude = Int64(c < 0 ? 0 &- c : c)
                let (step, reciprocal, rounding) = n == 0 ? (dc, dcReciprocal, dcRounding) : (ac, acReciprocal, acRounding)
                var level = Int32(truncatingIfNeeded: (magnitude &* reciprocal &+ rounding) &>> 17)
                if level > Self.maxLevel { level = Self.maxLevel }
                if level != 0 {
                    last = n
                    if c < 0 { level = 0 &- level }
                }
                levels[n] = Int16(truncatingIfNeeded: level)
                dequantized[position] = Int16(truncatingIfNeeded: level &* step)
            }
            return last
        }

        /// The quantiser index (0…127, smaller is finer) for cwebp's `quality` 0…100:
        /// quality maps linearly to a compression factor c (steeper above 75), and
        /// the index is 127·(1 − c^(1/3)), as libwebp's `VP8SetSegmentParams` does without segments.
        static func index(quality: Int) -> Int {
            let c = compression(quality: quality)
            return min(max(Int(127 * (1 - c)), 0), 127)
        }

        /// cwebp's compression factor for `quality`, before the cube root's complement makes it an index.
        static func compression(quality: Int) -> Double {
            let q = Double(min(max(quality, 0), 100)) / 100
            let linear = q < 0.75 ? q * 2 / 3 : 2 * q - 1
            return linear > 0 ? ScalarMath.power(linear, 1.0 / 3) : 0
        }

        /// The loop-filter level for a quantiser: about 0.45 of the AC step, the strength at
        /// which block edges of that step size are smoothed without blurring texture (RFC 6386 §15.2;
        /// cwebp's default `-f 60` lands close to it), 0 below 2.
        static func filterLevel(index q: Int) -> Int {
            let step = Int(LossyTables.acQuantizer[min(max(q, 0), 127)])
            let level = (step * 45 + 50) / 100
            return level < 2 ? 0 : min(level, 63)
        }
    }
}
