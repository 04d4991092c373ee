extension ColorTransform {
    /// The exact (double precision) conversion from device values to a destination, as
    /// LittleCMS links an input profile to an output profile (sRGB by default, its own
    /// `cmsCreate_sRGBProfile`) in `cmscnvrt.c` `DefaultICCintents`: device → PCS (the
    /// `A2Bx` LUT, else `kTRC` or the matrix/TRC tags, `cmsio1.c` `_cmsReadInputLUT`),
    /// L*a*b* → XYZ, black point compensation, then the ``Destination``'s PCS → device side.
    ///
    /// The fast kernels are built by sampling this; tests compare both against LittleCMS.
    struct Pipeline: Sendable {
        enum Source: Sendable {
            case matrixShaper(ICC.Matrix3, [ICC.Curve])
            case gray(ICC.Curve, lab: Bool)
            case lut(ICC.LUT, lab: Bool)
        }

        let source: Source
        let channels: Int
        let destination: Destination
        /// Black point compensation as y = scale·x + offset per XYZ component (identity when off).
        let compensationScale: SIMD3<Double>
        let compensationOffset: SIMD3<Double>

        /// `neutralBlackPoint` false keeps the detected black's a*, b* as LittleCMS 2.18–2.19
        /// do (their commit bb60a46 dropped the neutralisation by mistake; 6a5a890 restored it).
        init(profile: ICC.Profile, destination: Destination = .sRGB, intent: ICC.RenderingIntent,
             neutralBlackPoint: Bool = true) throws(ColorTransformError) {
            source = try Pipeline.source(profile, intent)
            channels = profile.deviceChannels ?? 3
            self.destination = destination
            // LittleCMS forces black point compensation for perceptual and saturation when either
            // profile is version 4 (`_cmsLinkProfiles`; sRGB is); never for relative colorimetric.
            let compensates = intent != .relativeColorimetric && (profile.version.major >= 4 || destination.isVersion4)
            let black = compensates ? Pipeline.blackPoint(profile, intent, neutral: neutralBlackPoint) : .zero
            let target = compensates ? destination.blackPoint : .zero
            if black != target {
                // The linear map taking the source black to the destination's and keeping D50
                // (`cmscnvrt.c` `ComputeBlackPointCompensation`).
                let d50 = ICC.XYZ.d50.vector
                let t = black - d50
                compensationScale = (target - d50) / t
                compensationOffset = -d50 * (target - black) / t
            } else {
                compensationScale = SIMD3(1, 1, 1)
                compensationOffset = .zero
            }
        }

        /// Device values (each 0…1) to D50 PCS XYZ.
        func pcs(_ device: [Double]) -> SIMD3<Double> {
            switch source {
            case .matrixShaper(let m, let curves):
                // Stage outputs in `Float`, as `cmsPipelineEvalFloat` passes them (see ``Destination/encode(_:)``).
                let linear = SIMD3(Float(curves[0].evaluate(device[0])), Float(curves[1].evaluate(device[1])),
                                   Float(curves[2].evaluate(device[2])))
                return m * SIMD3<Double>(linear)
            case .gray(let curve, let lab):
                let y = curve.evaluate(device[0])
                return lab ? ICC.XYZ.fromLab(y * 100, 0, 0) : ICC.XYZ.d50.vector * y
            case .lut(let lut, let lab):
                let v = lut.evaluate(device)
                guard v.count >= 3 else { return .zero }
                if lab {
                    // §6.3.4.2: version 4 maps 0…1 to L* 0…100 and a*, b* −128…127; mft2 keeps version 2's 0xFF00 for 100.
                    let scale = lut.isLabVersion2Encoding ? 65535.0 / 65280 : 1
                    return ICC.XYZ.fromLab(v[0] * scale * 100, v[1] * scale * 255 - 128, v[2] * scale * 255 - 128)
                }
                // §6.3.4.3: u1Fixed15, so 0xFFFF is 1 + 32767/32768.
                return SIMD3(v[0], v[1], v[2]) * (65535.0 / 32768)
            }
        }

        /// Device values to the destination's device values, each 0…1 (grey repeated in all three).
        func evaluate(_ device: [Double]) -> SIMD3<Double> {
            let xyz = pcs(device)
            guard compensationScale != SIMD3(1, 1, 1) || compensationOffset != .zero else { return destination.encode(xyz) }
            // LittleCMS's compensation is a matrix stage with an offset, which `_MultiplyMatrix` does not
            // join with its neighbours: the XYZ before and after it pass between stages as `Float`, in
            // the 1.15 encoding (§6.3.4.3). Rounding the same way keeps 16-bit results on the same words.
            let k = 32768.0 / 65535
            let before = SIMD3<Double>(SIMD3<Float>(xyz * k))
            let after = SIMD3<Double>(SIMD3<Float>(before * compensationScale + compensationOffset * k))
            return destination.encode(after / k)
        }

        private static func source(_ profile: ICC.Profile, _ intent: ICC.RenderingIntent) throws(ColorTransformError) -> Source {
            guard let channels = profile.deviceChannels, [1, 3, 4].contains(channels),
                  ["GRAY", "RGB ", "CMYK"].contains(profile.colorSpace) else {
                throw .unsupportedColorSpace(profile.colorSpace)
            }
            let lab: Bool
            switch profile.connectionSpace {
            case "Lab ": lab = true
            case "XYZ ": lab = false
            default: throw .unsupportedConnectionSpace(profile.connectionSpace)
            }
            // The intent's LUT, else the perceptual one, else the matrix/TRC model.
            if let lut = profile.deviceToPCS[intent.rawValue] ?? profile.deviceToPCS[0] {
                return .lut(lut, lab: lab)
            }
            if channels == 1, let curve = profile.grayCurve {
                return .gray(curve, lab: lab)
            }
            if channels == 3, let colorants = profile.colorants, let curves = profile.transferCurves {
                let m = ICC.Matrix3(columns: colorants.red.vector, colorants.green.vector, colorants.blue.vector)
                return .matrixShaper(m, [curves.red, curves.green, curves.blue])
            }
            throw .missingTags
        }

        /// LittleCMS's `cmsDetectBlackPoint` for an input profile: version 4 LUT
        /// profiles have the fixed perceptual black of ICC.1:2022 §7.2.19 note; the
        /// others the darkest colorant, made neutral and clipped to L* ≤ 50.
        static func blackPoint(_ profile: ICC.Profile, _ intent: ICC.RenderingIntent, neutral: Bool) -> SIMD3<Double> {
            guard !["link", "abst", "nmcl"].contains(profile.deviceClass) else { return .zero }
            let matrixShaper = profile.colorSpace == "GRAY" ? profile.grayCurve != nil : profile.isMatrixShaper
            if profile.version.major >= 4, intent != .relativeColorimetric {
                if matrixShaper { return darkestColorant(profile, .relativeColorimetric, matrixShaper, neutral) }
                return SIMD3(0.00336, 0.0034731, 0.00287)
            }
            return darkestColorant(profile, intent, matrixShaper, neutral)
        }

        private static func darkestColorant(_ profile: ICC.Profile, _ intent: ICC.RenderingIntent, _ matrixShaper: Bool,
                                            _ neutral: Bool) -> SIMD3<Double> {
            guard profile.deviceToPCS[intent.rawValue] != nil || matrixShaper,
                  let source = try? Pipeline.source(profile, intent),
                  let channels = profile.deviceChannels else { return .zero }
            // Most ink for CMYK, no light for RGB and grey.
            let device = [Double](repeating: profile.colorSpace == "CMYK" ? 1 : 0, count: channels)
            let bare = Pipeline(source: source, channels: channels)
            let lab = ICC.XYZ.toLab(bare.pcs(device))
            var l = lab.x
            if l.isNaN || l < 0 || l > 95 { l = 0 } else if l > 50 { l = 50 }
            return neutral ? ICC.XYZ.fromLab(l, 0, 0) : ICC.XYZ.fromLab(l, lab.y, lab.z)
        }

        private init(source: Source, channels: Int) {
            self.source = source
            self.channels = channels
            destination = .sRGB
            compensationScale = SIMD3(1, 1, 1)
            compensationOffset = .zero
        }
    }
}
