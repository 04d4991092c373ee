extension AVIF.LoopFilter {
    /// §7.14.6.1, the sample filtering process at (`x`, `y`) across the edge, perpendicular
    /// direction (`dx`, `dy`).
    static func sampleFilter(plane: inout AVIF.AV1Plane, x: Int, y: Int, isLuma: Bool, limit: Int, blimit: Int,
                             thresh: Int, dx: Int, dy: Int, filterSize: Int, bitDepth: Int) {
        let masks = filterMask(plane: plane, x: x, y: y, isLuma: isLuma, limit: limit, blimit: blimit, thresh: thresh,
                               dx: dx, dy: dy, filterSize: filterSize, bitDepth: bitDepth)
        if !masks.filterMask {
            return
        } else if filterSize == 4 || !masks.flatMask {
            narrowFilter(plane: &plane, hevMask: masks.hevMask, x: x, y: y, dx: dx, dy: dy, bitDepth: bitDepth)
        } else if filterSize == 8 || !masks.flatMask2 {
            wideFilter(plane: &plane, x: x, y: y, isLuma: isLuma, dx: dx, dy: dy, log2Size: 3)
        } else {
            wideFilter(plane: &plane, x: x, y: y, isLuma: isLuma, dx: dx, dy: dy, log2Size: 4)
        }
    }

    /// §7.14.6.2, the filter mask process: hevMask, filterMask, flatMask (filterSize ≥ 8) and
    /// flatMask2 (filterSize ≥ 16).
    static func filterMask(plane: AVIF.AV1Plane, x: Int, y: Int, isLuma: Bool, limit: Int, blimit: Int, thresh: Int,
                           dx: Int, dy: Int, filterSize: Int, bitDepth: Int)
        -> (hevMask: Bool, filterMask: Bool, flatMask: Bool, flatMask2: Bool) {
        @inline(__always) func s(_ k: Int) -> Int { plane.sample(x + dx * k, y + dy * k) }
        let q0 = s(0), q1 = s(1), q2 = s(2), q3 = s(3)
        let p0 = s(-1), p1 = s(-2), p2 = s(-3), p3 = s(-4)
        let shift = bitDepth - 8
        let threshBd = thresh << shift
        let hevMask = abs(p1 - p0) > threshBd || abs(q1 - q0) > threshBd
        let filterLen: Int
        if filterSize == 4 {
            filterLen = 4
        } else if !isLuma {
            filterLen = 6
        } else if filterSize == 8 {
            filterLen = 8
        } else {
            filterLen = 16
        }
        let limitBd = limit << shift
        let blimitBd = blimit << shift
        var mask = false
        mask = mask || abs(p1 - p0) > limitBd
        mask = mask || abs(q1 - q0) > limitBd
        mask = mask || abs(p0 - q0) * 2 + abs(p1 - q1) / 2 > blimitBd
        if filterLen >= 6 {
            mask = mask || abs(p2 - p1) > limitBd
            mask = mask || abs(q2 - q1) > limitBd
        }
        if filterLen >= 8 {
            mask = mask || abs(p3 - p2) > limitBd
            mask = mask || abs(q3 - q2) > limitBd
        }
        let thresholdBd = 1 << shift
        var flatMask = false
        if filterSize >= 8 {
            var m = abs(p1 - p0) > thresholdBd || abs(q1 - q0) > thresholdBd
            m = m || abs(p2 - p0) > thresholdBd || abs(q2 - q0) > thresholdBd
            if filterLen >= 8 {
                m = m || abs(p3 - p0) > thresholdBd || abs(q3 - q0) > thresholdBd
            }
            flatMask = !m
        }
        var flatMask2 = false
        if filterSize >= 16 {
            let q4 = s(4), q5 = s(5), q6 = s(6)
            let p4 = s(-5), p5 = s(-6), p6 = s(-7)
            var m = abs(p6 - p0) > thresholdBd || abs(q6 - q0) > thresholdBd
            m = m || abs(p5 - p0) > thresholdBd || abs(q5 - q0) > thresholdBd
            m = m || abs(p4 - p0) > thresholdBd || abs(q4 - q0) > thresholdBd
            flatMask2 = !m
        }
        return (hevMask, !mask, flatMask, flatMask2)
    }

    /// §7.14.6.3, the narrow filter process.
    static func narrowFilter(plane: inout AVIF.AV1Plane, hevMask: Bool, x: Int, y: Int, dx: Int, dy: Int, bitDepth: Int) {
        let low = -(1 << (bitDepth - 1)), high = (1 << (bitDepth - 1)) - 1
        @inline(__always) func filter4Clamp(_ v: Int) -> Int { AVIF.AV1Arithmetic.clip3(low, high, v) }
        let offset = 0x80 << (bitDepth - 8)
        let q0 = plane.sample(x, y)
        let q1 = plane.sample(x + dx, y + dy)
        let p0 = plane.sample(x - dx, y - dy)
        let p1 = plane.sample(x - dx * 2, y - dy * 2)
        let ps1 = p1 - offset
        let ps0 = p0 - offset
        let qs0 = q0 - offset
        let qs1 = q1 - offset
        var filter = hevMask ? filter4Clamp(ps1 - qs1) : 0
        filter = filter4Clamp(filter + 3 * (qs0 - ps0))
        let filter1 = filter4Clamp(filter + 4) >> 3
        let filter2 = filter4Clamp(filter + 3) >> 3
        let oq0 = filter4Clamp(qs0 - filter1) + offset
        let op0 = filter4Clamp(ps0 + filter2) + offset
        plane[y: y, x: x] = UInt16(truncatingIfNeeded: oq0)
        plane[y: y - dy, x: x - dx] = UInt16(truncatingIfNeeded: op0)
        if !hevMask {
            filter = AVIF.AV1Arithmetic.round2(filter1, 1)
            let oq1 = filter4Clamp(qs1 - filter) + offset
            let op1 = filter4Clamp(ps1 + filter) + offset
            plane[y: y + dy, x: x + dx] = UInt16(truncatingIfNeeded: oq1)
            plane[y: y - dy * 2, x: x - dx * 2] = UInt16(truncatingIfNeeded: op1)
        }
    }

    /// §7.14.6.4, the wide filter process (log2Size 3: 8-sample luma or 6-sample chroma filter;
    /// 4: the 14-sample luma filter).
    static func wideFilter(plane: inout AVIF.AV1Plane, x: Int, y: Int, isLuma: Bool, dx: Int, dy: Int, log2Size: Int) {
        let n: Int
        if log2Size == 4 {
            n = 6
        } else if isLuma {
            n = 3
        } else {
            n = 2
        }
        let n2 = (log2Size == 3 && isLuma) ? 0 : 1
        // F[ -n...n - 1 ] at F[ i + 6 ].
        var F = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &F) { raw in
            let f = raw.bindMemory(to: Int.self)
            for i in -n..<n {
                var t = 0
                for j in -n...n {
                    let p = AVIF.AV1Arithmetic.clip3(-(n + 1), n, i + j)
                    let tap = abs(j) <= n2 ? 2 : 1
                    t += plane.sample(x + p * dx, y + p * dy) * tap
                }
                f[i + 6] = AVIF.AV1Arithmetic.round2(t, log2Size)
            }
            for i in -n..<n {
                plane[y: y + i * dy, x: x + i * dx] = UInt16(truncatingIfNeeded: f[i + 6])
            }
        }
    }
}
