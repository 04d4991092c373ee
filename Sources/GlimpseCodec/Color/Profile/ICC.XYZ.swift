extension ICC {
    /// A CIE XYZ colour with Y = 1 for the white (`XYZNumber`, §4.14; the `XYZ` tag type, §10.31).
    public struct XYZ: Sendable, Hashable {
        public var x, y, z: Double

        public init(x: Double, y: Double, z: Double) {
            self.x = x; self.y = y; self.z = z
        }

        /// The PCS illuminant D50 as ICC.1:2022 §7.2.16 encodes it (and LittleCMS's `cmsD50_XYZ`).
        public static let d50 = XYZ(x: 0.9642, y: 1.0, z: 0.8249)

        /// From CIE xy chromaticity with luminance Y.
        public init(chromaticityX cx: Double, y cy: Double, luminance: Double = 1) {
            x = cx / cy * luminance
            y = luminance
            z = (1 - cx - cy) / cy * luminance
        }

        var vector: SIMD3<Double> { SIMD3(x, y, z) }
        init(_ v: SIMD3<Double>) { self.init(x: v.x, y: v.y, z: v.z) }

        /// CIE L*a*b* (relative to D50) to XYZ, CIE 15:2004 §8.2.1.
        static func fromLab(_ l: Double, _ a: Double, _ b: Double) -> SIMD3<Double> {
            let fy = (l + 16) / 116
            let fx = fy + a / 500
            let fz = fy - b / 200
            func inverse(_ t: Double) -> Double {
                t > 24.0 / 116 ? t * t * t : 108.0 / 841 * (t - 16.0 / 116)
            }
            return SIMD3(inverse(fx) * d50.x, inverse(fy) * d50.y, inverse(fz) * d50.z)
        }

        /// XYZ (D50-relative) to CIE L*a*b*.
        static func toLab(_ xyz: SIMD3<Double>) -> SIMD3<Double> {
            func f(_ t: Double) -> Double {
                t <= 216.0 / 24389 ? 841.0 / 108 * t + 16.0 / 116 : Math.cbrt(t)
            }
            let fx = f(xyz.x / d50.x), fy = f(xyz.y / d50.y), fz = f(xyz.z / d50.z)
            return SIMD3(116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
        }
    }

    /// A 3×3 matrix stored row by row, as the `chad` tag (§9.2.15) and colorant matrices use it.
    public struct Matrix3: Sendable, Hashable {
        public var rows: [SIMD3<Double>]

        public init(rows: [SIMD3<Double>]) {
            self.rows = rows.count == 3 ? rows : Matrix3.identity.rows
        }

        /// Row-major nine values.
        public init(_ v: [Double]) {
            self.init(rows: v.count == 9
                      ? [SIMD3(v[0], v[1], v[2]), SIMD3(v[3], v[4], v[5]), SIMD3(v[6], v[7], v[8])]
                      : Matrix3.identity.rows)
        }

        /// A matrix whose columns are `a`, `b` and `c` (colorants: red, green, blue).
        init(columns a: SIMD3<Double>, _ b: SIMD3<Double>, _ c: SIMD3<Double>) {
            rows = [SIMD3(a.x, b.x, c.x), SIMD3(a.y, b.y, c.y), SIMD3(a.z, b.z, c.z)]
        }

        public static let identity = Matrix3(rows: [SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)])

        static func * (m: Matrix3, v: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3((m.rows[0] * v).sum(), (m.rows[1] * v).sum(), (m.rows[2] * v).sum())
        }

        static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
            let columns = (0..<3).map { j in SIMD3(b.rows[0][j], b.rows[1][j], b.rows[2][j]) }
            return Matrix3(rows: a.rows.map { row in SIMD3((row * columns[0]).sum(), (row * columns[1]).sum(), (row * columns[2]).sum()) })
        }

        /// The inverse, or `nil` when the determinant is (nearly) zero.
        var inverse: Matrix3? {
            let r0 = rows[0], r1 = rows[1], r2 = rows[2]
            let c0 = SIMD3(r1.y * r2.z - r1.z * r2.y, r1.z * r2.x - r1.x * r2.z, r1.x * r2.y - r1.y * r2.x)
            let determinant = (r0 * c0).sum()
            guard determinant.isFinite, abs(determinant) > 1e-12 else { return nil }
            let c1 = SIMD3(r0.z * r2.y - r0.y * r2.z, r0.x * r2.z - r0.z * r2.x, r0.y * r2.x - r0.x * r2.y)
            let c2 = SIMD3(r0.y * r1.z - r0.z * r1.y, r0.z * r1.x - r0.x * r1.z, r0.x * r1.y - r0.y * r1.x)
            return Matrix3(columns: c0 / determinant, c1 / determinant, c2 / determinant)
        }

        /// The Bradford cone response matrix (Lam 1985), LittleCMS's default for chromatic adaptation.
        static let bradford = Matrix3([0.8951, 0.2664, -0.1614, -0.7502, 1.7135, 0.0367, 0.0389, -0.0685, 1.0296])

        /// Von Kries adaptation in Bradford cone space from `source` white to `destination` white.
        static func bradfordAdaptation(from source: XYZ, to destination: XYZ) -> Matrix3 {
            let cones = bradford
            guard let inverseCones = cones.inverse else { return identity }
            let s = cones * source.vector, d = cones * destination.vector
            let scale = d / s
            let diagonal = Matrix3(rows: [SIMD3(scale.x, 0, 0), SIMD3(0, scale.y, 0), SIMD3(0, 0, scale.z)])
            return inverseCones * (diagonal * cones)
        }
    }
}
