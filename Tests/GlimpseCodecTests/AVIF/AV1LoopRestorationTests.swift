import Testing
@testable import GlimpseCodec

/// §7.17 and §7.16 on synthetic planes: identity filters reproduce their input exactly, flat
/// planes stay flat, and rows beyond a stripe come from the deblocked frame.
@Suite struct AV1LoopRestorationTests {
    typealias K = AVIF.AV1Tables

    static func frame(_ size: Int, bitDepth: Int, seed: UInt64) -> AVIF.AV1Frame {
        var random = AV1TestRandom(seed: seed)
        var f = AVIF.AV1Frame(lumaWidth: size, lumaHeight: size, bitDepth: bitDepth, subsamplingX: 1, subsamplingY: 1,
                              monochrome: false)
        for p in 0..<3 {
            for k in 0..<f.planes[p].samples.count {
                f.planes[p].samples[k] = UInt16.random(in: 0..<(1 << bitDepth), using: &random)
            }
        }
        return f
    }

    static func parameters(size: Int, type: Int, wiener: [Int] = [], set: Int = 0, xqd: [Int] = []) -> AVIF.LoopRestoration.Parameters {
        let units = AVIF.LoopRestoration.PlaneUnits(frameRestorationType: type, loopRestorationSize: 64, lrType: [type],
                                                    lrWiener: wiener, lrSgrSet: [set], lrSgrXqd: xqd)
        return .init(frameHeight: size, upscaledWidth: size, planes: [units, units, units])
    }

    @Test func identityFiltersReproduceTheInput() {
        for bitDepth in [8, 10, 12] {
            let f = Self.frame(48, bitDepth: bitDepth, seed: UInt64(bitDepth))
            var lr = AVIF.LoopRestoration()
            // Wiener taps 0, 0, 0 (the centre 128) in both directions.
            let wiener = lr.apply(currFrame: f, cdefFrame: f, Self.parameters(size: 48, type: K.RESTORE_WIENER, wiener: [0, 0, 0, 0, 0, 0]))
            #expect(wiener == f)
            // Self-guided with w0 = 0, w1 = 128 (w2 = 0): the projection returns u.
            let sgr = lr.apply(currFrame: f, cdefFrame: f, Self.parameters(size: 48, type: K.RESTORE_SGRPROJ, set: 3, xqd: [0, 128]))
            #expect(sgr == f)
        }
    }

    @Test func flatPlanesStayFlat() {
        for bitDepth in [8, 10, 12] {
            let f = AVIF.AV1Frame(lumaWidth: 40, lumaHeight: 40, bitDepth: bitDepth, subsamplingX: 0, subsamplingY: 0,
                                  monochrome: true, value: UInt16(1 << (bitDepth - 2)))
            var lr = AVIF.LoopRestoration()
            let wiener = lr.apply(currFrame: f, cdefFrame: f, Self.parameters(size: 40, type: K.RESTORE_WIENER, wiener: [3, -7, 15, -5, 8, 46]))
            #expect(wiener == f)
            for set in 0..<16 {
                let sgr = lr.apply(currFrame: f, cdefFrame: f, Self.parameters(size: 40, type: K.RESTORE_SGRPROJ, set: set, xqd: [-32, 31]))
                #expect(sgr.planes[0].samples.allSatisfy { abs(Int($0) - (1 << (bitDepth - 2))) <= 1 }, "set \(set)")
            }
        }
    }

    @Test func rowsOutsideTheStripeComeFromTheDeblockedFrame() {
        // CDEF output 100, deblocked 200. Vertical taps 0, 0, 10 (centre 108): at y = 55, the last
        // row of stripe 0, row 56 comes from the deblocked frame: Round2( 16 × ( 10 × 100 + 108 × 100 + 10 × 200 ), 11 ) = 108.
        let cdef = AVIF.AV1Frame(lumaWidth: 64, lumaHeight: 128, bitDepth: 8, subsamplingX: 0, subsamplingY: 0,
                                 monochrome: true, value: 100)
        let curr = AVIF.AV1Frame(lumaWidth: 64, lumaHeight: 128, bitDepth: 8, subsamplingX: 0, subsamplingY: 0,
                                 monochrome: true, value: 200)
        var lr = AVIF.LoopRestoration()
        let units = AVIF.LoopRestoration.PlaneUnits(frameRestorationType: K.RESTORE_WIENER, loopRestorationSize: 64,
                                                    lrType: [1, 1], lrWiener: [0, 0, 10, 0, 0, 0, 0, 0, 10, 0, 0, 0])
        let out = lr.apply(currFrame: curr, cdefFrame: cdef, .init(frameHeight: 128, upscaledWidth: 64, planes: [units]))
        #expect(out.planes[0][y: 55, x: 10] == 108)
        #expect(out.planes[0][y: 56, x: 10] == 108)
        #expect(out.planes[0][y: 20, x: 10] == 100)
        #expect(AVIF.LoopRestoration.wienerCoefficients([3, -7, 15]) == [3, -7, 15, 106, 15, -7, 3])
        #expect(AVIF.LoopRestoration.unitCount(unitSize: 64, frameSize: 95) == 1)
        #expect(AVIF.LoopRestoration.unitCount(unitSize: 64, frameSize: 96) == 2)
    }

