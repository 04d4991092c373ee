extension ColorTransform {
    /// The output side of a transform: D50 PCS XYZ to device values of an RGB or grey
    /// profile, read the way LittleCMS reads an output profile (`cmsio1.c`
    /// `_cmsReadOutputLUT`): the intent's `B2Ax` LUT, else `B2A0` (ICC.1:2022 §9.2.4–9.2.6);
    /// else, for grey, `kTRC` inverted after picking Y or L* (`BuildGrayOutputPipeline`);
    /// else the colorant matrix and the `rTRC`/`gTRC`/`bTRC` curves inverted
    /// (`BuildRGBOutputMatrixShaper`, ICC.1:2022 §F.3).
    struct Destination: Sendable {
        enum Model: Sendable {
            /// PCS XYZ → linear RGB, then one encoding curve per channel (the inverse TRCs).
            case matrixShaper(ICC.Matrix3, [OutputCurve])
            /// Y (or L*/100 with a Lab PCS) through the inverse `kTRC`.
            case gray(OutputCurve, lab: Bool)
            /// A `B2Ax` LUT reading the PCS encoding of §6.3.4.
            case lut(ICC.LUT, lab: Bool)
        }

        let model: Model
        /// 3 for RGB, 1 for grey (written to all three RGBA colour samples).
        let channels: Int
        /// Whether the profile is version 4, which makes LittleCMS compensate black
        /// points for perceptual and saturation (`_cmsLinkProfiles`).
        let isVersion4: Bool
        /// `cmsDetectDestinationBlackPoint` for the intent, D50 XYZ.
        let blackPoint: SIMD3<Double>
        /// Whether this is sRGB by its colorants and curves (``SRGB/matches(_:)``).
        let isSRGB: Bool

        /// LittleCMS's own sRGB (`cmsCreate_sRGBProfile`), version 4, black at 0.
        static let sRGB = Destination(model: .matrixShaper(SRGB.inverseMatrix, [OutputCurve](repeating: OutputCurve(SRGB.curve), count: 3)),
                                      channels: 3, isVersion4: true, blackPoint: .zero, isSRGB: true)

        private init(model: Model, channels: Int, isVersion4: Bool, blackPoint: SIMD3<Double>, isSRGB: Bool) {
            self.model = model
            self.channels = channels
            self.isVersion4 = isVersion4
            self.blackPoint = blackPoint
            self.isSRGB = isSRGB
        }

        /// Reads `profile` as an output profile for `intent`.
        init(profile: ICC.Profile, intent: ICC.RenderingIntent, neutralBlackPoint: Bool = true) throws(ColorTransformError) {
            guard ["GRAY", "RGB "].contains(profile.colorSpace), let channels = profile.deviceChannels else {
                throw .unsupportedColorSpace(profile.colorSpace)
            }
            let lab: Bool
            switch profile.connectionSpace {
            case "Lab ": lab = true
            case "XYZ ": lab = false
            default: throw .unsupportedConnectionSpace(profile.connectionSpace)
            }
            if let lut = profile.pcsToDevice[intent.rawValue] ?? profile.pcsToDevice[0] {
                model = .lut(lut, lab: lab)
            } else if channels == 1, let curve = profile.grayCurve {
                model = .gray(OutputCurve(curve), lab: lab)
            } else if channels == 3, let colorants = profile.colorants, let curves = profile.transferCurves {
                let m = ICC.Matrix3(columns: colorants.red.vector, colorants.green.vector, colorants.blue.vector)
                guard let inverse = m.inverse else { throw .singularMatrix }
                model = .matrixShaper(inverse, [curves.red, curves.green, curves.blue].map(OutputCurve.init))
            } else {
                throw .missingTags
            }
            self.channels = channels
            isVersion4 = profile.version.major >= 4
            isSRGB = SRGB.matches(profile)
            // `cmsDetectDestinationBlackPoint`: version 4 profiles for perceptual and saturation
            // have the fixed perceptual black (matrix/TRC ones their darkest colorant); profiles
            // without a LUT for the intent are handled as inputs (`cmsDetectBlackPoint`). For a
            // LUT-based destination otherwise LittleCMS fits the black from an L* round trip;
            // Glimpse takes the darkest colorant there too (see the README).
            blackPoint = Pipeline.blackPoint(profile, intent, neutral: neutralBlackPoint)
        }

        /// D50 PCS XYZ to device values, each 0…1 (grey repeated in all three).
        ///
        /// What enters the last curves (or the LUT) is rounded to `Float` first: LittleCMS's
        /// sampler (`XFormSampler16` → `cmsPipelineEvalFloat`) hands `Float` between stages,
        /// and a 16-bit table curve then quantises it to 16 bits, so a value on a rounding
        /// edge lands on the same word in both, instead of one word apart (which the steep
        /// shadow end of an inverse TRC, or a `B2Ax` grid, turns into several output steps).
        func encode(_ xyz: SIMD3<Double>) -> SIMD3<Double> {
            switch model {
            case .matrixShaper(let inverse, let curves):
                let linear = SIMD3<Double>(SIMD3<Float>(inverse * xyz))
                return SIMD3(curves[0].encode(linear.x), curves[1].encode(linear.y), curves[2].encode(linear.z))
            case .gray(let curve, let lab):
                let y = Double(Float(lab ? ICC.XYZ.toLab(xyz).x / 100 : xyz.y))
                let v = curve.encode(y)
                return SIMD3(v, v, v)
            case .lut(let lut, let lab):
                var input: [Double]
                if lab {
                    let l = ICC.XYZ.toLab(xyz)
                    // §6.3.4.2; mft2 keeps version 2's 0xFF00 for L* = 100.
                    // LittleCMS's XYZ → L*a*b* stage hands version 4 encoded `Float`s to the v4 → v2 matrix stage.
                    let scale = lut.isLabVersion2Encoding ? 65280.0 / 65535 : 1
                    input = [l.x / 100, (l.y + 128) / 255, (l.z + 128) / 255].map { Double(Float($0)) * scale }
                } else {
                    // §6.3.4.3: u1Fixed15, 1.0 is 0x8000.
                    input = [xyz.x, xyz.y, xyz.z].map { $0 * 32768 / 65535 }
                }
                input = input.map { $0.isNaN ? 0 : Double(Float(min(1, max(0, $0)))) }
                // LittleCMS interpolates L*a*b*-indexed output grids trilinearly (`ChangeInterpolationToTrilinear`).
                let v = lut.evaluate(input, trilinear: lab)
                guard let first = v.first else { return .zero }
                let device = v.count >= 3 ? SIMD3(v[0], v[1], v[2]) : SIMD3(first, first, first)
                // NaN from a degenerate LUT as 0.
                return SIMD3(device.x.isNaN ? 0 : device.x, device.y.isNaN ? 0 : device.y, device.z.isNaN ? 0 : device.z)
            }
        }

    }
}

