extension AVIF.IntraPredictor {
    /// §7.11.2.7, the filter corner process: Round2( LeftCol[ 0 ] × 5 + AboveRow[ -1 ] × 6 + AboveRow[ 0 ] × 5, 4 ).
    func filterCorner() -> Int {
        let s = left(0) * 5 + above(-1) * 6 + above(0) * 5
        return AVIF.AV1Arithmetic.round2(s, 4)
    }

    /// §7.11.2.9, the intra edge filter strength selection process (0...3).
    static func intraEdgeFilterStrength(w: Int, h: Int, filterType: Int, delta: Int) -> Int {
        let d = abs(delta)
        let blkWh = w + h
        var strength = 0
        if filterType == 0 {
            if blkWh <= 8 {
                if d >= 56 { strength = 1 }
            } else if blkWh <= 12 {
                if d >= 40 { strength = 1 }
            } else if blkWh <= 16 {
                if d >= 40 { strength = 1 }
            } else if blkWh <= 24 {
                if d >= 8 { strength = 1 }
                if d >= 16 { strength = 2 }
                if d >= 32 { strength = 3 }
            } else if blkWh <= 32 {
                strength = 1
                if d >= 4 { strength = 2 }
                if d >= 32 { strength = 3 }
            } else {
                strength = 3
            }
        } else {
            if blkWh <= 8 {
                if d >= 40 { strength = 1 }
                if d >= 64 { strength = 2 }
            } else if blkWh <= 16 {
                if d >= 20 { strength = 1 }
                if d >= 48 { strength = 2 }
            } else if blkWh <= 24 {
                if d >= 4 { strength = 3 }
            } else {
                strength = 3
            }
        }
        return strength
    }

    /// §7.11.2.10, the intra edge upsample selection process.
    static func useIntraEdgeUpsample(w: Int, h: Int, filterType: Int, delta: Int) -> Bool {
        let d = abs(delta)
        let blkWh = w + h
        if d <= 0 || d >= 40 { return false }
        return filterType == 0 ? blkWh <= 16 : blkWh <= 8
    }

    /// §7.11.2.12, the intra edge filter process on entries -1...sz - 2 of LeftCol (`left`)
    /// or AboveRow.
    mutating func intraEdgeFilter(size sz: Int, strength: Int, left isLeft: Bool) {
        if strength == 0 { return }
        let o = Self.edgeOrigin
        // sz ≤ 129 for conforming calls; the bound keeps the copy inside the arrays regardless.
        let size = AVIF.AV1Arithmetic.clip3(0, edge.count - o, sz)
        if size == 0 { return }
        for i in 0..<size { edge[i] = isLeft ? leftCol[o + i - 1] : aboveRow[o + i - 1] }
        let kernel = AVIF.AV1Tables.Intra_Edge_Kernel[AVIF.AV1Arithmetic.clip3(1, 3, strength) - 1]
        for i in 1..<max(1, size) {
            var s = 0
            for j in 0..<AVIF.AV1Tables.INTRA_EDGE_TAPS {
                let k = AVIF.AV1Arithmetic.clip3(0, size - 1, i - 2 + j)
                s += kernel[j] * edge[k]
            }
            if isLeft {
                leftCol[o + i - 1] = (s + 8) >> 4
            } else {
                aboveRow[o + i - 1] = (s + 8) >> 4
            }
        }
    }

    /// §7.11.2.11, the intra edge upsample process: entries -1...numPx - 1 of LeftCol (`left`)
    /// or AboveRow become entries -2...2 × numPx - 2 at twice the resolution.
    mutating func intraEdgeUpsample(numPx: Int, left isLeft: Bool, bitDepth: Int) {
        let o = Self.edgeOrigin
        // Upsampling is selected only for w + h ≤ 16, so numPx ≤ 24; bounded for safety.
        let n = AVIF.AV1Arithmetic.clip3(0, 64, numPx)
        if n == 0 { return }
        @inline(__always) func buf(_ i: Int) -> Int { isLeft ? leftCol[o + i] : aboveRow[o + i] }
        // dup[ 0...numPx + 2 ]
        edge[0] = buf(-1)
        for i in -1..<n { edge[i + 2] = buf(i) }
        edge[n + 2] = buf(n - 1)
        let v0 = edge[0]
        if isLeft { leftCol[o - 2] = v0 } else { aboveRow[o - 2] = v0 }
        for i in 0..<n {
            var s = -edge[i] + 9 * edge[i + 1] + 9 * edge[i + 2] - edge[i + 3]
            s = AVIF.AV1Arithmetic.clip1(AVIF.AV1Arithmetic.round2(s, 4), bitDepth)
            if isLeft {
                leftCol[o + 2 * i - 1] = s
                leftCol[o + 2 * i] = edge[i + 2]
            } else {
                aboveRow[o + 2 * i - 1] = s
                aboveRow[o + 2 * i] = edge[i + 2]
            }
        }
    }
}
