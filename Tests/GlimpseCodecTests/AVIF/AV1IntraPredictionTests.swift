import Testing
@testable import GlimpseCodec

/// §7.11.2, §7.11.4, §7.11.5: each predictor on a 4×4 block at (4, 4) of a 16×16 plane whose
/// row above is 10, 20, … 80 (corner 30) and column to the left 50, 60, … 120, the expected
/// samples worked out by hand from the specification's equations.
@Suite struct AV1IntraPredictionTests {
    typealias K = AVIF.AV1Tables

    static func plane() -> AVIF.AV1Plane {
        var p = AVIF.AV1Plane(width: 16, height: 16)
        p[y: 3, x: 3] = 30
        for k in 0..<8 {
            p[y: 3, x: 4 + k] = UInt16(10 * (k + 1))
            p[y: 4 + k, x: 3] = UInt16(50 + 10 * k)
        }
        return p
    }

    static func block(_ mode: Int, angleDelta: Int = 0, haveLeft: Bool = true, haveAbove: Bool = true,
                      edgeFilter: Bool = false) -> AVIF.IntraPredictor.Block {
        .init(plane: 0, x: 4, y: 4, log2W: 2, log2H: 2, haveLeft: haveLeft, haveAbove: haveAbove,
              haveAboveRight: true, haveBelowLeft: true, mode: mode, angleDelta: angleDelta,
              enableIntraEdgeFilter: edgeFilter, maxX: 15, maxY: 15, bitDepth: 8)
    }

    static func predict(_ b: AVIF.IntraPredictor.Block, _ p: AVIF.AV1Plane = plane()) -> [[Int]] {
        var predictor = AVIF.IntraPredictor()
        var p = p
        predictor.predict(b, into: &p)
        return (0..<4).map { i in (0..<4).map { j in p.sample(4 + j, 4 + i) } }
    }

    @Test func dc() {
        // (10 + 20 + 30 + 40 + 50 + 60 + 70 + 80 + 4) / 8 = 45.
        #expect(Self.predict(Self.block(K.DC_PRED)) == [[Int]](repeating: [45, 45, 45, 45], count: 4))
        // Above only: (100 + 2) >> 2 = 25; left only: (260 + 2) >> 2 = 65; neither: 128.
        #expect(Self.predict(Self.block(K.DC_PRED, haveLeft: false))[2][1] == 25)
        #expect(Self.predict(Self.block(K.DC_PRED, haveAbove: false))[0][3] == 65)
        #expect(Self.predict(Self.block(K.DC_PRED, haveLeft: false, haveAbove: false))[3][3] == 128)
    }

    @Test func verticalAndHorizontal() {
        #expect(Self.predict(Self.block(K.V_PRED)) == [[Int]](repeating: [10, 20, 30, 40], count: 4))
        #expect(Self.predict(Self.block(K.H_PRED)) == [[50, 50, 50, 50], [60, 60, 60, 60], [70, 70, 70, 70], [80, 80, 80, 80]])
    }

    @Test func paeth() {
        let pred = Self.predict(Self.block(K.PAETH_PRED))
        // [0][0]: base 10 + 50 - 30 = 30, closest to the corner 30.
        #expect(pred[0][0] == 30)
        // [0][2]: base 30 + 50 - 30 = 50 equals the left sample.
        #expect(pred[0][2] == 50)
        // [0][3]: base 60: left 50 (distance 10) beats above 40 (20) and the corner (30).
        #expect(pred[0][3] == 50)
        // [3][0]: base 10 + 80 - 30 = 60: left 80 (20) beats above 10 (50) and the corner (30).
        #expect(pred[3][0] == 80)
    }

