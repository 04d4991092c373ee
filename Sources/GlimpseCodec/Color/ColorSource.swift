/// Which of an image's colour descriptions a conversion to sRGB goes through, in the order
/// of precedence PNG (Third Edition) §11.3.2 gives: `cICP` first (it overrides the rest), then
/// an ICC profile (`iCCP`, and the other formats' profiles), then `sRGB`, then `gAMA` with
/// `cHRM`.
enum ColorSource {
    /// Nothing says otherwise: sRGB by convention.
    case untagged
    /// Described as sRGB: nothing to convert.
    case sRGB
    /// An embedded ICC profile, still to be parsed.
    case iccProfile([UInt8])
    /// A description that is not a profile, as the profile it amounts to.
    case described(ICC.Profile)
    /// A description Glimpse cannot convert from (HDR transfer functions, narrow range):
    /// the pixels stay as they are.
    case unusable(String)

    init(_ metadata: ImageMetadata) {
        if let cicp = metadata.cicp {
            self = ColorSource(cicp)
        } else if let profile = metadata.iccProfile {
            self = .iccProfile(profile)
        } else if metadata.sRGBIntent != nil {
            self = .sRGB
        } else if let gamma = metadata.gamma {
            self = ColorSource(gamma: gamma, chromaticities: metadata.chromaticities)
        } else {
            self = .untagged
        }
    }

    /// PNG `gAMA` (§11.3.3.2: the encoding exponent) with `cHRM` (§11.3.3.1), or Rec. 709
    /// primaries without one. A gamma within 0.0005 of 1/2.2 on sRGB's primaries is taken for
    /// sRGB, as browsers take it, since that is what such files were written to mean.
    init(gamma: Double, chromaticities: Chromaticities?) {
        let primaries = chromaticities ?? ColorTransform.SRGB.primaries
        let srgbPrimaries = ColorSource.matches(primaries, ColorTransform.SRGB.primaries)
        guard gamma > 0, gamma.isFinite else {
            self = .unusable("gAMA \(gamma)")
            return
        }
        if srgbPrimaries, abs(gamma - 1 / 2.2) <= 0.0005 {
            self = .sRGB
            return
        }
        let curve = abs(gamma - 1) < 1e-9 ? ICC.Curve.identity : .gamma(1 / gamma)
        guard let profile = ICC.Profile(primaries: primaries, curve: curve, description: "PNG gAMA/cHRM") else {
            self = .unusable("cHRM primaries are degenerate")
            return
        }
        self = .described(profile)
    }

    /// H.273 code points (PNG `cICP`, §11.3.2.6; AVIF `nclx`) for the primaries (Table 2) and
    /// transfer characteristics (Table 3) of SDR content; the matrix coefficients concern the
    /// decoder's YUV to RGB step, done before this.
    init(_ cicp: CodingIndependentCodePoints) {
        guard cicp.isFullRange else {
            self = .unusable("cICP narrow range")
            return
        }
        guard let primaries = Chromaticities(colorPrimaries: cicp.colorPrimaries) else {
            self = .unusable("cICP colour primaries \(cicp.colorPrimaries)")
            return
        }
        let curve: ICC.Curve
        switch cicp.transferCharacteristics {
        case 13: curve = ColorTransform.SRGB.curve
        case 1, 6, 14, 15:
            // The BT.709 OETF inverted (the same curve for BT.601 and BT.2020 at 10 and 12 bits).
            curve = .parametric(.init(function: 3, g: 1 / 0.45, a: 1 / 1.099, b: 0.099 / 1.099, c: 1 / 4.5, d: 0.081))
        case 4: curve = .gamma(2.2)
        case 5: curve = .gamma(2.8)
        case 8: curve = .identity
        default:
            // 16 (PQ) and 18 (HLG) are HDR: mapping them into sRGB needs tone mapping.
            self = .unusable("cICP transfer characteristics \(cicp.transferCharacteristics)")
            return
        }
        if cicp.colorPrimaries == 1, cicp.transferCharacteristics == 13 {
            self = .sRGB
        } else if let profile = ICC.Profile(primaries: primaries, curve: curve, description: "cICP \(cicp)") {
            self = .described(profile)
        } else {
            self = .unusable("cICP \(cicp)")
        }
    }

    private static func matches(_ a: Chromaticities, _ b: Chromaticities) -> Bool {
        let pairs = [(a.whiteX, b.whiteX), (a.whiteY, b.whiteY), (a.redX, b.redX), (a.redY, b.redY),
                     (a.greenX, b.greenX), (a.greenY, b.greenY), (a.blueX, b.blueX), (a.blueY, b.blueY)]
        return pairs.allSatisfy { abs($0.0 - $0.1) <= 0.001 }
    }
}
