extension AVIF {
    /// The film grain synthesis process (§7.18.3): noise generated from `film_grain_params`
    /// by an auto-regressive filter over Gaussian white noise, scaled by a piecewise-linear
    /// function of the sample values and added to the output planes.
    struct FilmGrain: Sendable {
        /// `film_grain_params` (§5.9.30), the values as coded.
        struct Parameters: Sendable, Equatable {
            var grainSeed: Int
            /// `point_y_value[ ]`, `point_y_scaling[ ]` (num_y_points entries each), likewise cb and cr.
            var pointYValue: [Int] = []
            var pointYScaling: [Int] = []
            var chromaScalingFromLuma = false
            var pointCbValue: [Int] = []
            var pointCbScaling: [Int] = []
            var pointCrValue: [Int] = []
            var pointCrScaling: [Int] = []
            var grainScalingMinus8 = 0
            var arCoeffLag = 0
            /// `ar_coeffs_y_plus_128[ ]` (2 lag (lag + 1) entries), `_cb_`, `_cr_` (one more).
            var arCoeffsYPlus128: [Int] = []
            var arCoeffsCbPlus128: [Int] = []
            var arCoeffsCrPlus128: [Int] = []
            var arCoeffShiftMinus6 = 0
            var grainScaleShift = 0
            var cbMult = 0
            var cbLumaMult = 0
            var cbOffset = 0
            var crMult = 0
            var crLumaMult = 0
            var crOffset = 0
            var overlapFlag = false
            var clipToRestrictedRange = false

            init(grainSeed: Int) { self.grainSeed = grainSeed }

            var numYPoints: Int { min(pointYValue.count, pointYScaling.count) }
            var numCbPoints: Int { min(pointCbValue.count, pointCbScaling.count) }
            var numCrPoints: Int { min(pointCrValue.count, pointCrScaling.count) }
        }

        /// `RandomRegister` (§7.18.3.2).
        var randomRegister = 0
        /// `LumaGrain[ 73 ][ 82 ]`, `CbGrain`, `CrGrain[ chromaH ][ chromaW ]`, rows of 82.
        var lumaGrain = [Int](repeating: 0, count: 73 * 82)
        var cbGrain = [Int](repeating: 0, count: 73 * 82)
        var crGrain = [Int](repeating: 0, count: 73 * 82)
        /// `ScalingLut[ plane ][ 256 ]`.
        var scalingLut = [[Int]](repeating: [Int](repeating: 0, count: 256), count: 3)
        let bitDepth: Int
        let grainCenter: Int
        let grainMin: Int
        let grainMax: Int

        init(bitDepth: Int) {
            self.bitDepth = bitDepth
            grainCenter = 128 << (bitDepth - 8)
            grainMin = -grainCenter
            grainMax = (256 << (bitDepth - 8)) - 1 - grainCenter
        }

        /// §7.18.3.2, the random number process: `bits` bits from a 16-bit LFSR.
        mutating func getRandomNumber(_ bits: Int) -> Int {
            var r = randomRegister
            let bit = ((r >> 0) ^ (r >> 1) ^ (r >> 3) ^ (r >> 12)) & 1
            r = (r >> 1) | (bit << 15)
            let result = (r >> (16 - bits)) & ((1 << bits) - 1)
            randomRegister = r
            return result
        }

        /// §7.18.3.1: adds the grain to the w × h output `frame` (OutY, OutU, OutV).
        /// `matrixCoefficientsIdentity` is matrix_coefficients == MC_IDENTITY.
        static func apply(to frame: inout AV1Frame, width w: Int, height h: Int, _ p: Parameters,
                          monochrome: Bool, matrixCoefficientsIdentity: Bool) {
            var grain = FilmGrain(bitDepth: frame.bitDepth)
            grain.randomRegister = p.grainSeed & 0xFFFF
            grain.generateGrain(p, subX: frame.subsamplingX, subY: frame.subsamplingY, monochrome: monochrome)
            grain.initializeScalingLookup(p, numPlanes: frame.numPlanes)
            grain.addNoise(to: &frame, w: w, h: h, p, matrixCoefficientsIdentity: matrixCoefficientsIdentity)
        }

