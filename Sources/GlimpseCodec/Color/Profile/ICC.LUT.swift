extension ICC {
    /// A multi-stage transform between device values and the PCS: the `mft1`
    /// (§10.10), `mft2` (§10.11), `mAB` (§10.12) and `mBA` (§10.13) tag types,
    /// read into the order their stages run in.
    ///
    /// Values between stages are normalised to 0…1 in the PCS encodings of
    /// §6.3.4 (L*a*b* or XYZ); ``isLabVersion2Encoding`` tells which L*a*b* encoding
    /// the ends use (`mft2` keeps version 2's, 0xFF00 for L* = 100).
    public struct LUT: Sendable, Hashable {
        /// One step of a LUT.
        public enum Stage: Sendable, Hashable {
            /// One curve per channel.
            case curves([Curve])
            /// y = M·x + offset on three channels.
            case matrix(Matrix3, offset: SIMD3<Double>)
            /// A multidimensional table.
            case clut(CLUT)
        }

        public let inputChannels: Int
        public let outputChannels: Int
        public let stages: [Stage]
        /// `mft2` stores L*a*b* in ICC version 2's 16-bit encoding (§6.3.4.2 of ICC.1:2001).
        public let isLabVersion2Encoding: Bool

        /// Runs every stage on `values` (`inputChannels` of them, each 0…1). `trilinear` interpolates
        /// a three-input CLUT trilinearly instead of tetrahedrally, as LittleCMS reads `B2Ax` LUTs
        /// indexed by L*a*b* (`cmsio1.c` `ChangeInterpolationToTrilinear`).
        func evaluate(_ values: [Double], trilinear: Bool = false) -> [Double] {
            var current = values
            for stage in stages {
                switch stage {
                case .curves(let curves):
                    for i in 0..<min(curves.count, current.count) {
                        current[i] = curves[i].evaluate(min(1, max(0, current[i])))
                    }
                case .matrix(let m, let offset):
                    guard current.count >= 3 else { continue }
                    let v = m * SIMD3(current[0], current[1], current[2]) + offset
                    current[0] = v.x; current[1] = v.y; current[2] = v.z
                case .clut(let table):
                    var output = [Double](repeating: 0, count: table.outputChannels)
                    table.evaluate(current, into: &output, trilinear: trilinear)
                    current = output
                }
            }
            return current
        }
    }
}
