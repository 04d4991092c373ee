/// The forward transforms that pair with the decoder's inverses
/// (``WebP/LossyTransform``, RFC 6386 §14.3–14.4).
///
/// The 4×4 DCT is the integer transform VP8 encoders use (the inverse's
/// cos/sin multipliers as 2217/4096 and 5352/4096 with √2 folded in): a block of
/// constant residue r gives the DC 8r, which the inverse's `(dc + 4) >> 3` turns
/// back into r. The Walsh–Hadamard transform is M·x·M/2 with the inverse's own
/// matrix M (symmetric, M·M = 4I), so the inverse's M·X·M/8 returns x.
extension WebP {
    enum LossyForwardTransform {
        /// The DCT of `source − prediction` (4×4 blocks, rows `sourceStride` and
        /// `predictionStride` apart) into `out`, 16 coefficients in raster order.
        static func dct(source: UnsafePointer<UInt8>, sourceStride: Int,
                        prediction: UnsafePointer<UInt8>, predictionStride: Int,
                        into out: UnsafeMutablePointer<Int32>) {
            var t = (Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0),
                     Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0))
            withUnsafeMutableBytes(of: &t) { raw in
                // The tuple is 16 contiguous Int32 (homogeneous tuples are laid out like C arrays).
                guard let tmp = raw.baseAddress?.assumingMemoryBound(to: Int32.self) else { return }
                // Rows: residues of at most ±255, so every product below fits easily in Int32.
                for row in 0..<4 {
                    let s = source + row &* sourceStride, p = prediction + row &* predictionStride
                    let d0 = Int32(s[0]) &- Int32(p[0]), d1 = Int32(s[1]) &- Int32(p[1])
                    let d2 = Int32(s[2]) &- Int32(p[2]), d3 = Int32(s[3]) &- Int32(p[3])
                    let even0 = d0 &+ d3, even1 = d1 &+ d2
                    let odd0 = d0 &- d3, odd1 = d1 &- d2
                    tmp[row &* 4] = (even0 &+ even1) &* 8
                    tmp[row &* 4 &+ 2] = (even0 &- even1) &* 8
                    tmp[row &* 4 &+ 1] = (odd0 &* 5352 &+ odd1 &* 2217 &+ 1812) &>> 9
                    tmp[row &* 4 &+ 3] = (odd0 &* 2217 &- odd1 &* 5352 &+ 937) &>> 9
                }
                // Columns, with the final scale and rounding.
                for column in 0..<4 {
                    let even0 = tmp[column] &+ tmp[12 &+ column], even1 = tmp[4 &+ column] &+ tmp[8 &+ column]
                    let odd0 = tmp[column] &- tmp[12 &+ column], odd1 = tmp[4 &+ column] &- tmp[8 &+ column]
                    out[column] = (even0 &+ even1 &+ 7) &>> 4
                    out[8 &+ column] = (even0 &- even1 &+ 7) &>> 4
                    out[4 &+ column] = ((odd0 &* 5352 &+ odd1 &* 2217 &+ 12000) &>> 16) &+ (odd0 != 0 ? 1 : 0)
                    out[12 &+ column] = (odd0 &* 2217 &- odd1 &* 5352 &+ 51000) &>> 16
                }
            }
        }

        /// The Walsh–Hadamard transform of the 16 luma DCs (`dcs[i]` is block i's, raster order) into `out`.
        static func wht(_ dcs: UnsafePointer<Int32>, into out: UnsafeMutablePointer<Int32>) {
            var t = [Int32](repeating: 0, count: 16)
            // M has rows (1 1 1 1), (1 1 −1 −1), (1 −1 −1 1), (1 −1 1 −1).
            for row in 0..<4 {
                let x0 = dcs[row &* 4], x1 = dcs[row &* 4 &+ 1], x2 = dcs[row &* 4 &+ 2], x3 = dcs[row &* 4 &+ 3]
                let a0 = x0 &+ x3, a1 = x1 &+ x2, a2 = x1 &- x2, a3 = x0 &- x3
                t[row &* 4] = a0 &+ a1
                t[row &* 4 &+ 1] = a3 &+ a2
                t[row &* 4 &+ 2] = a0 &- a1
                t[row &* 4 &+ 3] = a3 &- a2
            }
            for column in 0..<4 {
                let x0 = t[column], x1 = t[4 &+ column], x2 = t[8 &+ column], x3 = t[12 &+ column]
                let a0 = x0 &+ x3, a1 = x1 &+ x2, a2 = x1 &- x2, a3 = x0 &- x3
                out[column] = (a0 &+ a1) &>> 1
                out[4 &+ column] = (a3 &+ a2) &>> 1
                out[8 &+ column] = (a0 &- a1) &>> 1
                out[12 &+ column] = (a3 &- a2) &>> 1
            }
        }
    }
}