    @Test func blocksOfUnitsAndStripesMatchTheSpecificationsFourByFourLoop() {
        // Random content (deblocked and CDEF frames apart), every unit its own type and
        // coefficients, sizes that are not multiples of 4 or of the units.
        var random = AV1TestRandom(seed: 2024)
        for (trial, (w, h, subX, subY, bitDepth, size)) in [(150, 97, 1, 1, 8, 64), (130, 140, 1, 0, 10, 32),
                                                              (67, 201, 0, 0, 12, 128), (260, 70, 1, 1, 10, 256)].enumerated() {
            var curr = AVIF.AV1Frame(lumaWidth: w, lumaHeight: h, bitDepth: bitDepth, subsamplingX: subX, subsamplingY: subY,
                                     monochrome: false)
            var cdef = curr
            for p in 0..<3 {
                for k in 0..<curr.planes[p].samples.count {
                    curr.planes[p].samples[k] = UInt16.random(in: 0..<(1 << bitDepth), using: &random)
                    cdef.planes[p].samples[k] = UInt16.random(in: 0..<(1 << bitDepth), using: &random)
                }
            }
            var planes: [AVIF.LoopRestoration.PlaneUnits] = []
            for p in 0..<3 {
                let unitSize = p == 0 ? max(64, size) : size
                let units = AVIF.LoopRestoration.unitCount(unitSize: unitSize, frameSize: p == 0 ? h : (h + subY) >> subY)
                    * AVIF.LoopRestoration.unitCount(unitSize: unitSize, frameSize: p == 0 ? w : (w + subX) >> subX)
                planes.append(.init(
                    frameRestorationType: K.RESTORE_SWITCHABLE, loopRestorationSize: unitSize,
                    lrType: (0..<units).map { _ in Int.random(in: 0...2, using: &random) },
                    lrWiener: (0..<(units * 6)).map { k in
                        Int.random(in: K.Wiener_Taps_Min[k % 3]...K.Wiener_Taps_Max[k % 3], using: &random) * (p > 0 && k % 3 == 0 ? 0 : 1)
                    },
                    lrSgrSet: (0..<units).map { _ in Int.random(in: 0...15, using: &random) },
                    lrSgrXqd: (0..<(units * 2)).map { k in Int.random(in: K.Sgrproj_Xqd_Min[k % 2]...K.Sgrproj_Xqd_Max[k % 2], using: &random) }))
            }
            let parameters = AVIF.LoopRestoration.Parameters(frameHeight: h, upscaledWidth: w, planes: planes)
            var lr = AVIF.LoopRestoration()
            let blocked = lr.apply(currFrame: curr, cdefFrame: cdef, parameters)
            let reference = lr.applyPerBlock(currFrame: curr, cdefFrame: cdef, parameters)
            #expect(blocked == reference, "trial \(trial)")
            #expect(blocked != cdef)
        }
    }

    @Test func superResolution() {
        // Every Upscale_Filter row sums to 128: flat stays flat, at the upscaled sizes.
        let f = AVIF.AV1Frame(lumaWidth: 40, lumaHeight: 8, bitDepth: 10, subsamplingX: 1, subsamplingY: 1,
                              monochrome: false, value: 700)
        let up = AVIF.SuperResolution.upscale(f, frameWidth: 40, upscaledWidth: 80, frameHeight: 8, miCols: 10)
        #expect(up.planes[0].width == 80 && up.planes[1].width == 40 && up.planes[1].height == 4)
        #expect(up.planes.allSatisfy { $0.samples.allSatisfy { $0 == 700 } })
        // A ramp of slope 8: output x samples the source at x / 2 - 1/4, so away from the clamped
        // ends it reads 4x - 2 (the 8-tap filters reproduce a line up to their rounding).
        var ramp = AVIF.AV1Frame(lumaWidth: 32, lumaHeight: 1, bitDepth: 8, subsamplingX: 0, subsamplingY: 0, monochrome: true)
        for x in 0..<32 { ramp.planes[0][y: 0, x: x] = UInt16(x * 8) }
        let upRamp = AVIF.SuperResolution.upscale(ramp, frameWidth: 32, upscaledWidth: 64, frameHeight: 1, miCols: 8)
        let row = (0..<64).map { upRamp.planes[0].sample($0, 0) }
        for x in 8..<56 { #expect(abs(row[x] - (4 * x - 2)) <= 1, "x \(x): \(row[x])") }
    }
}
