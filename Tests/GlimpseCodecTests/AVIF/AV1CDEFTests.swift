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

    @Test func secondaryFilterByHand() {
        // One 8×8 block of 100 with 102 at (3, 3); primary strength 0 (so dir 0: secondary
        // directions 2 and 6, the row and the column), secondary 4, damping 3. At the bump each
        // of the 8 secondary taps sees -2: constrain( -2, 4, 3 ) = -Clip3( 0, 2, 4 - 1 ) = -2;
        // sum = 4 × 2 × -2 + 4 × 1 × -2 = -24; 102 + ( ( 8 - 24 - 1 ) >> 4 ) = 100. Its neighbours
        // gain at most 2 × 2: ( 8 + 4 ) >> 4 = 0, unchanged.
        for (bitDepth, expected) in [(8, 100), (10, 402)] {
            let scale = UInt16(1 << (bitDepth - 8))
            var frame = AVIF.AV1Frame(lumaWidth: 8, lumaHeight: 8, bitDepth: bitDepth, subsamplingX: 0, subsamplingY: 0,
                                      monochrome: true, value: 100 * scale)
            frame.planes[0][y: 3, x: 3] = 102 * scale
            let p = AVIF.CDEF.Parameters(cdefDamping: 3, cdefYPriStrength: [0], cdefYSecStrength: [4], cdefUVPriStrength: [0],
                                         cdefUVSecStrength: [0], miRows: 2, miCols: 2)
            let out = AVIF.CDEF.apply(currFrame: frame, modeInfo: AV1UniformModeInfo(), p)
            // 10 bits: strength 16, damping 5, diff -8: -Clip3( 0, 8, 16 - 4 ) = -8; sum -96;
            // 408 + ( ( 8 - 96 - 1 ) >> 4 ) = 402.
            #expect(out.planes[0][y: 3, x: 3] == UInt16(expected))
            // At 8 bits the other samples stay; at 10 bits the bump's row and column neighbours
            // within 2 see +8: constrain = 8, sum 16 (k = 0) or 8 (k = 1), ( 8 + sum ) >> 4 = 1.
            for y in 0..<8 {
                for x in 0..<8 where !(x == 3 && y == 3) {
                    let near = (x == 3 && abs(y - 3) <= 2) || (y == 3 && abs(x - 3) <= 2)
                    let want = bitDepth == 8 ? 100 : (near ? 401 : 400)
                    #expect(Int(out.planes[0][y: y, x: x]) == want, "\(bitDepth) bits at (\(x), \(y))")
                }
            }
        }
    }

    @Test func constrain() {
        // damping 3, threshold 4: dampingAdj 1, 4 - ( 10 >> 1 ) < 0 → 0.
        #expect(AVIF.CDEF.constrain(10, 4, shift: AVIF.CDEF.constrainShift(threshold: 4, damping: 3)) == 0)
        // damping 6: dampingAdj 4, Clip3( 0, 2, 4 ) = 2.
        #expect(AVIF.CDEF.constrain(2, 4, shift: AVIF.CDEF.constrainShift(threshold: 4, damping: 6)) == 2)
        // Negative differences keep their sign: Clip3( 0, 3, 8 - 3 ) = 3.
        #expect(AVIF.CDEF.constrain(-3, 8, shift: AVIF.CDEF.constrainShift(threshold: 8, damping: 3)) == -3)
        #expect(AVIF.CDEF.constrain(-3, 0, shift: AVIF.CDEF.constrainShift(threshold: 0, damping: 3)) == 0)
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