    @Test func smooth() {
        // Sm_Weights_Tx_4x4 = 255, 149, 85, 64.
        let s = Self.predict(Self.block(K.SMOOTH_PRED))
        // 255·10 + 1·80 + 255·50 + 1·40 = 15420; Round2(15420, 9) = 30.
        #expect(s[0][0] == 30)
        // 64·40 + 192·80 + 64·80 + 192·40 = 30720; Round2(30720, 9) = 60.
        #expect(s[3][3] == 60)
        // SMOOTH_V [1][2]: 149·30 + 107·80 = 13030; Round2(13030, 8) = 51.
        #expect(Self.predict(Self.block(K.SMOOTH_V_PRED))[1][2] == 51)
        // SMOOTH_H [2][1]: 149·70 + 107·40 = 14710; Round2(14710, 8) = 57.
        #expect(Self.predict(Self.block(K.SMOOTH_H_PRED))[2][1] == 57)
    }

    @Test func directional45() {
        // dx = Dr_Intra_Derivative[ 45 ] = 64: pred[ i ][ j ] = AboveRow[ i + j + 1 ], capped at AboveRow[ 7 ].
        let pred = Self.predict(Self.block(K.D45_PRED))
        for i in 0..<4 {
            for j in 0..<4 { #expect(pred[i][j] == 10 * (min(i + j + 1, 7) + 1)) }
        }
    }

    @Test func directionalNearVerticalWithDelta() {
        // V_PRED - 3 steps: pAngle 81, dx = 11. Row 0: idx 11, shift 5; row 3: idx 44, shift 22.
        let pred = Self.predict(Self.block(K.V_PRED, angleDelta: -3))
        #expect(pred[0][0] == (10 * 27 + 20 * 5 + 16) >> 5)  // 12
        #expect(pred[3][0] == (10 * 10 + 20 * 22 + 16) >> 5)  // 17
        #expect(pred[3][3] == (40 * 10 + 50 * 22 + 16) >> 5)  // 47
        // V_PRED + 3 steps: pAngle 99, zone 2, the corner (30) enters: idx -11, base -1, shift 26.
        let right = Self.predict(Self.block(K.V_PRED, angleDelta: 3))
        #expect(right[0][0] == (30 * 6 + 10 * 26 + 16) >> 5)  // 14
        #expect(right[3][0] == (30 * 22 + 10 * 10 + 16) >> 5)  // 24
    }

    @Test func directional135And203() {
        // D135: dx = dy = 64, so pred[ i ][ j ] = AboveRow[ j - i - 1 ] for j ≥ i, else LeftCol[ i - j - 1 ].
        let pred = Self.predict(Self.block(K.D135_PRED))
        let above = [30, 10, 20, 30, 40], left = [30, 50, 60, 70, 80]
        for i in 0..<4 {
            for j in 0..<4 { #expect(pred[i][j] == (j >= i ? above[j - i] : left[i - j])) }
        }
        // D203: dy = Dr_Intra_Derivative[ 67 ] = 27; column 0: idx 27, shift 13.
        let d203 = Self.predict(Self.block(K.D203_PRED))
        #expect(d203[0][0] == (50 * 19 + 60 * 13 + 16) >> 5)  // 54
        #expect(d203[2][0] == (70 * 19 + 80 * 13 + 16) >> 5)
    }

    @Test func edgeUpsampleAndFilter() {
        var predictor = AVIF.IntraPredictor()
        let o = AVIF.IntraPredictor.edgeOrigin
        for (i, v) in [0, 10, 20, 30, 40].enumerated() { predictor.aboveRow[o - 1 + i] = v }
        predictor.intraEdgeUpsample(numPx: 4, left: false, bitDepth: 8)
        // dup = 0 0 10 20 30 40 40; s = -dup[i] + 9 dup[i+1] + 9 dup[i+2] - dup[i+3]: 70, 240, 400, 570.
        #expect((-2...6).map { predictor.above($0) } == [0, 4, 10, 15, 20, 25, 30, 36, 40])

        for (i, v) in [0, 16, 32, 48, 64, 80].enumerated() { predictor.aboveRow[o - 1 + i] = v }
        predictor.intraEdgeFilter(size: 6, strength: 1, left: false)
        // Kernel 0 4 8 4 0: the interior of a ramp keeps its values, the ends see the clamp.
        #expect((-1...4).map { predictor.above($0) } == [0, 16, 32, 48, 64, 76])

        typealias P = AVIF.IntraPredictor
        #expect(P.intraEdgeFilterStrength(w: 4, h: 4, filterType: 0, delta: 56) == 1)
        #expect(P.intraEdgeFilterStrength(w: 8, h: 8, filterType: 0, delta: 8) == 0)
        #expect(P.intraEdgeFilterStrength(w: 16, h: 16, filterType: 0, delta: 3) == 1)
        #expect(P.intraEdgeFilterStrength(w: 16, h: 16, filterType: 0, delta: 4) == 2)
        #expect(P.intraEdgeFilterStrength(w: 32, h: 16, filterType: 0, delta: 3) == 3)
        #expect(P.intraEdgeFilterStrength(w: 4, h: 4, filterType: 1, delta: -64) == 2)
        #expect(P.useIntraEdgeUpsample(w: 4, h: 4, filterType: 0, delta: -9))
        #expect(!P.useIntraEdgeUpsample(w: 8, h: 8, filterType: 1, delta: 9))
        #expect(!P.useIntraEdgeUpsample(w: 4, h: 4, filterType: 0, delta: 0))
    }

    @Test func edgeFilteredPredictionOfAFlatEdgeIsFlat() {
        var flat = AVIF.AV1Plane(width: 32, height: 32, value: 77)
        var predictor = AVIF.IntraPredictor()
        for mode in [K.V_PRED, K.D45_PRED, K.D135_PRED, K.D113_PRED, K.D157_PRED, K.D203_PRED, K.D67_PRED] {
            for delta in -3...3 {
                for (log2W, log2H) in [(2, 2), (3, 2), (2, 4), (4, 4), (5, 3)] {
                    let b = AVIF.IntraPredictor.Block(plane: 0, x: 8, y: 8, log2W: log2W, log2H: log2H, haveLeft: true,
                                                      haveAbove: true, haveAboveRight: true, haveBelowLeft: true, mode: mode,
                                                      angleDelta: delta, enableIntraEdgeFilter: true,
                                                      filterType: delta & 1, maxX: 31, maxY: 31, bitDepth: 8)
                    predictor.predict(b, into: &flat)
                }
            }
        }
        #expect(flat.samples.allSatisfy { $0 == 77 })
    }

    @Test func everyDirectionalModeAtEveryPositionIsSafe() {
        // Edges at the plane's borders and every size, with and without the edge filter: no trap.
        var random = AV1TestRandom(seed: 3)
        var p = AVIF.AV1Plane(width: 96, height: 96)
        for k in 0..<p.samples.count { p.samples[k] = UInt16.random(in: 0...1023, using: &random) }
        var predictor = AVIF.IntraPredictor()
        for mode in 0...K.PAETH_PRED {
            for delta in -3...3 {
                for log2W in 2...6 {
                    for log2H in max(2, log2W - 2)...min(6, log2W + 2) {
                        let b = AVIF.IntraPredictor.Block(
                            plane: 0, x: Int.random(in: 0...1, using: &random) * 32,
                            y: Int.random(in: 0...1, using: &random) * 32, log2W: log2W, log2H: log2H,
                            haveLeft: Bool.random(using: &random), haveAbove: Bool.random(using: &random),
                            haveAboveRight: Bool.random(using: &random), haveBelowLeft: Bool.random(using: &random),
                            mode: mode, angleDelta: delta, useFilterIntra: mode == 0 && delta == 0, filterIntraMode: 4,
                            enableIntraEdgeFilter: delta >= 0, filterType: delta & 1, maxX: 70, maxY: 95, bitDepth: 10)
                        predictor.predict(b, into: &p)
                    }
                }
            }
        }
        #expect(p.samples.allSatisfy { $0 <= 1023 })
    }

    @Test func filterIntra() {
        // Every row of Intra_Filter_Taps sums to 16: constant edges give the constant.
        var flat = AVIF.AV1Plane(width: 16, height: 16, value: 100)
        var predictor = AVIF.IntraPredictor()
        for mode in 0..<5 {
            var b = Self.block(K.DC_PRED)
            b.useFilterIntra = true
            b.filterIntraMode = mode
            b.log2W = 3
            predictor.predict(b, into: &flat)
            #expect(flat.samples.allSatisfy { $0 == 100 })
        }
        // FILTER_DC_PRED, first 4×2 cell, p = ( 0, 16, 16, 16, 16, 0, 0 ):
        // row 0 taps ( -6, 10, 0, 0, 0, 12, 0 ) → 160 → 10; ( -5, 2, 10, 0, 0, 9, 0 ) → 192 → 12.
        var p = AVIF.AV1Plane(width: 16, height: 16)
        for x in 4..<8 { p[y: 3, x: x] = 16 }
        var b = Self.block(K.DC_PRED)
        b.useFilterIntra = true
        b.filterIntraMode = K.FILTER_DC_PRED
        predictor.predict(b, into: &p)
        #expect(p[y: 4, x: 4] == 10)
        #expect(p[y: 4, x: 5] == 12)
    }

    @Test func palette() {
        var p = AVIF.AV1Plane(width: 8, height: 8)
        let map: [UInt8] = (0..<64).map { UInt8(($0 / 8 + $0 % 8) % 3) }
        // The second 4×4 transform block across (x = 1) of an 8×8 block, at (4, 0) in the plane.
        AVIF.IntraPredictor.predictPalette(into: &p, startX: 4, startY: 0, x: 1, y: 0, txSz: K.TX_4X4,
                                           palette: [7, 70, 700], colorMap: map, mapStride: 8)
        for i in 0..<4 {
            for j in 0..<4 { #expect(p[y: i, x: 4 + j] == [7, 70, 700][(i + 4 + j) % 3]) }
        }
        #expect(p[y: 0, x: 0] == 0)
    }

    @Test func chromaFromLuma() {
        // 4:4:4, luma rows 100, 108, 116, 124: L = 8 × luma, average 896; alpha 16 gives
        // Round2Signed( 16 × 8 × ( 8i - 12 ), 6 ) = 16i - 24 on top of the DC value 128.
        var frame = AVIF.AV1Frame(lumaWidth: 8, lumaHeight: 8, bitDepth: 8, subsamplingX: 0, subsamplingY: 0,
                                  monochrome: false, value: 128)
        for i in 0..<4 { for j in 0..<4 { frame.planes[0][y: i, x: j] = UInt16(100 + 8 * i) } }
        var predictor = AVIF.IntraPredictor()
        predictor.predictChromaFromLuma(frame: &frame, plane: 1, startX: 0, startY: 0, txSz: K.TX_4X4, alpha: 16,
                                        maxLumaW: 8, maxLumaH: 8)
        for i in 0..<4 { for j in 0..<4 { #expect(frame.planes[1][y: i, x: j] == UInt16(104 + 16 * i)) } }
        #expect(frame.planes[2][y: 0, x: 0] == 128)

        // 4:2:0 with MaxLumaW 4: columns past the luma block repeat its last 2×2 average.
        var sub = AVIF.AV1Frame(lumaWidth: 8, lumaHeight: 8, bitDepth: 8, subsamplingX: 1, subsamplingY: 1,
                                monochrome: false, value: 128)
        for y in 0..<8 { for x in 0..<8 { sub.planes[0][y: y, x: x] = x < 2 ? 64 : (x < 4 ? 192 : 0) } }
        predictor.predictChromaFromLuma(frame: &sub, plane: 2, startX: 0, startY: 0, txSz: K.TX_4X4, alpha: -8,
                                        maxLumaW: 4, maxLumaH: 8)
        // L: 512 in column 0, 1536 in columns 1...3; average 1280; -8 × (512 - 1280) / 64 = 96, -8 × 256 / 64 = -32.
        #expect(sub.planes[2][y: 1, x: 0] == 224)
        #expect(sub.planes[2][y: 1, x: 3] == 96)
    }
}
