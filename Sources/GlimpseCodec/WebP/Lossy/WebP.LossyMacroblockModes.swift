/// The prediction modes and flags of one macroblock, read from the first
/// partition (RFC 6386 §19.3, §11), a whole macroblock row ahead of its
/// coefficients as libwebp reads them.
extension WebP {
    struct LossyMacroblockModes {
        /// Segment id (0 when the frame does not update the segment map).
        var segment = 0
        /// The `mb_skip_coeff` flag: the macroblock has no coefficients.
        var skipsCoefficients = false
        /// 4×4 sub-block prediction (`B_PRED`) rather than one 16×16 mode.
        var is4x4 = false
        /// The chroma mode (dc, tm, ve or he in ``LossyPrediction`` numbering).
        var chromaMode = 0
        /// The 16×16 luma mode, or the 16 sub-block modes in raster order.
        var lumaModes: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

        /// A 16×16 DC-predicted macroblock in segment 0, the state before any modes are read.
        init() {}

        /// Sub-block `index`'s mode (or the 16×16 mode for index 0).
        @inline(__always)
        func lumaMode(_ index: Int) -> Int {
            withUnsafeBytes(of: lumaModes) { Int($0[index]) }
        }

        /// Reads one macroblock's modes. `above` holds the sub-block modes of
        /// the four blocks above (updated in place), `left` those to the left
        /// (RFC 6386 §11.3: a 16×16 macroblock counts as its mode's sub-block equivalent).
        init(reading reader: inout LossyBoolDecoder, picture: borrowing LossyPictureHeader,
             above: UnsafeMutablePointer<UInt8>, left: UnsafeMutablePointer<UInt8>,
             subblockProbabilities: UnsafePointer<UInt8>) {
            // The bit window in locals for the whole macroblock, given back on return.
            var w = reader.window
            defer { reader.window = w }
            if picture.updatesSegmentMap {
                let p = picture.segmentProbabilities
                segment = !reader.readBit(Int(p[0]), window: &w) ? (reader.readBit(Int(p[1]), window: &w) ? 1 : 0)
                                                     : (reader.readBit(Int(p[2]), window: &w) ? 3 : 2)
            }
            if let skip = picture.skipProbability { skipsCoefficients = reader.readBit(skip, window: &w) }
            is4x4 = !reader.readBit(145, window: &w)
            typealias P = LossyPrediction
            if !is4x4 {
                let mode = reader.readBit(156, window: &w) ? (reader.readBit(128, window: &w) ? P.tm : P.he)
                                               : (reader.readBit(163, window: &w) ? P.ve : P.dc)
                lumaModes.0 = UInt8(mode)
                above.update(repeating: UInt8(mode), count: 4)
                left.update(repeating: UInt8(mode), count: 4)
            } else {
                withUnsafeMutableBytes(of: &lumaModes) { modes in
                    for y in 0..<4 {
                        var mode = Int(left[y])
                        for x in 0..<4 {
                            let prob = subblockProbabilities + (Int(above[x]) &* 10 &+ mode) &* 9
                            mode = Self.readSubblockMode(&reader, &w, prob)
                            above[x] = UInt8(truncatingIfNeeded: mode)
                            modes[y &* 4 &+ x] = UInt8(truncatingIfNeeded: mode)
                        }
                        left[y] = UInt8(truncatingIfNeeded: mode)
                    }
                }
            }
            chromaMode = !reader.readBit(142, window: &w) ? P.dc : !reader.readBit(114, window: &w) ? P.ve : reader.readBit(183, window: &w) ? P.tm : P.he
        }

        /// The sub-block mode tree of RFC 6386 §11.2 with the context's nine probabilities.
        @inline(__always)
        private static func readSubblockMode(_ reader: inout LossyBoolDecoder, _ w: inout LossyBoolDecoder.Window,
                                             _ p: UnsafePointer<UInt8>) -> Int {
            typealias P = LossyPrediction
            if !reader.readBit(Int(p[0]), window: &w) { return P.dc }
            if !reader.readBit(Int(p[1]), window: &w) { return P.tm }
            if !reader.readBit(Int(p[2]), window: &w) { return P.ve }
            if !reader.readBit(Int(p[3]), window: &w) {
                if !reader.readBit(Int(p[4]), window: &w) { return P.he }
                return reader.readBit(Int(p[5]), window: &w) ? P.vr : P.rd
            }
            if !reader.readBit(Int(p[6]), window: &w) { return P.ld }
            if !reader.readBit(Int(p[7]), window: &w) { return P.vl }
            return reader.readBit(Int(p[8]), window: &w) ? P.hu : P.hd
        }
    }
}
