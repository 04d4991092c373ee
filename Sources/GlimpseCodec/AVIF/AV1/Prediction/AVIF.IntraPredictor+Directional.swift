extension AVIF.IntraPredictor {
    /// §7.11.2.4, the directional intra prediction process, with the edge filtering and
    /// upsampling it invokes when `enable_intra_edge_filter` is 1.
    mutating func directionalIntraPrediction(_ b: Block, w: Int, h: Int) {
        typealias K = AVIF.AV1Tables
        let o = Self.edgeOrigin
        // 1–2.
        // AngleDeltaY/UV are coded within ±MAX_ANGLE_DELTA (3); bounded so pAngle stays 36...212.
        let pAngle = K.Mode_To_Angle[b.mode] + AVIF.AV1Arithmetic.clip3(-3, 3, b.angleDelta) * K.ANGLE_STEP
        // 3.
        var upsampleAbove = 0
        var upsampleLeft = 0
        // 4.
        if b.enableIntraEdgeFilter {
            if pAngle != 90 && pAngle != 180 {
                if pAngle > 90 && pAngle < 180 && (w + h) >= 24 {
                    let corner = filterCorner()
                    leftCol[o - 1] = corner
                    aboveRow[o - 1] = corner
                }
                if b.haveAbove {
                    let strength = Self.intraEdgeFilterStrength(w: w, h: h, filterType: b.filterType, delta: pAngle - 90)
                    let numPx = min(w, b.maxX - b.x + 1) + (pAngle < 90 ? h : 0) + 1
                    intraEdgeFilter(size: numPx, strength: strength, left: false)
                }
                if b.haveLeft {
                    let strength = Self.intraEdgeFilterStrength(w: w, h: h, filterType: b.filterType, delta: pAngle - 180)
                    let numPx = min(h, b.maxY - b.y + 1) + (pAngle > 180 ? w : 0) + 1
                    intraEdgeFilter(size: numPx, strength: strength, left: true)
                }
            }
            upsampleAbove = Self.useIntraEdgeUpsample(w: w, h: h, filterType: b.filterType, delta: pAngle - 90) ? 1 : 0
            if upsampleAbove == 1 {
                intraEdgeUpsample(numPx: w + (pAngle < 90 ? h : 0), left: false, bitDepth: b.bitDepth)
            }
            upsampleLeft = Self.useIntraEdgeUpsample(w: w, h: h, filterType: b.filterType, delta: pAngle - 180) ? 1 : 0
            if upsampleLeft == 1 {
                intraEdgeUpsample(numPx: h + (pAngle > 180 ? w : 0), left: true, bitDepth: b.bitDepth)
            }
        }
        // 5–6. (Angles run from 36 to 216 for the directional modes: both indices stay in 0..<90.)
        var dx = 0
        var dy = 0
        if pAngle < 90 {
            dx = K.Dr_Intra_Derivative[AVIF.AV1Arithmetic.clip3(0, 89, pAngle)]
        } else if pAngle > 90 && pAngle < 180 {
            dx = K.Dr_Intra_Derivative[AVIF.AV1Arithmetic.clip3(0, 89, 180 - pAngle)]
        }
        if pAngle > 90 && pAngle < 180 {
            dy = K.Dr_Intra_Derivative[AVIF.AV1Arithmetic.clip3(0, 89, pAngle - 90)]
        } else if pAngle > 180 {
            dy = K.Dr_Intra_Derivative[AVIF.AV1Arithmetic.clip3(0, 89, 270 - pAngle)]
        }
        // Indices into the edges: the geometry of each zone keeps them within -2...2 × (w + h);
        // `edgeIndex` bounds them to the arrays anyway so no value can trap.
        let limit = aboveRow.count - 2
        @inline(__always) func edgeIndex(_ i: Int) -> Int { AVIF.AV1Arithmetic.clip3(0, limit, i &+ o) }

        if pAngle < 90 {
            // 7.
            let maxBaseX = (w + h - 1) << upsampleAbove
            for i in 0..<h {
                let idx = (i + 1) * dx
                let shift = ((idx << upsampleAbove) >> 1) & 0x1F
                for j in 0..<w {
                    let base = (idx >> (6 - upsampleAbove)) + (j << upsampleAbove)
                    if base < maxBaseX {
                        let k = edgeIndex(base)
                        pred[i * 64 + j] = AVIF.AV1Arithmetic.round2(aboveRow[k] * (32 - shift) + aboveRow[k + 1] * shift, 5)
                    } else {
                        pred[i * 64 + j] = aboveRow[edgeIndex(maxBaseX)]
                    }
                }
            }
        } else if pAngle > 90 && pAngle < 180 {
            // 8.
            for i in 0..<h {
                for j in 0..<w {
                    let idx = (j << 6) - (i + 1) * dx
                    let base = idx >> (6 - upsampleAbove)
                    if base >= -(1 << upsampleAbove) {
                        let shift = ((idx << upsampleAbove) >> 1) & 0x1F
                        let k = edgeIndex(base)
                        pred[i * 64 + j] = AVIF.AV1Arithmetic.round2(aboveRow[k] * (32 - shift) + aboveRow[k + 1] * shift, 5)
                    } else {
                        let idx = (i << 6) - (j + 1) * dy
                        let base = idx >> (6 - upsampleLeft)
                        let shift = ((idx << upsampleLeft) >> 1) & 0x1F
                        let k = edgeIndex(base)
                        pred[i * 64 + j] = AVIF.AV1Arithmetic.round2(leftCol[k] * (32 - shift) + leftCol[k + 1] * shift, 5)
                    }
                }
            }
        } else if pAngle > 180 {
            // 9.
            for j in 0..<w {
                let idx = (j + 1) * dy
                let shift = ((idx << upsampleLeft) >> 1) & 0x1F
                for i in 0..<h {
                    let base = (idx >> (6 - upsampleLeft)) + (i << upsampleLeft)
                    let k = edgeIndex(base)
                    pred[i * 64 + j] = AVIF.AV1Arithmetic.round2(leftCol[k] * (32 - shift) + leftCol[k + 1] * shift, 5)
                }
            }
        } else if pAngle == 90 {
            // 10.
            for i in 0..<h { for j in 0..<w { pred[i * 64 + j] = above(j) } }
        } else {
            // 11. (pAngle 180)
            for i in 0..<h { for j in 0..<w { pred[i * 64 + j] = left(i) } }
        }
    }
}
