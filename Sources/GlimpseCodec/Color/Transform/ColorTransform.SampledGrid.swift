extension ColorTransform {
    /// A whole device → sRGB conversion resampled into one CLUT of 16-bit
    /// sRGB values, as LittleCMS's `OptimizeByResampling` does for grey (33
    /// points), CMYK (17⁴) and LUT-based RGB (33³) sources, then interpolated
    /// per pixel: linear for grey, tetrahedral for RGB, and for CMYK a linear
    /// blend along cyan between two tetrahedral interpolations over M, Y, K
    /// (`cmsintrp.c` `Eval4Inputs`).
    struct SampledGrid: Sendable {
        let inputs: Int
        let points: Int
        /// Three samples per node, the first input varying slowest.
        let samples: [UInt16]
        /// Samples between neighbouring nodes along each input.
        let strides: [Int]

        init(pipeline: Pipeline) {
            let inputs = pipeline.channels, points = inputs == 4 ? 17 : 33
            self.inputs = inputs
            self.points = points
            var strides = [Int](repeating: 3, count: inputs)
            var total = 3
            for i in stride(from: inputs - 1, through: 0, by: -1) {
                strides[i] = total
                total *= points
            }
            self.strides = strides
            var samples = [UInt16](repeating: 0, count: total)
            let nodes = total / 3
            // Node coordinates rounded to 16 bits, as `cmsStageSampleCLut16bit` hands them to the sampler.
            // and `XFormSampler16` to the pipeline as `Float`.
            let coordinates = (0..<points).map { Double(Float(Double(($0 * 65535 + (points - 1) / 2) / (points - 1)) / 65535)) }
            var device = [Double](repeating: 0, count: inputs)
            for node in 0..<nodes {
                var rest = node
                for i in stride(from: inputs - 1, through: 0, by: -1) {
                    device[i] = coordinates[rest % points]
                    rest /= points
                }
                let rgb = pipeline.evaluate(device)
                samples[node * 3] = UInt16(ICC.Curve.quantize(rgb.x))
                samples[node * 3 + 1] = UInt16(ICC.Curve.quantize(rgb.y))
                samples[node * 3 + 2] = UInt16(ICC.Curve.quantize(rgb.z))
            }
            // Device white lands exactly on a node; make it exactly sRGB white unless it is far off
            // (LittleCMS's `FixWhiteMisalignment`, which avoids a tinted paper white).
            let whiteNode = inputs == 4 ? 0 : nodes - 1
            let white = (0..<3).map { samples[whiteNode * 3 + $0] }
            if white.allSatisfy({ 65535 - Int($0) <= 0xF000 }) {
                for k in 0..<3 { samples[whiteNode * 3 + k] = 65535 }
            }
            self.samples = samples
        }

        /// Interpolates at device values given as grid positions (0…points−1), returning 16-bit-scaled sRGB.
        func interpolate(_ s: UnsafePointer<UInt16>, _ position: SIMD4<Float>) -> SIMD3<Float> {
            switch inputs {
            case 1:
                let (low, high, rest) = cell(position[0])
                let a = node(s, low * strides[0]), b = node(s, high * strides[0])
                return a + (b - a) * rest
            case 3:
                return tetrahedral(s, base: 0, position[0], position[1], position[2], first: 0)
            default:
                let (low, high, rest) = cell(position[0])
                let a = tetrahedral(s, base: low * strides[0], position[1], position[2], position[3], first: 1)
                let b = tetrahedral(s, base: high * strides[0], position[1], position[2], position[3], first: 1)
                return a + (b - a) * rest
            }
        }

        @inline(__always)
        private func node(_ s: UnsafePointer<UInt16>, _ at: Int) -> SIMD3<Float> {
            SIMD3(Float(s[at]), Float(s[at + 1]), Float(s[at + 2]))
        }

        @inline(__always)
        private func cell(_ position: Float) -> (Int, Int, Float) {
            let low = min(points - 1, max(0, Int(position)))
            return (low, min(points - 1, low + 1), position - Float(low))
        }

        /// Tetrahedral interpolation over inputs `first`, `first+1`, `first+2` from node offset `base`.
        @inline(__always)
        private func tetrahedral(_ s: UnsafePointer<UInt16>, base: Int, _ px: Float, _ py: Float, _ pz: Float, first: Int) -> SIMD3<Float> {
            let (x0, x1, rx) = cell(px), (y0, y1, ry) = cell(py), (z0, z1, rz) = cell(pz)
            let sx = strides[first], sy = strides[first + 1], sz = strides[first + 2]
            let origin = base + x0 * sx + y0 * sy + z0 * sz
            let dx = (x1 - x0) * sx, dy = (y1 - y0) * sy, dz = (z1 - z0) * sz
            let (i, j, k) = ICC.tetrahedronAxes(rx, ry, rz)
            let d = SIMD3(dx, dy, dz), r = SIMD3(rx, ry, rz)
            let (a, b, c, wa, wb, wc) = (d[i], d[j], d[k], r[i], r[j], r[k])
            let c0 = node(s, origin), c1 = node(s, origin + a), c2 = node(s, origin + a + b), c3 = node(s, origin + a + b + c)
            return c0 + (c1 - c0) * wa + (c2 - c1) * wb + (c3 - c2) * wc
        }

        /// A 16-bit-scaled value to an 8-bit code as LittleCMS's `FROM_16_TO_8` (round half up of w/257).
        @inline(__always)
        static func code8(_ value: Float) -> UInt8 {
            let word = Int(min(65535, max(0, value + 0.5)))
            return UInt8(truncatingIfNeeded: (word &* 65281 &+ 8_388_608) >> 24)
        }
    }
}