        /// §7.18.3.3, the generate grain process.
        mutating func generateGrain(_ p: Parameters, subX: Int, subY: Int, monochrome: Bool) {
            let gaussian = AV1Tables.Gaussian_Sequence
            var shift = 12 - bitDepth + p.grainScaleShift
            for y in 0..<73 {
                for x in 0..<82 {
                    let g = p.numYPoints > 0 ? gaussian[getRandomNumber(11)] : 0
                    lumaGrain[y * 82 + x] = AV1Arithmetic.round2(g, shift)
                }
            }
            let lag = AV1Arithmetic.clip3(0, 3, p.arCoeffLag)
            @inline(__always) func coefficient(_ table: [Int], _ pos: Int) -> Int {
                pos < table.count ? table[pos] - 128 : 0
            }
            shift = p.arCoeffShiftMinus6 + 6
            for y in 3..<73 {
                for x in 3..<(82 - 3) {
                    var s = 0
                    var pos = 0
                    rows: for deltaRow in -lag...0 {
                        for deltaCol in -lag...lag {
                            if deltaRow == 0 && deltaCol == 0 { break rows }
                            let c = coefficient(p.arCoeffsYPlus128, pos)
                            s += lumaGrain[(y + deltaRow) * 82 + x + deltaCol] * c
                            pos += 1
                        }
                    }
                    lumaGrain[y * 82 + x] = AV1Arithmetic.clip3(grainMin, grainMax, lumaGrain[y * 82 + x] + AV1Arithmetic.round2(s, shift))
                }
            }
            if monochrome { return }
            let chromaW = subX != 0 ? 44 : 82
            let chromaH = subY != 0 ? 38 : 73
            shift = 12 - bitDepth + p.grainScaleShift
            randomRegister = (p.grainSeed ^ 0xb524) & 0xFFFF
            for y in 0..<chromaH {
                for x in 0..<chromaW {
                    let g = (p.numCbPoints > 0 || p.chromaScalingFromLuma) ? gaussian[getRandomNumber(11)] : 0
                    cbGrain[y * 82 + x] = AV1Arithmetic.round2(g, shift)
                }
            }
            randomRegister = (p.grainSeed ^ 0x49d8) & 0xFFFF
            for y in 0..<chromaH {
                for x in 0..<chromaW {
                    let g = (p.numCrPoints > 0 || p.chromaScalingFromLuma) ? gaussian[getRandomNumber(11)] : 0
                    crGrain[y * 82 + x] = AV1Arithmetic.round2(g, shift)
                }
            }
            shift = p.arCoeffShiftMinus6 + 6
            for y in 3..<chromaH {
                for x in 3..<(chromaW - 3) {
                    var s0 = 0
                    var s1 = 0
                    var pos = 0
                    rows: for deltaRow in -lag...0 {
                        for deltaCol in -lag...lag {
                            let c0 = coefficient(p.arCoeffsCbPlus128, pos)
                            let c1 = coefficient(p.arCoeffsCrPlus128, pos)
                            if deltaRow == 0 && deltaCol == 0 {
                                if p.numYPoints > 0 {
                                    var luma = 0
                                    let lumaX = ((x - 3) << subX) + 3
                                    let lumaY = ((y - 3) << subY) + 3
                                    for i in 0...subY {
                                        for j in 0...subX { luma += lumaGrain[(lumaY + i) * 82 + lumaX + j] }
                                    }
                                    luma = AV1Arithmetic.round2(luma, subX + subY)
                                    s0 += luma * c0
                                    s1 += luma * c1
                                }
                                break rows
                            }
                            s0 += cbGrain[(y + deltaRow) * 82 + x + deltaCol] * c0
                            s1 += crGrain[(y + deltaRow) * 82 + x + deltaCol] * c1
                            pos += 1
                        }
                    }
                    cbGrain[y * 82 + x] = AV1Arithmetic.clip3(grainMin, grainMax, cbGrain[y * 82 + x] + AV1Arithmetic.round2(s0, shift))
                    crGrain[y * 82 + x] = AV1Arithmetic.clip3(grainMin, grainMax, crGrain[y * 82 + x] + AV1Arithmetic.round2(s1, shift))
                }
            }
        }

        /// §7.18.3.4, the scaling lookup initialization process.
        mutating func initializeScalingLookup(_ p: Parameters, numPlanes: Int) {
            for plane in 0..<min(3, numPlanes) {
                let xs: [Int], ys: [Int]
                if plane == 0 || p.chromaScalingFromLuma {
                    (xs, ys) = (p.pointYValue, p.pointYScaling)
                } else if plane == 1 {
                    (xs, ys) = (p.pointCbValue, p.pointCbScaling)
                } else {
                    (xs, ys) = (p.pointCrValue, p.pointCrScaling)
                }
                let numPoints = min(xs.count, ys.count)
                if numPoints == 0 {
                    for x in 0..<256 { scalingLut[plane][x] = 0 }
                    continue
                }
                // Point values are 8-bit coded (§5.9.30), increasing; the bounds keep writes in the table.
                @inline(__always) func getX(_ i: Int) -> Int { AV1Arithmetic.clip3(0, 255, xs[i]) }
                for x in 0..<getX(0) { scalingLut[plane][x] = ys[0] }
                for i in 0..<(numPoints - 1) {
                    let deltaY = ys[i + 1] - ys[i]
                    let deltaX = getX(i + 1) - getX(i)
                    guard deltaX > 0 else { continue }
                    let delta = deltaY * ((65536 + (deltaX >> 1)) / deltaX)
                    for x in 0..<deltaX {
                        let v = ys[i] + ((x * delta + 32768) >> 16)
                        scalingLut[plane][getX(i) + x] = v
                    }
                }
                for x in getX(numPoints - 1)..<256 { scalingLut[plane][x] = ys[numPoints - 1] }
            }
        }

        /// `scale_lut( plane, index )` (§7.18.3.5).
        @inline(__always)
        func scaleLut(_ plane: Int, _ index: Int) -> Int {
            let shift = bitDepth - 8
            let x = AV1Arithmetic.clip3(0, 255, index >> shift)
            let rem = index - (x << shift)
            if bitDepth == 8 || x == 255 {
                return scalingLut[plane][x]
            }
            let start = scalingLut[plane][x]
            let end = scalingLut[plane][x + 1]
            return start + AV1Arithmetic.round2((end - start) * rem, shift)
        }
    }
}
