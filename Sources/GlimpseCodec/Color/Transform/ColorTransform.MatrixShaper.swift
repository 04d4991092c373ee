extension ColorTransform {
    /// The matrix/TRC → matrix/TRC kernel: per-channel linearisation tables, one 3×3
    /// matrix (source colorants, black point compensation and the destination's inverse
    /// colorants folded together) with an offset, then the destination's encoding tables.
    ///
    /// 8-bit samples run in 1.14 fixed point as LittleCMS's `OptimizeMatrixShaper`
    /// does (256-entry input tables, 16 385-entry output tables), which keeps
    /// results within rounding of it. 16-bit samples are evaluated in full precision,
    /// as LittleCMS's unoptimised pipeline does for sources of gamma below 1.6;
    /// ``ColorTransform`` uses that path for those alone and resamples the others
    /// as LittleCMS does.
    struct MatrixShaper: Sendable {
        /// Linear light in 1.14 fixed point for each 8-bit code, per channel.
        let input8: [[Int]]
        /// Row-major matrix and offset in 1.14 fixed point.
        let matrix14: [Int]
        let offset14: [Int]
        /// The same matrix and offset in full precision for the 16-bit path.
        let matrix: [Double]
        let offset: SIMD3<Double>
        let curves: [ICC.Curve]
        let outputCurves: [Destination.OutputCurve]
        /// The destination's encoding of linear 0…1 in 1.14 steps as 8-bit codes, per channel.
        let output8: [[UInt8]]

        /// `nil` unless the pipeline's destination is a matrix/TRC RGB profile.
        init?(pipeline: Pipeline, colorants: ICC.Matrix3, curves: [ICC.Curve]) {
            guard case .matrixShaper(let inverse, let outputCurves) = pipeline.destination.model else { return nil }
            let scale = pipeline.compensationScale
            let scaled = ICC.Matrix3(rows: colorants.rows.enumerated().map { $0.element * scale[$0.offset] })
            let combined = inverse * scaled
            let combinedOffset = inverse * pipeline.compensationOffset
            let values = combined.rows.flatMap { [$0.x, $0.y, $0.z] }
            matrix14 = values.map(MatrixShaper.fixed14)
            offset14 = [combinedOffset.x, combinedOffset.y, combinedOffset.z].map(MatrixShaper.fixed14)
            matrix = values
            offset = combinedOffset
            self.outputCurves = outputCurves
            input8 = curves.map { curve in (0...255).map { MatrixShaper.fixed14(curve.evaluate(Double($0) / 255)) } }
            self.curves = curves
            if pipeline.destination.isSRGB {
                output8 = [[UInt8]](repeating: MatrixShaper.sRGBOutput8, count: 3)
            } else {
                output8 = outputCurves.map(MatrixShaper.output8)
            }
        }

        /// `x` in 1.14 fixed point, clamped to ±8 so sums of three products cannot overflow.
        static func fixed14(_ x: Double) -> Int {
            guard !x.isNaN else { return 0 }
            return Int((min(8, max(-8, x)) * 16384).rounded())
        }

        /// An inverse TRC's encoding of linear 0…1 in 1.14 steps, as 8-bit codes. LittleCMS rounds
        /// to 16 bits first and then to 8 (`FillSecondShaper`); the same double rounding keeps ties alike.
        static func output8(_ curve: Destination.OutputCurve) -> [UInt8] {
            (0...16384).map { i in
                let word = ICC.Curve.quantize(curve.encode(Double(i) / 16384))
                return UInt8(truncatingIfNeeded: (word &* 65281 &+ 8_388_608) >> 24)
            }
        }

        /// sRGB's tables, computed once for every transform to sRGB.
        static let sRGBOutput8 = output8(Destination.OutputCurve(SRGB.curve))

        /// Converts `count` RGBA8 pixels in place; alpha is untouched.
        func apply8(_ pixels: UnsafeMutablePointer<UInt8>, count: Int) {
            output8[0].withUnsafeBufferPointer { outR in
            output8[1].withUnsafeBufferPointer { outG in
            output8[2].withUnsafeBufferPointer { outB in
                input8[0].withUnsafeBufferPointer { tr in
                    input8[1].withUnsafeBufferPointer { tg in
                        input8[2].withUnsafeBufferPointer { tb in
                            let m = matrix14, o = offset14
                            for i in 0..<count {
                                let p = pixels + i &* 4
                                // Codes index 256-entry tables; products of 1.14 values clamped to ±8 fit easily in Int.
                                let r = tr[Int(p[0])], g = tg[Int(p[1])], b = tb[Int(p[2])]
                                let l0 = (m[0] &* r &+ m[1] &* g &+ m[2] &* b &+ o[0] &+ 0x2000) >> 14
                                let l1 = (m[3] &* r &+ m[4] &* g &+ m[5] &* b &+ o[1] &+ 0x2000) >> 14
                                let l2 = (m[6] &* r &+ m[7] &* g &+ m[8] &* b &+ o[2] &+ 0x2000) >> 14
                                p[0] = outR[Int(min(16384, max(0, l0)))]
                                p[1] = outG[Int(min(16384, max(0, l1)))]
                                p[2] = outB[Int(min(16384, max(0, l2)))]
                            }
                        }
                    }
                }
            }
            }
            }
        }

        /// Converts `count` RGBA16 pixels (host order) in place, alpha untouched, evaluating
        /// every curve and the matrix in full precision as LittleCMS's unoptimised pipeline does
        /// (used for near-linear sources only, where it turns optimisation off).
        func apply16(_ pixels: UnsafeMutablePointer<UInt16>, count: Int) {
            for i in 0..<count {
                let p = pixels + i &* 4
                let r = curves[0].evaluate(Double(p[0]) / 65535), g = curves[1].evaluate(Double(p[1]) / 65535)
                let b = curves[2].evaluate(Double(p[2]) / 65535)
                for k in 0..<3 {
                    let linear = matrix[3 * k] * r + matrix[3 * k + 1] * g + matrix[3 * k + 2] * b + offset[k]
                    p[k] = UInt16(ICC.Curve.quantize(outputCurves[k].encode(linear)))
                }
            }
        }
    }
}
