extension ColorTransform {
    /// sRGB (IEC 61966-2-1) built the way LittleCMS's `cmsCreate_sRGBProfile`
    /// builds it, in full double precision: Rec. 709 primaries and the D65 white
    /// adapted to the D50 PCS with Bradford, and the piecewise transfer function
    /// as `para` function 3.
    enum SRGB {
        /// The linear-light transfer curve: γ 2.4, a = 1/1.055, b = 0.055/1.055, c = 1/12.92, d = 0.04045.
        static let curve = ICC.Curve.parametric(.init(function: 3, g: 2.4, a: 1 / 1.055, b: 0.055 / 1.055, c: 1 / 12.92, d: 0.04045))

        /// Linear sRGB to D50 PCS XYZ: columns are the adapted colorants.
        static let colorantMatrix: ICC.Matrix3 = ICC.Matrix3.colorants(primaries) ?? .identity

        /// Rec. 709 primaries and the D65 white.
        static let primaries = Chromaticities(whiteX: 0.3127, whiteY: 0.3290, redX: 0.64, redY: 0.33,
                                              greenX: 0.30, greenY: 0.60, blueX: 0.15, blueY: 0.06)

        /// sRGB as a matrix/TRC profile (the source of untagged images converted to another profile).
        static let profile = ICC.Profile(colorants: colorantMatrix, curve: curve, description: "sRGB")

        /// D50 PCS XYZ to linear sRGB.
        static let inverseMatrix: ICC.Matrix3 = colorantMatrix.inverse ?? .identity

        /// Whether `profile` describes sRGB within what its fixed-point encoding allows:
        /// colorants within 0.001 of sRGB's and transfer curves within 1/1024 at every
        /// 8-bit code. Such sources need no conversion whatever their name.
        static func matches(_ profile: ICC.Profile) -> Bool {
            guard profile.colorSpace == "RGB ", profile.deviceToPCS.isEmpty,
                  let colorants = profile.colorants, let curves = profile.transferCurves else { return false }
            let matrix = ICC.Matrix3(columns: colorants.red.vector, colorants.green.vector, colorants.blue.vector)
            for (row, reference) in zip(matrix.rows, colorantMatrix.rows) {
                let d = row - reference
                guard max(abs(d.x), abs(d.y), abs(d.z)) <= 0.001 else { return false }
            }
            for curve in [curves.red, curves.green, curves.blue] {
                for code in 0...255 {
                    let x = Double(code) / 255
                    if abs(curve.evaluate(x) - SRGB.curve.evaluate(x)) > 1.0 / 1024 { return false }
                }
            }
            return true
        }
    }
}
