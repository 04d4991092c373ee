extension ICC.Profile {
    /// A matrix/TRC RGB profile made in memory for a colour space described some other way
    /// than by an ICC profile (PNG `cHRM` and `gAMA`, H.273 code points in `cICP`), the way
    /// LittleCMS's `cmsCreateRGBProfile` builds one: the primaries scaled so that they add up
    /// to the white (SMPTE RP 177), adapted to the D50 PCS with Bradford, and one curve for
    /// all three channels. `nil` when the primaries are degenerate (a singular matrix).
    init?(primaries: Chromaticities, curve: ICC.Curve, description: String) {
        guard let colorants = ICC.Matrix3.colorants(primaries) else { return nil }
        self.init(colorants: colorants, curve: curve, description: description)
    }

    /// A matrix/TRC RGB profile with `colorants` (linear RGB to D50 XYZ) and one curve.
    init(colorants: ICC.Matrix3, curve: ICC.Curve, description: String) {
        version = (4, 3)
        deviceClass = "mntr"
        colorSpace = "RGB "
        connectionSpace = "XYZ "
        tagSignatures = ["desc", "wtpt", "rXYZ", "gXYZ", "bXYZ", "rTRC", "gTRC", "bTRC"]
        profileDescription = description
        mediaWhitePoint = .d50
        chromaticAdaptation = nil
        let columns = (0..<3).map { j in ICC.XYZ(x: colorants.rows[0][j], y: colorants.rows[1][j], z: colorants.rows[2][j]) }
        self.colorants = (columns[0], columns[1], columns[2])
        transferCurves = (curve, curve, curve)
        grayCurve = nil
        deviceToPCS = [:]
        pcsToDevice = [:]
        bytes = []
    }
}

extension ICC.Matrix3 {
    /// Linear RGB with `primaries` to D50 PCS XYZ: columns are the colorants, each scaled so
    /// that the three add up to the white, then adapted from that white to D50 with Bradford
    /// (LittleCMS's `cmsBuildRGB2XYZtransferMatrix` and `_cmsAdaptationMatrix`).
    static func colorants(_ primaries: Chromaticities) -> ICC.Matrix3? {
        guard primaries.whiteY > 0, primaries.redY > 0, primaries.greenY > 0, primaries.blueY > 0 else { return nil }
        let white = ICC.XYZ(chromaticityX: primaries.whiteX, y: primaries.whiteY)
        let matrix = ICC.Matrix3(rows: [
            SIMD3(primaries.redX, primaries.greenX, primaries.blueX),
            SIMD3(primaries.redY, primaries.greenY, primaries.blueY),
            SIMD3(1 - primaries.redX - primaries.redY, 1 - primaries.greenX - primaries.greenY,
                  1 - primaries.blueX - primaries.blueY),
        ])
        guard let inverse = matrix.inverse else { return nil }
        let scale = inverse * white.vector
        let scaled = ICC.Matrix3(rows: matrix.rows.map { $0 * scale })
        let adapted = ICC.Matrix3.bradfordAdaptation(from: white, to: .d50) * scaled
        guard adapted.rows.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }) else { return nil }
        return adapted
    }
}
