import Testing
@testable import GlimpseCodec

/// §7.15 on synthetic planes: flat frames unchanged, the direction search on stripes, the
/// constrain function by hand, and filtered samples kept within their neighbours' range.
@Suite struct AV1CDEFTests {
    static func parameters(size: Int) -> AVIF.CDEF.Parameters {
        .init(cdefDamping: 6, cdefYPriStrength: [15], cdefYSecStrength: [4], cdefUVPriStrength: [7],
              cdefUVSecStrength: [2], miRows: size / 4, miCols: size / 4)
    }

    @Test func flatFramesAreUnchanged() {
        for bitDepth in [8, 10, 12] {
            let frame = AVIF.AV1Frame(lumaWidth: 64, lumaHeight: 64, bitDepth: bitDepth, subsamplingX: 1, subsamplingY: 0,
                                      monochrome: false, value: 200)
            #expect(AVIF.CDEF.apply(currFrame: frame, modeInfo: AV1UniformModeInfo(), Self.parameters(size: 64)) == frame)
        }
    }

    @Test func directionOfStripes() {
        var vertical = AVIF.AV1Plane(width: 8, height: 8)
        var horizontal = AVIF.AV1Plane(width: 8, height: 8)
        for y in 0..<8 {
            for x in 0..<8 {
                vertical[y: y, x: x] = x & 1 == 0 ? 60 : 190
                horizontal[y: y, x: x] = y & 1 == 0 ? 60 : 190
            }
        }
        // Column sums (partial[ 6 ]) keep the whole contrast for vertical lines, row sums (partial[ 2 ]) for horizontal.
        #expect(AVIF.CDEF.direction(vertical, r: 0, c: 0, bitDepth: 8).yDir == 6)
        #expect(AVIF.CDEF.direction(horizontal, r: 0, c: 0, bitDepth: 8).yDir == 2)
        #expect(AVIF.CDEF.direction(AVIF.AV1Plane(width: 8, height: 8, value: 9), r: 0, c: 0, bitDepth: 8).variance == 0)
    }

    @Test func constrain() {
        // damping 3, threshold 4: dampingAdj 1, 4 - ( 10 >> 1 ) < 0 → 0.
        #expect(AVIF.CDEF.constrain(10, 4, 3) == 0)
        // damping 6: dampingAdj 4, Clip3( 0, 2, 4 ) = 2.
        #expect(AVIF.CDEF.constrain(2, 4, 6) == 2)
        // Negative differences keep their sign: Clip3( 0, 3, 8 - 3 ) = 3.
        #expect(AVIF.CDEF.constrain(-3, 8, 3) == -3)
        #expect(AVIF.CDEF.constrain(-3, 0, 3) == 0)
    }

    @Test func filteringStaysWithinTheNeighbourhoodAndSkipsSkippedBlocks() {
        var random = AV1TestRandom(seed: 99)
        var frame = AVIF.AV1Frame(lumaWidth: 32, lumaHeight: 32, bitDepth: 10, subsamplingX: 1, subsamplingY: 1,
                                  monochrome: false)
        for p in 0..<3 {
            for k in 0..<frame.planes[p].samples.count { frame.planes[p].samples[k] = UInt16.random(in: 400...600, using: &random) }
        }
        let out = AVIF.CDEF.apply(currFrame: frame, modeInfo: AV1UniformModeInfo(), Self.parameters(size: 32))
        #expect(out != frame)
        for p in 0..<3 {
            #expect(out.planes[p].samples.allSatisfy { (400...600).contains($0) })
        }
        #expect(AVIF.CDEF.apply(currFrame: frame, modeInfo: AV1UniformModeInfo(skipValue: true), Self.parameters(size: 32)) == frame)
        #expect(AVIF.CDEF.apply(currFrame: frame, modeInfo: AV1UniformModeInfo(cdefIndex: -1), Self.parameters(size: 32)) == frame)
    }
}
