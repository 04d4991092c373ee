import Testing
@testable import GlimpseCodec

/// §7.14 on synthetic planes: flat planes stay flat, a small step across a 16×16 transform
/// edge gets the 14-tap filter, and the narrow filter's arithmetic by hand.
@Suite struct AV1LoopFilterTests {
    typealias K = AVIF.AV1Tables

    static func parameters(level: Int, size: Int) -> AVIF.LoopFilter.Parameters {
        .init(loopFilterLevel: [level, level, level, level], frameWidth: size, frameHeight: size,
              miRows: size / 4, miCols: size / 4)
    }

    @Test func flatFramesAreUnchanged() {
        for bitDepth in [8, 10, 12] {
            var frame = AVIF.AV1Frame(lumaWidth: 64, lumaHeight: 64, bitDepth: bitDepth, subsamplingX: 1, subsamplingY: 1,
                                      monochrome: false, value: UInt16(1 << (bitDepth - 1)) + 3)
            let before = frame
            for (miSize, txSize) in [(K.BLOCK_8X8, K.TX_4X4), (K.BLOCK_16X16, K.TX_16X16), (K.BLOCK_64X64, K.TX_64X64)] {
                let info = AV1UniformModeInfo(miSizeValue: miSize, txSizeValue: txSize)
                AVIF.LoopFilter.apply(to: &frame, modeInfo: info, Self.parameters(level: 63, size: 64))
            }
            #expect(frame == before)
        }
    }

    @Test func smallStepAcrossAWideEdge() {
        // Columns 0...15 at 100, 16...31 at 104: the vertical edge at x = 16 between two 16×16
        // transforms takes the 14-tap filter (flat on both sides). Expected, from §7.14.6.4 with
        // n = 6, n2 = 1: p0 = Round2( 9 × 100 + 7 × 104, 4 ) = 102, q0 = Round2( 7 × 100 + 9 × 104, 4 ) = 102.
        var frame = AVIF.AV1Frame(lumaWidth: 32, lumaHeight: 32, bitDepth: 8, subsamplingX: 0, subsamplingY: 0,
                                  monochrome: true)
        for y in 0..<32 { for x in 0..<32 { frame.planes[0][y: y, x: x] = x < 16 ? 100 : 104 } }
        let info = AV1UniformModeInfo(miSizeValue: K.BLOCK_16X16, txSizeValue: K.TX_16X16)
        AVIF.LoopFilter.apply(to: &frame, modeInfo: info, Self.parameters(level: 10, size: 32))
        for y in 0..<32 {
            let row = (0..<32).map { frame.planes[0].sample($0, y) }
            #expect(row[15] == 102 && row[16] == 102)
            // Only the six samples each side move, monotonically, within the step.
            #expect(row[0..<10].allSatisfy { $0 == 100 } && row[22..<32].allSatisfy { $0 == 104 })
            #expect(zip(row, row.dropFirst()).allSatisfy { $0 <= $1 })
        }
        // A skipped inter block without a block edge is not filtered; a level of 0 filters nothing.
        var untouched = AVIF.AV1Frame(lumaWidth: 32, lumaHeight: 32, bitDepth: 8, subsamplingX: 0, subsamplingY: 0,
                                      monochrome: true)
        for y in 0..<32 { for x in 0..<32 { untouched.planes[0][y: y, x: x] = x < 16 ? 100 : 104 } }
        let before = untouched
        AVIF.LoopFilter.apply(to: &untouched, modeInfo: info, Self.parameters(level: 0, size: 32))
        #expect(untouched == before)
        let skippedInter = AV1UniformModeInfo(miSizeValue: K.BLOCK_32X32, txSizeValue: K.TX_16X16, skipValue: true,
                                              refFrame: 1, mode: K.NEARESTMV)
        AVIF.LoopFilter.apply(to: &untouched, modeInfo: skippedInter, Self.parameters(level: 10, size: 32))
        #expect(untouched == before)
    }