extension ColorTransform.Destination {
    /// A TRC used backwards, as LittleCMS's `cmsReverseToneCurve` turns it around: a `para`
    /// or gamma curve analytically (its negative function type), a table into a new
    /// 4 096-entry table (`cmsReverseToneCurveEx`), read like every 16-bit table.
    struct OutputCurve: Sendable {
        let forward: ICC.Curve
        /// The reversed table, for `curv` tables.
        let reversed: ICC.Curve?

        init(_ curve: ICC.Curve) {
            forward = curve
            if case .table(let entries) = curve, entries.count >= 2 {
                reversed = .table(OutputCurve.reverse(entries, samples: 4096))
            } else {
                reversed = nil
            }
        }

        /// A linear value 0…1 (clamped first, as LittleCMS's curve stages clamp) to the device value.
        func encode(_ linear: Double) -> Double {
            guard !linear.isNaN else { return 0 }
            let x = min(1, max(0, linear))
            if let reversed { return reversed.evaluate(x) }
            return forward.inverse(x)
        }

        /// `cmsReverseToneCurveEx`: for each of `samples` equally spaced outputs, the interval of
        /// the table holding it (searched from the top for a rising table, as `GetInterval` does)
        /// and the linear interpolation across it; an output no interval holds keeps the
        /// previous interval's line, a flat interval its upper end.
        static func reverse(_ table: [UInt16], samples: Int) -> [UInt16] {
            let last = table.count - 1
            let ascending = table[0] <= table[last]
            var a = 0.0, b = 0.0
            var result = [UInt16](repeating: 0, count: samples)
            for i in 0..<samples {
                let y = Double(i) * 65535 / Double(samples - 1)
                if let j = interval(y, table) {
                    let x1 = Double(table[j]), x2 = Double(table[j + 1])
                    let y1 = Double(j) * 65535 / Double(last), y2 = Double(j + 1) * 65535 / Double(last)
                    if x1 == x2 {
                        result[i] = UInt16(ICC.Curve.quantize((ascending ? y2 : y1) / 65535))
                        continue
                    }
                    a = (y2 - y1) / (x2 - x1)
                    b = y2 - a * x2
                }
                result[i] = UInt16(ICC.Curve.quantize((a * y + b) / 65535))
            }
            return result
        }

        /// `GetInterval`: the last interval holding `y` for an overall rising table, the first for a falling one.
        private static func interval(_ y: Double, _ table: [UInt16]) -> Int? {
            let last = table.count - 1
            func holds(_ i: Int) -> Bool {
                let y0 = Double(table[i]), y1 = Double(table[i + 1])
                return y0 <= y1 ? (y >= y0 && y <= y1) : (y >= y1 && y <= y0)
            }
            if table[0] < table[last] {
                return stride(from: last - 1, through: 0, by: -1).first(where: holds)
            }
            return (0..<last).first(where: holds)
        }
    }
}
