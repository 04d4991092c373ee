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
        guard w > 0, h > 0, w <= Self.maxBlock, h <= Self.maxBlock else { return }
        // Moved out of `self` so that its writes need no uniqueness check.
        var rows: [Int] = []
        swap(&rows, &padded)
        defer { swap(&rows, &padded) }
        rows.withUnsafeMutableBufferPointer { rows in
            for pi in 0..<(h + 6) {
                // §7.17.6 decides the row (and which frame it comes from) independently of x,
                // so once per row; x is then only clamped to the plane.
                let (source, sourceY) = Self.sourceRow(currFrame, cdefFrame, region, y: y - 3 + pi)
                let row = pi * pw
                if sourceY >= 0, sourceY < source.height, region.planeEndX < source.width {
                    source.samples.withUnsafeBufferPointer { samples in
                        // In bounds: 0 ≤ column ≤ planeEndX < width, and sourceY < height.
                        let start = sourceY * source.stride
                        for pj in 0..<pw {
                            let column = max(0, min(region.planeEndX, x - 3 + pj))
                            rows[row + pj] = Int(samples[start + column])
                        }
                    }
                } else {
                    for pj in 0..<pw {
                        rows[row + pj] = source.sample(max(0, min(region.planeEndX, x - 3 + pj)), sourceY)
                    }
                }
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
        // filterBlock's guard: the scratch arrays hold (maxBlock + 6)² samples.
        guard w > 0, h > 0, w <= Self.maxBlock, h <= Self.maxBlock, wienerTaps.count == 14 else { return }
        let pw = w + 6
        // Moved out of `self` for the loops, so that its writes need no uniqueness check.
        var rows: [Int] = []
        swap(&rows, &intermediate)
        defer { swap(&rows, &intermediate) }
        rows.withUnsafeMutableBufferPointer { rows in
            padded.withUnsafeBufferPointer { padded in
                wienerTaps.withUnsafeBufferPointer { taps in
                    // Row r of the intermediate array is source row y + r - 3 (padded row r); tap t
                    // of column c is source column x + c + t - 3 (padded column c + t). Unchecked:
                    // r < h + 6, c + t < w + 6.
                    for r in 0..<(h + 6) {
                        for c in 0..<w {
                            var s = 0
                            let base = r * pw + c
                            for t in 0..<7 { s &+= taps[7 + t] &* padded[base + t] }
                            let v = AVIF.AV1Arithmetic.round2(s, interRound0)
                            rows[r * w + c] = AVIF.AV1Arithmetic.clip3(-offset, limit - offset, v)
                        }
                    }
                }
            }
        }
        let inside = lrFrame.contains(x: x, y: y, width: w, height: h)
        let (stride, planeWidth, planeHeight) = (lrFrame.stride, lrFrame.width, lrFrame.height)
        rows.withUnsafeBufferPointer { rows in
            wienerTaps.withUnsafeBufferPointer { taps in
                lrFrame.samples.withUnsafeMutableBufferPointer { samples in
                    for r in 0..<h {
                        for c in 0..<w {
                            var s = 0
                            for t in 0..<7 { s &+= taps[t] &* rows[(r + t) * w + c] }
                            let v = UInt16(truncatingIfNeeded: AVIF.AV1Arithmetic.clip1(AVIF.AV1Arithmetic.round2(s, interRound1), bitDepth))
                            // Outside the plane (a block at its edge) the sample is dropped, as
                            // AV1Plane's subscript drops it.
                            if inside || (x + c < planeWidth && y + r < planeHeight && x + c >= 0 && y + r >= 0) {
                                samples[(y + r) * stride + x + c] = v
                            }
                        }
                    }
                }
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
        guard lrFrame.contains(x: x, y: y, width: w, height: h), cdefFrame.width == lrFrame.width,
              cdefFrame.height == lrFrame.height, flt0.count >= w * h, flt1.count >= w * h else {
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
            return
        }
        // The block inside both planes (the usual case): through their buffers, unchecked.
        let stride = lrFrame.stride
        cdefFrame.samples.withUnsafeBufferPointer { source in
            flt0.withUnsafeBufferPointer { flt0 in
                flt1.withUnsafeBufferPointer { flt1 in
                    lrFrame.samples.withUnsafeMutableBufferPointer { out in
                        for i in 0..<h {
                            let row = (y + i) * stride + x
                            for j in 0..<w {
                                let u = Int(source[row + j]) << K.SGRPROJ_RST_BITS
                                var v = w1 &* u
                                v &+= r0 != 0 ? w0 &* flt0[i * w + j] : w0 &* u
                                v &+= r1 != 0 ? w2 &* flt1[i * w + j] : w2 &* u
                                let s = AVIF.AV1Arithmetic.round2(v, K.SGRPROJ_RST_BITS + K.SGRPROJ_PRJ_BITS)
                                out[row + j] = UInt16(truncatingIfNeeded: AVIF.AV1Arithmetic.clip1(s, bitDepth))
                            }
                        }
                    }
                }
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
        // The scratch arrays hold a block of up to maxBlock × maxBlock (filterBlock's guard).
        guard r > 0, w > 0, h > 0, w <= Self.maxBlock, h <= Self.maxBlock else { return }
        let eps = K.Sgr_Params[set][pass * 2 + 1]
        let n = (2 * r + 1) * (2 * r + 1)
        let n2e = n * n * eps
        let constants = BoxConstants(r: r, n: n, s: ((1 << K.SGRPROJ_MTABLE_BITS) + n2e / 2) / n2e,
                                     oneOverN: ((1 << K.SGRPROJ_RECIP_BITS) + (n / 2)) / n, pass: pass,
                                     bitDepth: bitDepth)
        // The scratch arrays are moved out of `self` for the loops, so that each is uniquely
        // held and its buffer can be written without a uniqueness check per sample.
        var a: [Int] = [], b: [Int] = [], sums: [Int] = [], squares: [Int] = [], out: [Int] = []
        swap(&a, &boxA)
        swap(&b, &boxB)
        swap(&sums, &columnSum)
        swap(&squares, &columnSquares)
        if pass == 0 { swap(&out, &flt0) } else { swap(&out, &flt1) }
        defer {
            swap(&a, &boxA)
            swap(&b, &boxB)
            swap(&sums, &columnSum)
            swap(&squares, &columnSquares)
            if pass == 0 { swap(&out, &flt0) } else { swap(&out, &flt1) }
        }
        padded.withUnsafeBufferPointer { padded in
            a.withUnsafeMutableBufferPointer { a in
                b.withUnsafeMutableBufferPointer { b in
                    sums.withUnsafeMutableBufferPointer { sums in
                        squares.withUnsafeMutableBufferPointer { squares in
                            Self.boxSums(padded: padded, a: a, b: b, sums: sums, squares: squares, w: w, h: h, constants)
                        }
                    }
                    out.withUnsafeMutableBufferPointer { out in
                        if cdefFrame.contains(x: x, y: y, width: w, height: h) {
                            cdefFrame.samples.withUnsafeBufferPointer { samples in
                                Self.boxOutput(a: a, b: b, centre: samples, offset: y * cdefFrame.stride + x,
                                               stride: cdefFrame.stride, out: out, w: w, h: h, pass: pass)
                            }
                        } else {
                            // A block at the plane's edge: its samples outside read as 0, as
                            // `sample` gives them (their outputs are never stored).
                            let centre = (0..<(w * h)).map { UInt16(cdefFrame.sample(x + $0 % w, y + $0 / w)) }
                            centre.withUnsafeBufferPointer { centre in
                                Self.boxOutput(a: a, b: b, centre: centre, offset: 0, stride: w, out: out,
                                               w: w, h: h, pass: pass)
                            }
                        }
                    }
                }
            }
        }
    }

    /// What §7.17.3 derives from the radius and the set before the sums.
    struct BoxConstants {
        let r: Int, n: Int, s: Int, oneOverN: Int, pass: Int, bitDepth: Int
    }

    /// `A` and `B` for i in -1...h (pass 0: the odd rows only) and j in -1...w, at
    /// `(i + 1) * (w + 2) + j + 1`. Unchecked indexing: the buffers are ``maxBlock``-sized
    /// and w, h ≤ maxBlock, so every index below is inside them. With the Wiener filter's
    /// buffers, loop restoration on fox 8-bit 4:2:0 went from 760 M to 499 M instructions
    /// (callgrind), and the column sums slid down the rows to 462 M.
    static func boxSums(padded: UnsafeBufferPointer<Int>, a boxA: UnsafeMutableBufferPointer<Int>,
                        b boxB: UnsafeMutableBufferPointer<Int>, sums: UnsafeMutableBufferPointer<Int>,
                        squares: UnsafeMutableBufferPointer<Int>, w: Int, h: Int, _ k: BoxConstants) {
        typealias K = AVIF.AV1Tables
        let pw = w + 6
        let abStride = w + 2
        let r = k.r
        let roundA = 2 * (k.bitDepth - 8), roundB = k.bitDepth - 8
        let rowStep = k.pass == 0 ? 2 : 1
        boxA2.withUnsafeBufferPointer { boxA2 in
            for i in stride(from: -1, to: h + 1, by: rowStep) {
                // Column sums over rows i - r ... i + r (padded rows i + 3 - r ... i + 3 + r):
                // summed for the first row, then slid down by rowStep rows (the same integers).
                if i == -1 {
                    let top = (i + 3 - r) * pw
                    for pj in 0..<pw {
                        var sum = 0, square = 0
                        var index = top + pj
                        for _ in 0...(2 * r) {
                            let c = padded[index]
                            square &+= c &* c
                            sum &+= c
                            index &+= pw
                        }
                        sums[pj] = sum
                        squares[pj] = square
                    }
                } else {
                    for k in 0..<rowStep {
                        let entering = (i + 3 + r - k) * pw, leaving = (i + 2 - r - k) * pw
                        for pj in 0..<pw {
                            let c = padded[entering + pj], l = padded[leaving + pj]
                            sums[pj] &+= c &- l
                            squares[pj] &+= c &* c &- l &* l
                        }
                    }
                }
                let row = (i + 1) * abStride + 1
                for j in -1..<(w + 1) {
                    var a = 0, b = 0
                    for column in (j + 3 - r)...(j + 3 + r) {
                        a &+= squares[column]
                        b &+= sums[column]
                    }
                    a = AVIF.AV1Arithmetic.round2(a, roundA)
                    let d = AVIF.AV1Arithmetic.round2(b, roundB)
                    let p = max(0, a &* k.n &- d &* d)
                    let z = AVIF.AV1Arithmetic.round2(p &* k.s, K.SGRPROJ_MTABLE_BITS)
                    let a2 = z >= 255 ? 256 : boxA2[z]
                    let b2 = ((1 << K.SGRPROJ_SGR_BITS) &- a2) &* b &* k.oneOverN
                    boxA[row + j] = a2
                    boxB[row + j] = AVIF.AV1Arithmetic.round2(b2, K.SGRPROJ_RECIP_BITS)
                }
            }
        }
    }

    /// The filtered samples from `A`, `B` and the block's own samples (`centre[offset + i *
    /// stride + j]`), at `out[i * w + j]`.
    static func boxOutput(a boxA: UnsafeMutableBufferPointer<Int>, b boxB: UnsafeMutableBufferPointer<Int>,
                          centre: UnsafeBufferPointer<UInt16>, offset: Int, stride: Int,
                          out: UnsafeMutableBufferPointer<Int>, w: Int, h: Int, pass: Int) {
        typealias K = AVIF.AV1Tables
        let abStride = w + 2
        for i in 0..<h {
            let above = i * abStride, row = (i + 1) * abStride, below = (i + 2) * abStride
            let source = offset + i * stride
            for j in 0..<w {
                let k = j + 1
                let a: Int
                let b: Int
                let shift: Int
                if pass == 0 {
                    // Weight 6 straight above or below, 5 diagonally, on the odd rows only: the
                    // rows above and below an even i, i's own row for an odd i.
                    if i & 1 == 0 {
                        a = 6 &* (boxA[above + k] &+ boxA[below + k])
                            &+ 5 &* (boxA[above + k - 1] &+ boxA[above + k + 1] &+ boxA[below + k - 1] &+ boxA[below + k + 1])
                        b = 6 &* (boxB[above + k] &+ boxB[below + k])
                            &+ 5 &* (boxB[above + k - 1] &+ boxB[above + k + 1] &+ boxB[below + k - 1] &+ boxB[below + k + 1])
                        shift = 5
                    } else {
                        a = 6 &* boxA[row + k] &+ 5 &* (boxA[row + k - 1] &+ boxA[row + k + 1])
                        b = 6 &* boxB[row + k] &+ 5 &* (boxB[row + k - 1] &+ boxB[row + k + 1])
                        shift = 4
                    }
                } else {
                    // Weight 4 on the cross, 3 on the corners.
                    a = 4 &* (boxA[row + k] &+ boxA[row + k - 1] &+ boxA[row + k + 1] &+ boxA[above + k] &+ boxA[below + k])
                        &+ 3 &* (boxA[above + k - 1] &+ boxA[above + k + 1] &+ boxA[below + k - 1] &+ boxA[below + k + 1])
                    b = 4 &* (boxB[row + k] &+ boxB[row + k - 1] &+ boxB[row + k + 1] &+ boxB[above + k] &+ boxB[below + k])
                        &+ 3 &* (boxB[above + k - 1] &+ boxB[above + k + 1] &+ boxB[below + k - 1] &+ boxB[below + k + 1])
                    shift = 5
                }
                let v = a &* Int(centre[source + j]) &+ b
                out[i * w + j] = AVIF.AV1Arithmetic.round2(v, K.SGRPROJ_SGR_BITS + shift - K.SGRPROJ_RST_BITS)
            }
        }
    }
}
