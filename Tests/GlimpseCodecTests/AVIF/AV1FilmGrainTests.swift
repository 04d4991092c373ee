import Testing
@testable import GlimpseCodec

/// §7.18.3: the pseudo-random generator and scaling lookup by hand, no grain without points,
/// and grain within the clipping range the parameters ask for.
@Suite struct AV1FilmGrainTests {
    @Test func randomNumbersAndScalingLookup() {
        var grain = AVIF.FilmGrain(bitDepth: 8)
        grain.randomRegister = 1
        // bit = 1 ^ 0 ^ 0 ^ 0 = 1: r = 1 << 15, result ( r >> 8 ) & 255 = 128.
        #expect(grain.getRandomNumber(8) == 128)
        #expect(grain.randomRegister == 32768)
        var p = AVIF.FilmGrain.Parameters(grainSeed: 1)
        p.pointYValue = [0, 128]
        p.pointYScaling = [0, 64]
        grain.initializeScalingLookup(p, numPlanes: 1)
        // delta = 64 × ( ( 65536 + 64 ) / 128 ) = 32768; x = 64: ( 64 × 32768 + 32768 ) >> 16 = 32; x = 127: 64.
        #expect(grain.scalingLut[0][64] == 32)
        #expect(grain.scalingLut[0][127] == 64 && grain.scalingLut[0][128] == 64 && grain.scalingLut[0][255] == 64)
        var deep = AVIF.FilmGrain(bitDepth: 10)
        deep.initializeScalingLookup(p, numPlanes: 1)
        // 10 bits: interpolates between entries 64 and 65 (32 and 32.5 → 33): 258 → 32 + Round2( 1 × 2, 2 ) = 33.
        #expect(deep.scaleLut(0, 258) == deep.scalingLut[0][64] + ((deep.scalingLut[0][65] - deep.scalingLut[0][64]) * 2 + 2) / 4)
    }

    @Test func noPointsNoGrain() {
        let frame = AVIF.AV1Frame(lumaWidth: 70, lumaHeight: 45, bitDepth: 10, subsamplingX: 1, subsamplingY: 1,
                                  monochrome: false, value: 512)
        var out = frame
        AVIF.FilmGrain.apply(to: &out, width: 70, height: 45, .init(grainSeed: 1234), monochrome: false,
                             matrixCoefficientsIdentity: false)
        #expect(out == frame)
    }

    @Test func grainIsAddedWithinTheRange() {
        for (bitDepth, subX, subY) in [(8, 1, 1), (10, 1, 0), (12, 0, 0)] {
            let mid = UInt16(128 << (bitDepth - 8))
            let frame = AVIF.AV1Frame(lumaWidth: 100, lumaHeight: 70, bitDepth: bitDepth, subsamplingX: subX,
                                      subsamplingY: subY, monochrome: false, value: mid)
            var p = AVIF.FilmGrain.Parameters(grainSeed: 4321)
            p.pointYValue = [0, 255]
            p.pointYScaling = [255, 255]
            p.pointCbValue = [0, 255]
            p.pointCbScaling = [100, 200]
            p.chromaScalingFromLuma = false
            p.cbMult = 128 + 64
            p.cbLumaMult = 128 + 32
            p.cbOffset = 256
            p.arCoeffLag = 3
            p.arCoeffsYPlus128 = (0..<24).map { 128 + ($0 % 5) - 2 }
            p.arCoeffsCbPlus128 = (0..<25).map { 128 + ($0 % 3) - 1 }
            p.arCoeffsCrPlus128 = [Int](repeating: 128, count: 25)
            p.overlapFlag = true
            p.clipToRestrictedRange = true
            var out = frame
            AVIF.FilmGrain.apply(to: &out, width: 100, height: 70, p, monochrome: false, matrixCoefficientsIdentity: false)
            let low = 16 << (bitDepth - 8), high = 235 << (bitDepth - 8)
            #expect(out.planes[0].samples.allSatisfy { (low...high).contains(Int($0)) })
            #expect(out.planes[0].samples.contains { $0 != mid })
            #expect(out.planes[1].samples.contains { $0 != mid })
            // No cr points and no chroma scaling from luma: Cr untouched.
            #expect(out.planes[2] == frame.planes[2])
            // Deterministic: the same parameters give the same grain.
            var again = frame
            AVIF.FilmGrain.apply(to: &again, width: 100, height: 70, p, monochrome: false, matrixCoefficientsIdentity: false)
            #expect(again == out)
        }
    }
}
