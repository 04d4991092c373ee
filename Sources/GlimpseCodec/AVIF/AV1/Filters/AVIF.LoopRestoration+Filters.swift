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

    /// The samples both filters read around the w × h block at (`x`, `y`), each fetched once by
    /// the get source sample process (§7.17.6): `padded[ pi * (w + 6) + pj ]` is the sample at
    /// ( x - 3 + pj, y - 3 + pi ), for pi in 0..<(h + 6) and pj in 0..<(w + 6). The Wiener taps
    /// and the box filter's windows (radius ≤ 2, for A and B one sample beyond the block) reach
    /// at most 3 samples out.
    mutating func gatherSource(currFrame: AVIF.AV1Plane, cdefFrame: AVIF.AV1Plane, region: Region,
                               x: Int, y: Int, w: Int, h: Int) {
        let pw = w + 6
        for pi in 0..<(h + 6) {
            for pj in 0..<pw {
                padded[pi * pw + pj] = Self.sourceSample(currFrame, cdefFrame, region, x: x - 3 + pj, y: y - 3 + pi)
            }
        }
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
        gatherSource(currFrame: currFrame, cdefFrame: cdefFrame, region: region, x: x, y: y, w: w, h: h)
        let pw = w + 6
        // Row r of the intermediate array is source row y + r - 3 (padded row r); tap t of column c
        // is source column x + c + t - 3 (padded column c + t).
        for r in 0..<(h + 6) {
            for c in 0..<w {
                var s = 0
                for t in 0..<7 { s += wienerTaps[7 + t] * padded[r * pw + c + t] }
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
        gatherSource(currFrame: currFrame, cdefFrame: cdefFrame, region: region, x: x, y: y, w: w, h: h)
        boxFilter(cdefFrame: cdefFrame, x: x, y: y, w: w, h: h, set: set, pass: 0, bitDepth: bitDepth)
        boxFilter(cdefFrame: cdefFrame, x: x, y: y, w: w, h: h, set: set, pass: 1, bitDepth: bitDepth)
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

    /// `((z << SGRPROJ_SGR_BITS) + (z / 2)) / (z + 1)` for z in 0..<255, the division of §7.17.3
    /// taken out of the per-sample loop (entry 0 is the specification's special case, 1).
    static let boxA2: [Int] = (0..<255).map { z in
        z == 0 ? 1 : ((z << AVIF.AV1Tables.SGRPROJ_SGR_BITS) + (z / 2)) / (z + 1)
    }

    /// §7.17.3, the box filter process: `flt0` (pass 0) or `flt1` (pass 1), at `i * w + j`, from
    /// the samples ``gatherSource(currFrame:cdefFrame:region:x:y:w:h:)`` left in `padded`.
    ///
    /// The window sums are taken column by column and then along the row (the same integer sums
    /// as the specification's double loop); pass 0 computes A and B only on the rows its 3×3
    /// weights read (odd i), since the specification gives the even rows weight 0.
    mutating func boxFilter(cdefFrame: AVIF.AV1Plane, x: Int, y: Int, w: Int, h: Int, set: Int, pass: Int,
                            bitDepth: Int) {
        typealias K = AVIF.AV1Tables
        let r = K.Sgr_Params[set][pass * 2 + 0]
        if r == 0 { return }
        let eps = K.Sgr_Params[set][pass * 2 + 1]
        let n = (2 * r + 1) * (2 * r + 1)
        let n2e = n * n * eps
        let s = ((1 << K.SGRPROJ_MTABLE_BITS) + n2e / 2) / n2e
        let oneOverN = ((1 << K.SGRPROJ_RECIP_BITS) + (n / 2)) / n
        let pw = w + 6
        // A[ i ][ j ], B[ i ][ j ] for i in -1...h, j in -1...w at (i + 1) * (w + 2) + j + 1.
        let abStride = w + 2
        let rowStep = pass == 0 ? 2 : 1
        for i in stride(from: -1, to: h + 1, by: rowStep) {
            // Column sums over rows i - r ... i + r (padded rows i + 3 - r ... i + 3 + r).
            for pj in 0..<pw {
                var b = 0
                var a = 0
                for dy in -r...r {
                    let c = padded[(i + 3 + dy) * pw + pj]
                    a += c * c
                    b += c
                }
                columnSum[pj] = b
                columnSquares[pj] = a
            }
            for j in -1..<(w + 1) {
                var a = 0
                var b = 0
                for dx in -r...r {
                    a += columnSquares[j + 3 + dx]
                    b += columnSum[j + 3 + dx]
                }
                a = AVIF.AV1Arithmetic.round2(a, 2 * (bitDepth - 8))
                let d = AVIF.AV1Arithmetic.round2(b, bitDepth - 8)
                let p = max(0, a * n - d * d)
                let z = AVIF.AV1Arithmetic.round2(p * s, K.SGRPROJ_MTABLE_BITS)
                let a2 = z >= 255 ? 256 : Self.boxA2[z]
                let b2 = ((1 << K.SGRPROJ_SGR_BITS) - a2) * b * oneOverN
                boxA[(i + 1) * abStride + j + 1] = a2
                boxB[(i + 1) * abStride + j + 1] = AVIF.AV1Arithmetic.round2(b2, K.SGRPROJ_RECIP_BITS)
            }
        }
        for i in 0..<h {
            let above = i * abStride, row = (i + 1) * abStride, below = (i + 2) * abStride
            for j in 0..<w {
                let k = j + 1
                let a: Int
                let b: Int
                let shift: Int
                if pass == 0 {
                    // Weight 6 straight above or below, 5 diagonally, on the odd rows only: the
                    // rows above and below an even i, i's own row for an odd i.
                    if i & 1 == 0 {
                        a = 6 * (boxA[above + k] + boxA[below + k])
                            + 5 * (boxA[above + k - 1] + boxA[above + k + 1] + boxA[below + k - 1] + boxA[below + k + 1])
                        b = 6 * (boxB[above + k] + boxB[below + k])
                            + 5 * (boxB[above + k - 1] + boxB[above + k + 1] + boxB[below + k - 1] + boxB[below + k + 1])
                        shift = 5
                    } else {
                        a = 6 * boxA[row + k] + 5 * (boxA[row + k - 1] + boxA[row + k + 1])
                        b = 6 * boxB[row + k] + 5 * (boxB[row + k - 1] + boxB[row + k + 1])
                        shift = 4
                    }
                } else {
                    // Weight 4 on the cross, 3 on the corners.
                    a = 4 * (boxA[row + k] + boxA[row + k - 1] + boxA[row + k + 1] + boxA[above + k] + boxA[below + k])
                        + 3 * (boxA[above + k - 1] + boxA[above + k + 1] + boxA[below + k - 1] + boxA[below + k + 1])
                    b = 4 * (boxB[row + k] + boxB[row + k - 1] + boxB[row + k + 1] + boxB[above + k] + boxB[below + k])
                        + 3 * (boxB[above + k - 1] + boxB[above + k + 1] + boxB[below + k - 1] + boxB[below + k + 1])
                    shift = 5
                }
                let v = a * cdefFrame.sample(x + j, y + i) + b
                let f = AVIF.AV1Arithmetic.round2(v, K.SGRPROJ_SGR_BITS + shift - K.SGRPROJ_RST_BITS)
                if pass == 0 { flt0[i * w + j] = f } else { flt1[i * w + j] = f }
            }
        }
    }
}
