extension AVIF.LoopRestoration {
    /// §7.17.5, the Wiener coefficient process: the 7 symmetric taps with unit DC gain.
    static func wienerCoefficients(_ coeff: [Int]) -> [Int] {
        var filter = [0, 0, 0, 128, 0, 0, 0]
        for i in 0..<3 {
            let c = i < coeff.count ? coeff[i] : 0
            filter[i] = c
            filter[6 - i] = c
            filter[3] -= 2 * c
        }
        return filter
    }

    /// §7.17.4, the Wiener filter process for the w × h block at (`x`, `y`), with `vfilter`
    /// and `hfilter` in ``wienerTaps`` (from ``wienerCoefficients(_:)``'s computation).
    mutating func wienerFilter(currFrame: AVIF.AV1Plane, cdefFrame: AVIF.AV1Plane, lrFrame: inout AVIF.AV1Plane,
                               region: Region, x: Int, y: Int, w: Int, h: Int, bitDepth: Int) {
        // §7.11.3.2's rounding variables with isCompound 0.
        let interRound0 = bitDepth == 12 ? 5 : 3
        let interRound1 = bitDepth == 12 ? 9 : 11
        let offset = 1 << (bitDepth + AVIF.AV1Tables.FILTER_BITS - interRound0 - 1)
        let limit = (1 << (bitDepth + 1 + AVIF.AV1Tables.FILTER_BITS - interRound0)) - 1
        for r in 0..<(h + 6) {
            for c in 0..<w {
                var s = 0
                for t in 0..<7 {
                    s += wienerTaps[7 + t] * Self.sourceSample(currFrame, cdefFrame, region, x: x + c + t - 3, y: y + r - 3)
                }
                let v = AVIF.AV1Arithmetic.round2(s, interRound0)
                intermediate[r * w + c] = AVIF.AV1Arithmetic.clip3(-offset, limit - offset, v)
            }
        }
        for r in 0..<h {
            for c in 0..<w {
                var s = 0
                for t in 0..<7 { s += wienerTaps[t] * intermediate[(r + t) * w + c] }
                let v = AVIF.AV1Arithmetic.round2(s, interRound1)
                lrFrame[y: y + r, x: x + c] = UInt16(truncatingIfNeeded: AVIF.AV1Arithmetic.clip1(v, bitDepth))
            }
        }
    }

    /// §7.17.2, the self guided filter process for the w × h block at (`x`, `y`).
    mutating func selfGuidedFilter(currFrame: AVIF.AV1Plane, cdefFrame: AVIF.AV1Plane, lrFrame: inout AVIF.AV1Plane,
                                   region: Region, set: Int, xqd: (Int, Int), x: Int, y: Int, w: Int, h: Int,
                                   bitDepth: Int) {
        typealias K = AVIF.AV1Tables
        boxFilter(currFrame: currFrame, cdefFrame: cdefFrame, region: region, x: x, y: y, w: w, h: h, set: set,
                  pass: 0, bitDepth: bitDepth)
        boxFilter(currFrame: currFrame, cdefFrame: cdefFrame, region: region, x: x, y: y, w: w, h: h, set: set,
                  pass: 1, bitDepth: bitDepth)
        let w0 = xqd.0
        let w1 = xqd.1
        let w2 = (1 << K.SGRPROJ_PRJ_BITS) - w0 - w1
        let r0 = K.Sgr_Params[set][0]
        let r1 = K.Sgr_Params[set][2]
        for i in 0..<h {
            for j in 0..<w {
                let u = cdefFrame.sample(x + j, y + i) << K.SGRPROJ_RST_BITS
                var v = w1 * u
                v += r0 != 0 ? w0 * flt0[i * w + j] : w0 * u
                v += r1 != 0 ? w2 * flt1[i * w + j] : w2 * u
                let s = AVIF.AV1Arithmetic.round2(v, K.SGRPROJ_RST_BITS + K.SGRPROJ_PRJ_BITS)
                lrFrame[y: y + i, x: x + j] = UInt16(truncatingIfNeeded: AVIF.AV1Arithmetic.clip1(s, bitDepth))
            }
        }
    }

    /// §7.17.3, the box filter process: `flt0` (pass 0) or `flt1` (pass 1), at `i * w + j`.
    mutating func boxFilter(currFrame: AVIF.AV1Plane, cdefFrame: AVIF.AV1Plane, region: Region, x: Int, y: Int,
                            w: Int, h: Int, set: Int, pass: Int, bitDepth: Int) {
        typealias K = AVIF.AV1Tables
        let r = K.Sgr_Params[set][pass * 2 + 0]
        if r == 0 { return }
        let eps = K.Sgr_Params[set][pass * 2 + 1]
        let n = (2 * r + 1) * (2 * r + 1)
        let n2e = n * n * eps
        let s = ((1 << K.SGRPROJ_MTABLE_BITS) + n2e / 2) / n2e
        let oneOverN = ((1 << K.SGRPROJ_RECIP_BITS) + (n / 2)) / n
        // A[ i ][ j ], B[ i ][ j ] for i in -1...h, j in -1...w at (i + 1) * (w + 2) + j + 1.
        let stride = w + 2
        for i in -1..<(h + 1) {
            for j in -1..<(w + 1) {
                var a = 0
                var b = 0
                for dy in -r...r {
                    for dx in -r...r {
                        let c = Self.sourceSample(currFrame, cdefFrame, region, x: x + j + dx, y: y + i + dy)
                        a += c * c
                        b += c
                    }
                }
                a = AVIF.AV1Arithmetic.round2(a, 2 * (bitDepth - 8))
                let d = AVIF.AV1Arithmetic.round2(b, bitDepth - 8)
                let p = max(0, a * n - d * d)
                let z = AVIF.AV1Arithmetic.round2(p * s, K.SGRPROJ_MTABLE_BITS)
                let a2: Int
                if z >= 255 {
                    a2 = 256
                } else if z == 0 {
                    a2 = 1
                } else {
                    a2 = ((z << K.SGRPROJ_SGR_BITS) + (z / 2)) / (z + 1)
                }
                let b2 = ((1 << K.SGRPROJ_SGR_BITS) - a2) * b * oneOverN
                boxA[(i + 1) * stride + j + 1] = a2
                boxB[(i + 1) * stride + j + 1] = AVIF.AV1Arithmetic.round2(b2, K.SGRPROJ_RECIP_BITS)
            }
        }
        for i in 0..<h {
            var shift = 5
            if pass == 0 && (i & 1) != 0 { shift = 4 }
            for j in 0..<w {
                var a = 0
                var b = 0
                for dy in -1...1 {
                    for dx in -1...1 {
                        let weight: Int
                        if pass == 0 {
                            weight = ((i + dy) & 1) != 0 ? (dx == 0 ? 6 : 5) : 0
                        } else {
                            weight = (dx == 0 || dy == 0) ? 4 : 3
                        }
                        let k = (i + dy + 1) * stride + j + dx + 1
                        a += weight * boxA[k]
                        b += weight * boxB[k]
                    }
                }
                let v = a * cdefFrame.sample(x + j, y + i) + b
                let f = AVIF.AV1Arithmetic.round2(v, K.SGRPROJ_SGR_BITS + shift - K.SGRPROJ_RST_BITS)
                if pass == 0 { flt0[i * w + j] = f } else { flt1[i * w + j] = f }
            }
        }
    }
}
