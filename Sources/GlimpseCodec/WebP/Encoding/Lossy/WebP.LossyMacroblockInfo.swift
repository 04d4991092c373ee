/// What the mode decision chose for one macroblock, kept until the
/// macroblock's header and tokens are written (RFC 6386 §19.3).
extension WebP {
    struct LossyMacroblockInfo: Sendable {
        var segment: UInt8 = 0
        /// `B_PRED`: sixteen 4×4 modes, else one 16×16 mode.
        var is4x4 = false
        /// The 16×16 mode, or the sub-block modes in raster order (``LossyPrediction`` numbering).
        var lumaModes: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var chromaMode: UInt8 = 0
        /// Every level is zero: the macroblock can be skipped (`mb_skip_coeff`).
        var hasNoCoefficients = false

        func lumaMode(_ index: Int) -> Int { withUnsafeBytes(of: lumaModes) { Int($0[index]) } }
        mutating func setLumaMode(_ index: Int, _ mode: Int) {
            withUnsafeMutableBytes(of: &lumaModes) { $0[index] = UInt8(truncatingIfNeeded: mode) }
        }
    }

    /// Block layout of a macroblock's levels: 16 luma, 4 U, 4 V, then Y2; 16 levels each in zigzag order.
    enum LossyBlocks {
        static let perMacroblock = 25
        static let u = 16, v = 20, y2 = 24
        static let levelsPerMacroblock = perMacroblock * 16
    }
}
