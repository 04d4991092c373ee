extension AVIF {
    /// How decoded Y, Cb and Cr become R, G and B: the equations of ITU-T H.273 §8.3 chosen by
    /// the `matrix_coefficients` code point (Table 4) of the `nclx` colour property, or of the
    /// AV1 sequence header when there is none.
    enum ColorMatrix: Sendable, Equatable {
        /// E′R = Y + 2(1 − Kr)·Cr, E′B = Y + 2(1 − Kb)·Cb, E′G from the two (equations 38–40).
        case coefficients(kr: Float, kb: Float)
        /// G = Y, B = Cb, R = Cr (code point 0, equations 41–43): RGB coded as is.
        case identity
        /// YCgCo (code point 8, equations 47–50).
        case yCgCo

        /// The matrix of `matrixCoefficients`, or `nil` for one no decoder converts linearly:
        /// 3 (reserved), 10 and 13 (constant luminance), 11 (ST 2085), 14 (ICtCp), 16 and 17
        /// (the reversible YCgCo-R variants, which change the bit depth), and YCgCo in limited
        /// range (whose range scaling applies to R, G and B, not Y, Cb and Cr). libavif
        /// refuses the same set. Unspecified (2) and unknown code points use BT.601's
        /// coefficients, the default MIAF §7.3.6.4 gives an image without a colour property.
        init?(matrixCoefficients: UInt16, colorPrimaries: UInt16, isFullRange: Bool) {
            switch matrixCoefficients {
            case 0: self = .identity
            case 1: self = .coefficients(kr: 0.2126, kb: 0.0722)  // BT.709
            case 4: self = .coefficients(kr: 0.30, kb: 0.11)  // FCC
            case 5, 6: self = .coefficients(kr: 0.299, kb: 0.114)  // BT.470 BG, BT.601
            case 7: self = .coefficients(kr: 0.212, kb: 0.087)  // SMPTE 240M
            case 8:
                guard isFullRange else { return nil }
                self = .yCgCo
            case 9: self = .coefficients(kr: 0.2627, kb: 0.0593)  // BT.2020 non-constant luminance
            case 12:
                let (kr, kb) = Self.chromaticityDerived(Chromaticities(colorPrimaries: colorPrimaries) ?? ColorTransform.SRGB.primaries)
                self = .coefficients(kr: kr, kb: kb)
            case 3, 10, 11, 13, 14, 16, 17: return nil
            default:
                guard matrixCoefficients < 18 else { return nil }
                self = .coefficients(kr: 0.299, kb: 0.114)
            }
        }

        /// Kr and Kb from the primaries and white point (H.273 equations 32–37, code point 12), in
        /// single precision as libavif computes them; BT.709's primaries for unspecified and
        /// reserved code points, as libavif takes them.
        private static func chromaticityDerived(_ primaries: Chromaticities) -> (Float, Float) {
            let p = primaries
            let (rX, rY, gX, gY) = (Float(p.redX), Float(p.redY), Float(p.greenX), Float(p.greenY))
            let (bX, bY, wX, wY) = (Float(p.blueX), Float(p.blueY), Float(p.whiteX), Float(p.whiteY))
            let rZ = 1 - (rX + rY), gZ = 1 - (gX + gY), bZ = 1 - (bX + bY), wZ = 1 - (wX + wY)
            let denominator = wY * (rX * (gY * bZ - bY * gZ) + gX * (bY * rZ - rY * bZ) + bX * (rY * gZ - gY * rZ))
            let kr = rY * (wX * (gY * bZ - bY * gZ) + wY * (bX * gZ - gX * bZ) + wZ * (gX * bY - bX * gY)) / denominator
            let kb = bY * (wX * (rY * gZ - gY * rZ) + wY * (gX * rZ - rX * gZ) + wZ * (rX * gY - gX * rY)) / denominator
            return (kr, kb)
        }
    }
}