    @Test func narrowFilterByHand() {
        // p1 p0 | q0 q1 = 100 100 | 110 110, no high edge variance: filter = 3 × 10 = 30,
        // filter1 = 34 >> 3 = 4, filter2 = 33 >> 3 = 4, then Round2( 4, 1 ) = 2 for p1, q1.
        var plane = AVIF.AV1Plane(width: 8, height: 1)
        for (x, v) in [100, 100, 100, 100, 110, 110, 110, 110].enumerated() { plane[y: 0, x: x] = UInt16(v) }
        AVIF.LoopFilter.narrowFilter(plane: &plane, hevMask: false, x: 4, y: 0, dx: 1, dy: 0, bitDepth: 8)
        #expect((0..<8).map { plane.sample($0, 0) } == [100, 100, 102, 104, 106, 108, 110, 110])
        // With hevMask only p0, q0 change: filter = clamp( -20 ) + 30 = 10, filter1 = 14 >> 3 = 1, filter2 = 13 >> 3 = 1.
        var hev = AVIF.AV1Plane(width: 8, height: 1)
        for (x, v) in [100, 100, 120, 100, 110, 90, 110, 110].enumerated() { hev[y: 0, x: x] = UInt16(v) }
        AVIF.LoopFilter.narrowFilter(plane: &hev, hevMask: true, x: 4, y: 0, dx: 1, dy: 0, bitDepth: 8)
        // ps1 - qs1 = 120 - 90 = 30; filter = clamp( 30 + 3 × 10 ) = 60; filter1 = 64 >> 3 = 8; filter2 = 63 >> 3 = 7.
        #expect((0..<8).map { hev.sample($0, 0) } == [100, 100, 120, 107, 102, 90, 110, 110])
    }

    @Test func wideFiltersByHand() {
        // p3...q3 = 100 × 4 | 104 × 4. Luma 8-tap (n = 3, n2 = 0, weights 1 1 1 2 1 1 1):
        // p0 = Round2( 5 × 100 + 3 × 104, 3 ) = 102, q0 = Round2( 3 × 100 + 5 × 104, 3 ) = 103, and so on.
        var luma = AVIF.AV1Plane(width: 1, height: 8)
        for y in 0..<8 { luma[y: y, x: 0] = y < 4 ? 100 : 104 }
        AVIF.LoopFilter.wideFilter(plane: &luma, x: 0, y: 4, isLuma: true, dx: 0, dy: 1, log2Size: 3)
        #expect((0..<8).map { luma.sample(0, $0) } == [100, 101, 101, 102, 103, 103, 104, 104])
        // Chroma 6-tap (n = 2, n2 = 1, weights 1 2 2 2 1).
        var chroma = AVIF.AV1Plane(width: 6, height: 1)
        for x in 0..<6 { chroma[y: 0, x: x] = x < 3 ? 100 : 104 }
        AVIF.LoopFilter.wideFilter(plane: &chroma, x: 3, y: 0, isLuma: false, dx: 1, dy: 0, log2Size: 3)
        #expect((0..<6).map { chroma.sample($0, 0) } == [100, 101, 102, 103, 104, 104])
    }

    @Test func strengthSelection() {
        var p = Self.parameters(level: 40, size: 32)
        p.loopFilterSharpness = 5
        p.loopFilterDeltaEnabled = true
        p.loopFilterRefDeltas = [1, 0, 0, 0, -1, 0, -1, -1]
        // Intra: 40 + ( 1 << ( 40 >> 5 ) ) = 42; sharpness 5: shift 2, limit Clip3( 1, 4, 10 ) = 4.
        let s = AVIF.LoopFilter.adaptiveFilterStrength(modeInfo: AV1UniformModeInfo(), p, row: 0, col: 0, plane: 0, pass: 0)
        #expect(s.lvl == 42 && s.limit == 4 && s.blimit == 2 * 44 + 4 && s.thresh == 2)
        p.segmentationEnabled = true
        p.featureEnabled = [[false, true, false, false, false, false, false, false]]
        p.featureData = [[0, -50, 0, 0, 0, 0, 0, 0]]
        #expect(AVIF.LoopFilter.filterStrengthSelection(p, segment: 0, ref: 0, modeType: 0, deltaLF: 0, plane: 0, pass: 0) == 1)
        #expect(AVIF.LoopFilter.filterSize(txSz: K.TX_16X16, prevTxSz: K.TX_32X32, pass: 0, plane: 0) == 16)
        #expect(AVIF.LoopFilter.filterSize(txSz: K.TX_16X16, prevTxSz: K.TX_4X8, pass: 1, plane: 1) == 8)
    }
}
