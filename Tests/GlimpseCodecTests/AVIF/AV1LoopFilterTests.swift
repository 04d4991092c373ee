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

    /// `values` after `filter` has run on them through a pointer at index `edge` (q0).
    static func filtered(_ values: [Int], edge: Int, _ filter: (UnsafeMutablePointer<UInt16>) -> Void) -> [Int] {
        var line = values.map { UInt16($0) }
        line.withUnsafeMutableBufferPointer { buffer in
            if let base = buffer.baseAddress { filter(base + edge) }
        }
        return line.map { Int($0) }
    }

    @Test func narrowFilterByHand() {
        // p1 p0 | q0 q1 = 100 100 | 110 110, no high edge variance: filter = 3 × 10 = 30,
        // filter1 = 34 >> 3 = 4, filter2 = 33 >> 3 = 4, then Round2( 4, 1 ) = 2 for p1, q1.
        #expect(Self.filtered([100, 100, 100, 100, 110, 110, 110, 110], edge: 4) {
            AVIF.LoopFilter.narrowFilter($0, step: 1, hevMask: false, bitDepth: 8)
        } == [100, 100, 102, 104, 106, 108, 110, 110])
        // With hevMask only p0, q0 change: ps1 - qs1 = 120 - 90 = 30; filter = clamp( 30 + 3 × 10 ) = 60;
        // filter1 = 64 >> 3 = 8; filter2 = 63 >> 3 = 7.
        #expect(Self.filtered([100, 100, 120, 100, 110, 90, 110, 110], edge: 4) {
            AVIF.LoopFilter.narrowFilter($0, step: 1, hevMask: true, bitDepth: 8)
        } == [100, 100, 120, 107, 102, 90, 110, 110])
        // Across rows (a step of the stride), as a horizontal edge is filtered.
        #expect(Self.filtered([100, 0, 100, 0, 100, 0, 100, 0, 110, 0, 110, 0, 110, 0, 110, 0], edge: 8) {
            AVIF.LoopFilter.narrowFilter($0, step: 2, hevMask: false, bitDepth: 8)
        } == [100, 0, 100, 0, 102, 0, 104, 0, 106, 0, 108, 0, 110, 0, 110, 0])
    }

    @Test func wideFiltersByHand() {
        // p3...q3 = 100 × 4 | 104 × 4. Luma 8-tap (n = 3, n2 = 0, weights 1 1 1 2 1 1 1):
        // p0 = Round2( 5 × 100 + 3 × 104, 3 ) = 102, q0 = Round2( 3 × 100 + 5 × 104, 3 ) = 103, and so on.
        #expect(Self.filtered([100, 100, 100, 100, 104, 104, 104, 104], edge: 4) {
            AVIF.LoopFilter.wideFilter($0, step: 1, isLuma: true, log2Size: 3)
        } == [100, 101, 101, 102, 103, 103, 104, 104])
        // Chroma 6-tap (n = 2, n2 = 1, weights 1 2 2 2 1).
        #expect(Self.filtered([100, 100, 100, 104, 104, 104], edge: 3) {
            AVIF.LoopFilter.wideFilter($0, step: 1, isLuma: false, log2Size: 3)
        } == [100, 101, 102, 103, 104, 104])
    }

    /// An edge 4 samples from the plane's border: the 14-tap filter's masks reach outside,
    /// where samples read as 0 and nothing is stored, as the plane's subscript does. The
    /// result is that of the same samples in a plane padded with zeros, where every tap is
    /// inside (the line-copy path against the in-place one).
    @Test func anEdgeNearTheBorderFiltersAsIfPaddedWithZeros() {
        let values = [60, 60, 60, 61, 64, 64, 65, 65, 66, 66]
        var nearBorder = AVIF.AV1Plane(width: 10, height: 1)
        var padded = AVIF.AV1Plane(width: 17, height: 1)
        for (x, v) in values.enumerated() {
            nearBorder[y: 0, x: x] = UInt16(v)
            padded[y: 0, x: x + 3] = UInt16(v)
        }
        let taps = AVIF.LoopFilter.Taps(isLuma: true, limit: 40, blimit: 120, thresh: 10, filterSize: 16, bitDepth: 8)
        AVIF.LoopFilter.sampleFilter(plane: &nearBorder, x: 4, y: 0, dx: 1, dy: 0, taps)
        AVIF.LoopFilter.sampleFilter(plane: &padded, x: 7, y: 0, dx: 1, dy: 0, taps)
        let filtered = (0..<10).map { nearBorder.sample($0, 0) }
        #expect(filtered != values, "the edge was filtered")
        #expect(filtered == (0..<10).map { padded.sample($0 + 3, 0) })
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
