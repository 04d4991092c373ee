extension AVIF {
    /// `film_grain_params()` (AV1 §5.9.30, semantics §6.8.20) of a frame that is shown or
    /// showable; `applyGrain` false when the sequence has none or the frame does not apply it.
    struct FilmGrainParameters: Sendable, Hashable {
        var applyGrain = false
        var grainSeed = 0
        var pointYValue: [Int] = [], pointYScaling: [Int] = []
        var chromaScalingFromLuma = false
        var pointCbValue: [Int] = [], pointCbScaling: [Int] = []
        var pointCrValue: [Int] = [], pointCrScaling: [Int] = []
        var grainScalingMinus8 = 0
        var arCoeffLag = 0
        var arCoeffsYPlus128: [Int] = [], arCoeffsCbPlus128: [Int] = [], arCoeffsCrPlus128: [Int] = []
        var arCoeffShiftMinus6 = 0
        var grainScaleShift = 0
        var cbMult = 0, cbLumaMult = 0, cbOffset = 0
        var crMult = 0, crLumaMult = 0, crOffset = 0
        var overlapFlag = false
        var clipToRestrictedRange = false

        mutating func read(_ reader: inout BitReader, frame: FrameParameters) throws(ImageDecodingError) {
            applyGrain = try reader.flag()
            guard applyGrain else { return }
            grainSeed = try reader.bits(16)
            // update_grain is 1 for key and intra-only frames (only inter frames read it).
            let numYPoints = try reader.bits(4)
            // §6.8.20: point_y_value increasing, at most 14 points.
            guard numYPoints <= 14 else { throw .avif(.headerValue) }
            for _ in 0..<numYPoints {
                pointYValue.append(try reader.bits(8))
                pointYScaling.append(try reader.bits(8))
            }
            let mono = frame.sequence.color.isMonochrome
            chromaScalingFromLuma = mono ? false : try reader.flag()
            if !(mono || chromaScalingFromLuma || (frame.subsamplingX == 1 && frame.subsamplingY == 1 && numYPoints == 0)) {
                let numCb = try reader.bits(4)
                guard numCb <= 10 else { throw .avif(.headerValue) }
                for _ in 0..<numCb {
                    pointCbValue.append(try reader.bits(8))
                    pointCbScaling.append(try reader.bits(8))
                }
                let numCr = try reader.bits(4)
                guard numCr <= 10 else { throw .avif(.headerValue) }
                for _ in 0..<numCr {
                    pointCrValue.append(try reader.bits(8))
                    pointCrScaling.append(try reader.bits(8))
                }
            }
            grainScalingMinus8 = try reader.bits(2)
            arCoeffLag = try reader.bits(2)
            let numPosLuma = 2 * arCoeffLag * (arCoeffLag + 1)
            var numPosChroma = numPosLuma
            if numYPoints > 0 {
                numPosChroma = numPosLuma + 1
                for _ in 0..<numPosLuma { arCoeffsYPlus128.append(try reader.bits(8)) }
            }
            if chromaScalingFromLuma || !pointCbValue.isEmpty {
                for _ in 0..<numPosChroma { arCoeffsCbPlus128.append(try reader.bits(8)) }
            }
            if chromaScalingFromLuma || !pointCrValue.isEmpty {
                for _ in 0..<numPosChroma { arCoeffsCrPlus128.append(try reader.bits(8)) }
            }
            arCoeffShiftMinus6 = try reader.bits(2)
            grainScaleShift = try reader.bits(2)
            if !pointCbValue.isEmpty {
                cbMult = try reader.bits(8)
                cbLumaMult = try reader.bits(8)
                cbOffset = try reader.bits(9)
            }
            if !pointCrValue.isEmpty {
                crMult = try reader.bits(8)
                crLumaMult = try reader.bits(8)
                crOffset = try reader.bits(9)
            }
            overlapFlag = try reader.flag()
            clipToRestrictedRange = try reader.flag()
        }
    }
}
