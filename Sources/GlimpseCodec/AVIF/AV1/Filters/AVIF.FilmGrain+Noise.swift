extension AVIF.FilmGrain {
    /// §7.18.3.5, the add noise synthesis process, one 32-row luma stripe at a time: the
    /// specification's noiseStripe and noiseImage arrays are produced and consumed per stripe
    /// (keeping the previous stripe for the vertical overlap), which gives the same samples
    /// because a stripe's chroma rows only read the same stripe's luma rows, before its noise.
    mutating func addNoise(to frame: inout AVIF.AV1Frame, w: Int, h: Int, _ p: Parameters, matrixCoefficientsIdentity: Bool) {
        guard w > 0 && h > 0 else { return }
        let subX = frame.subsamplingX
        let subY = frame.subsamplingY
        let numPlanes = frame.numPlanes
        let stripeWidth = w + 34
        // noiseStripe[ lumaNum ][ plane ][ i ][ x ] for the current and the previous stripe.
        var current = [[Int]](repeating: [Int](repeating: 0, count: 34 * stripeWidth), count: numPlanes)
        var previous = current
        let minValue: Int, maxLuma: Int, maxChroma: Int
        if p.clipToRestrictedRange {
            minValue = 16 << (bitDepth - 8)
            maxLuma = 235 << (bitDepth - 8)
            maxChroma = matrixCoefficientsIdentity ? maxLuma : 240 << (bitDepth - 8)
        } else {
            minValue = 0
            maxLuma = (256 << (bitDepth - 8)) - 1
            maxChroma = maxLuma
        }
        let scalingShift = p.grainScalingMinus8 + 8
        var lumaNum = 0
        var y = 0
        while y < (h + 1) / 2 {
            // The noise stripe (§7.18.3.5's first loop).
            randomRegister = p.grainSeed & 0xFFFF
            randomRegister ^= ((lumaNum * 37 + 178) & 255) << 8
            randomRegister ^= (lumaNum * 173 + 105) & 255
            var x = 0
            while x < (w + 1) / 2 {
                let rand = getRandomNumber(8)
                let offsetX = rand >> 4
                let offsetY = rand & 15
                for plane in 0..<numPlanes {
                    let planeSubX = plane > 0 ? subX : 0
                    let planeSubY = plane > 0 ? subY : 0
                    let planeOffsetX = planeSubX != 0 ? 6 + offsetX : 9 + offsetX * 2
                    let planeOffsetY = planeSubY != 0 ? 6 + offsetY : 9 + offsetY * 2
                    for i in 0..<(34 >> planeSubY) {
                        for j in 0..<(34 >> planeSubX) {
                            let k = (planeOffsetY + i) * 82 + planeOffsetX + j
                            var g = plane == 0 ? lumaGrain[k] : (plane == 1 ? cbGrain[k] : crGrain[k])
                            if planeSubX == 0 {
                                let at = i * stripeWidth + x * 2 + j
                                if j < 2 && p.overlapFlag && x > 0 {
                                    let old = current[plane][at]
                                    g = j == 0 ? old * 27 + g * 17 : old * 17 + g * 27
                                    g = AVIF.AV1Arithmetic.clip3(grainMin, grainMax, AVIF.AV1Arithmetic.round2(g, 5))
                                }
                                current[plane][at] = g
                            } else {
                                let at = i * stripeWidth + x + j
                                if j == 0 && p.overlapFlag && x > 0 {
                                    let old = current[plane][at]
                                    g = old * 23 + g * 22
                                    g = AVIF.AV1Arithmetic.clip3(grainMin, grainMax, AVIF.AV1Arithmetic.round2(g, 5))
                                }
                                current[plane][at] = g
                            }
                        }
                    }
                }
                x += 16
            }
            // This stripe's rows of noiseImage, blended with the previous stripe, added to the
            // planes: chroma first (it reads the luma before its noise), then luma.
            @inline(__always) func noise(_ plane: Int, _ row: Int, _ column: Int) -> Int {
                let planeSubY = plane > 0 ? subY : 0
                let i = row - (lumaNum << (5 - planeSubY))
                var g = current[plane][i * stripeWidth + column]
                if planeSubY == 0 {
                    if i < 2 && lumaNum > 0 && p.overlapFlag {
                        let old = previous[plane][(i + 32) * stripeWidth + column]
                        g = i == 0 ? old * 27 + g * 17 : old * 17 + g * 27
                        g = AVIF.AV1Arithmetic.clip3(grainMin, grainMax, AVIF.AV1Arithmetic.round2(g, 5))
                    }
                } else if i < 1 && lumaNum > 0 && p.overlapFlag {
                    let old = previous[plane][(i + 16) * stripeWidth + column]
                    g = old * 23 + g * 22
                    g = AVIF.AV1Arithmetic.clip3(grainMin, grainMax, AVIF.AV1Arithmetic.round2(g, 5))
                }
                return g
            }
            if numPlanes > 1 {
                let chromaRows = (h + subY) >> subY
                let firstRow = lumaNum << (5 - subY)
                for cy in firstRow..<min(chromaRows, firstRow + (32 >> subY)) {
                    for cx in 0..<((w + subX) >> subX) {
                        let lumaX = cx << subX
                        let lumaY = cy << subY
                        let lumaNextX = min(lumaX + 1, w - 1)
                        let averageLuma = subX != 0
                            ? AVIF.AV1Arithmetic.round2(frame.planes[0].sample(lumaX, lumaY) + frame.planes[0].sample(lumaNextX, lumaY), 1)
                            : frame.planes[0].sample(lumaX, lumaY)
                        for plane in 1...2 {
                            let numPoints = plane == 1 ? p.numCbPoints : p.numCrPoints
                            guard numPoints > 0 || p.chromaScalingFromLuma else { continue }
                            let orig = frame.planes[plane].sample(cx, cy)
                            let merged: Int
                            if p.chromaScalingFromLuma {
                                merged = averageLuma
                            } else {
                                let lumaMult = plane == 1 ? p.cbLumaMult : p.crLumaMult
                                let mult = plane == 1 ? p.cbMult : p.crMult
                                let offset = plane == 1 ? p.cbOffset : p.crOffset
                                let combined = averageLuma * (lumaMult - 128) + orig * (mult - 128)
                                merged = AVIF.AV1Arithmetic.clip1((combined >> 6) + ((offset - 256) << (bitDepth - 8)), bitDepth)
                            }
                            let n = AVIF.AV1Arithmetic.round2(scaleLut(plane, merged) * noise(plane, cy, cx), scalingShift)
                            let v = AVIF.AV1Arithmetic.clip3(minValue, maxChroma, orig + n)
                            frame.planes[plane][y: cy, x: cx] = UInt16(truncatingIfNeeded: v)
                        }
                    }
                }
            }
            if p.numYPoints > 0 {
                let firstRow = lumaNum << 5
                for ly in firstRow..<min(h, firstRow + 32) {
                    for lx in 0..<w {
                        let orig = frame.planes[0].sample(lx, ly)
                        let n = AVIF.AV1Arithmetic.round2(scaleLut(0, orig) * noise(0, ly, lx), scalingShift)
                        frame.planes[0][y: ly, x: lx] = UInt16(truncatingIfNeeded: AVIF.AV1Arithmetic.clip3(minValue, maxLuma, orig + n))
                    }
                }
            }
            swap(&previous, &current)
            lumaNum += 1
            y += 16
        }
    }
}
