extension AVIF {
    /// The specification's mathematical functions (§4.7: Round2, Round2Signed, Clip3, Clip1,
    /// FloorLog2), used by the decoding-process primitives under `Prediction/`, `Transform/`
    /// and `Filters/`.
    ///
    /// They use wrapping operators: every caller passes values the specification bounds far
    /// below 2^62 (samples of at most 12 bits, coefficients clamped by §7.12.3, shifts below 64).
    enum AV1Arithmetic {
        /// `Round2( x, n )`: ( x + 2^(n-1) ) >> n, an arithmetic shift, so negative values round
        /// towards +infinity at the half as the specification's integer form does.
        @inline(__always)
        static func round2(_ x: Int, _ n: Int) -> Int {
            n == 0 ? x : (x &+ (1 &<< (n &- 1))) &>> n
        }

        /// `Round2Signed( x, n )`: Round2 of the magnitude, the sign restored.
        @inline(__always)
        static func round2Signed(_ x: Int, _ n: Int) -> Int {
            x >= 0 ? round2(x, n) : 0 &- round2(0 &- x, n)
        }

        /// `Clip3( x, y, z )`: z limited to x...y.
        @inline(__always)
        static func clip3(_ low: Int, _ high: Int, _ value: Int) -> Int {
            value < low ? low : (value > high ? high : value)
        }

        /// `Clip1( x )`: x limited to the sample range of `bitDepth` bits.
        @inline(__always)
        static func clip1(_ value: Int, _ bitDepth: Int) -> Int {
            clip3(0, (1 &<< bitDepth) &- 1, value)
        }

        /// `FloorLog2( x )` for x >= 1 (0 gives -1, as the specification's loop would).
        @inline(__always)
        static func floorLog2(_ x: Int) -> Int {
            x <= 0 ? -1 : (Int.bitWidth &- 1 &- x.leadingZeroBitCount)
        }

        /// `CeilLog2( x )` (§4.7): 0 for x < 2.
        static func ceilLog2(_ x: Int) -> Int {
            x < 2 ? 0 : Int.bitWidth &- (x &- 1).leadingZeroBitCount
        }
    }
}
