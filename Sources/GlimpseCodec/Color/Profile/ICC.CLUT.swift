extension ICC {
    /// A colour lookup table (§10.12.3): a grid over the inputs, each node holding
    /// `outputChannels` 16-bit samples (8-bit grids are widened ×257 as LittleCMS does).
    ///
    /// Interpolation follows LittleCMS (`cmsintrp.c`): tetrahedral for three
    /// inputs (trilinear on request), linear for one, bilinear for two, and for four
    /// or more a linear blend along the first input of two interpolations over the rest.
    public struct CLUT: Sendable, Hashable {
        /// Grid points along each input, first input first.
        public let gridPoints: [Int]
        /// Samples per node.
        public let outputChannels: Int
        /// Node samples, the first input varying slowest.
        public let samples: [UInt16]
        /// Samples between neighbouring nodes along each input.
        let strides: [Int]

        /// Returns `nil` when `samples` does not hold every node.
        init?(gridPoints: [Int], outputChannels: Int, samples: [UInt16]) {
            var strides = [Int](repeating: outputChannels, count: gridPoints.count)
            var total = outputChannels
            for i in stride(from: gridPoints.count - 1, through: 0, by: -1) {
                strides[i] = total
                total *= gridPoints[i]
            }
            guard total == samples.count, gridPoints.allSatisfy({ $0 >= 2 }) else { return nil }
            self.gridPoints = gridPoints
            self.outputChannels = outputChannels
            self.samples = samples
            self.strides = strides
        }

        /// Interpolates at `input` (each 0…1, clamped; rounded to 16 bits first as
        /// LittleCMS's 16-bit CLUT stages do) and writes 0…1 values to `output`.
        func evaluate(_ input: [Double], into output: inout [Double], trilinear: Bool = false) {
            var position = [Double](repeating: 0, count: gridPoints.count)
            for i in 0..<gridPoints.count {
                let word = Curve.quantize(i < input.count ? input[i] : 0)
                position[i] = Double(word) * Double(gridPoints[i] - 1) / 65535
            }
            var result = [Double](repeating: 0, count: outputChannels)
            interpolate(position, dimension: 0, base: 0, usesTetrahedra: !trilinear, into: &result)
            if output.count != outputChannels { output = [Double](repeating: 0, count: outputChannels) }
            for k in 0..<outputChannels { output[k] = min(65535, max(0, result[k].rounded())) / 65535 }
        }

        /// The cell along input `dimension` holding `position`: its lower node and the weight of the upper one.
        private func cell(_ position: Double, _ dimension: Int) -> (low: Int, high: Int, rest: Double) {
            let last = gridPoints[dimension] - 1
            let low = min(last, max(0, Int(position)))
            let high = min(last, low + 1)
            return (low, high, position - Double(low))
        }

        /// Multilinear along each input, down to the last three, which are tetrahedral when `usesTetrahedra` is set.
        private func interpolate(_ position: [Double], dimension: Int, base: Int, usesTetrahedra: Bool, into result: inout [Double]) {
            let remaining = gridPoints.count - dimension
            if remaining == 3, usesTetrahedra {
                tetrahedral(position, dimension: dimension, base: base, into: &result)
                return
            }
            let (low, high, rest) = cell(position[dimension], dimension)
            let stride = strides[dimension]
            if remaining == 1 {
                for k in 0..<outputChannels {
                    let y0 = Double(samples[base + low * stride + k]), y1 = Double(samples[base + high * stride + k])
                    result[k] = y0 + (y1 - y0) * rest
                }
                return
            }
            var lower = [Double](repeating: 0, count: outputChannels)
            var upper = lower
            interpolate(position, dimension: dimension + 1, base: base + low * stride, usesTetrahedra: usesTetrahedra, into: &lower)
            interpolate(position, dimension: dimension + 1, base: base + high * stride, usesTetrahedra: usesTetrahedra, into: &upper)
            for k in 0..<outputChannels { result[k] = lower[k] + (upper[k] - lower[k]) * rest }
        }

        /// Sakamoto's tetrahedral interpolation over the last three inputs.
        private func tetrahedral(_ position: [Double], dimension: Int, base: Int, into result: inout [Double]) {
            let (x0, x1, rx) = cell(position[dimension], dimension)
            let (y0, y1, ry) = cell(position[dimension + 1], dimension + 1)
            let (z0, z1, rz) = cell(position[dimension + 2], dimension + 2)
            let sx = strides[dimension], sy = strides[dimension + 1], sz = strides[dimension + 2]
            let origin = base + x0 * sx + y0 * sy + z0 * sz
            let dx = (x1 - x0) * sx, dy = (y1 - y0) * sy, dz = (z1 - z0) * sz
            let (a, b, c) = ICC.tetrahedronAxes(rx, ry, rz)
            let d = SIMD3(dx, dy, dz), r = SIMD3(rx, ry, rz)
            let (first, second, third, w1, w2, w3) = (d[a], d[b], d[c], r[a], r[b], r[c])
            for k in 0..<outputChannels {
                let c0 = Double(samples[origin + k])
                let c1 = Double(samples[origin + first + k])
                let c2 = Double(samples[origin + first + second + k])
                let c3 = Double(samples[origin + first + second + third + k])
                result[k] = c0 + (c1 - c0) * w1 + (c2 - c1) * w2 + (c3 - c2) * w3
            }
        }
    }
}

extension ICC {
    /// The axes of a grid cell in decreasing order of the point's fractions along
    /// them: which of Sakamoto's six tetrahedra holds it (shared by profile CLUTs
    /// and the resampled transform grid).
    @inline(__always)
    static func tetrahedronAxes<T: Comparable>(_ rx: T, _ ry: T, _ rz: T) -> (Int, Int, Int) {
        if rx >= ry {
            if ry >= rz { return (0, 1, 2) }
            return rx >= rz ? (0, 2, 1) : (2, 0, 1)
        }
        if rx >= rz { return (1, 0, 2) }
        return ry >= rz ? (1, 2, 0) : (2, 1, 0)
    }
}
