extension AVIF.IntraPredictor {
    /// §7.11.2.2, the basic intra prediction process (PAETH_PRED).
    mutating func basicIntraPrediction(w: Int, h: Int) {
        let topLeft = above(-1)
        for i in 0..<h {
            for j in 0..<w {
                let base = above(j) + left(i) - topLeft
                let pLeft = abs(base - left(i))
                let pTop = abs(base - above(j))
                let pTopLeft = abs(base - topLeft)
                if pLeft <= pTop && pLeft <= pTopLeft {
                    pred[i * 64 + j] = left(i)
                } else if pTop <= pTopLeft {
                    pred[i * 64 + j] = above(j)
                } else {
                    pred[i * 64 + j] = topLeft
                }
            }
        }
    }

    /// §7.11.2.3, the recursive intra prediction process (filter intra), on 4×2 cells.
    mutating func recursiveIntraPrediction(w: Int, h: Int, filterIntraMode: Int, bitDepth: Int) {
        let taps = AVIF.AV1Tables.Intra_Filter_Taps[AVIF.AV1Arithmetic.clip3(0, 4, filterIntraMode)]
        let w4 = w >> 2
        let h2 = h >> 1
        var p = (0, 0, 0, 0, 0, 0, 0)
        for i2 in 0..<h2 {
            for j4 in 0..<w4 {
                func sample(_ i: Int) -> Int {
                    if i < 5 {
                        if i2 == 0 { return above((j4 << 2) + i - 1) }
                        if j4 == 0 && i == 0 { return left((i2 << 1) - 1) }
                        return pred[((i2 << 1) - 1) * 64 + (j4 << 2) + i - 1]
                    }
                    if j4 == 0 { return left((i2 << 1) + i - 5) }
                    return pred[((i2 << 1) + i - 5) * 64 + (j4 << 2) - 1]
                }
                p = (sample(0), sample(1), sample(2), sample(3), sample(4), sample(5), sample(6))
                for i1 in 0..<2 {
                    for j1 in 0..<4 {
                        let t = taps[(i1 << 2) + j1]
                        var pr = t[0] * p.0 + t[1] * p.1 + t[2] * p.2 + t[3] * p.3
                        pr += t[4] * p.4 + t[5] * p.5 + t[6] * p.6
                        let v = AVIF.AV1Arithmetic.round2Signed(pr, AVIF.AV1Tables.INTRA_FILTER_SCALE_BITS)
                        pred[((i2 << 1) + i1) * 64 + (j4 << 2) + j1] = AVIF.AV1Arithmetic.clip1(v, bitDepth)
                    }
                }
            }
        }
    }

    /// §7.11.2.5, the DC intra prediction process.
    mutating func dcIntraPrediction(haveLeft: Bool, haveAbove: Bool, log2W: Int, log2H: Int, w: Int, h: Int,
                                    bitDepth: Int) {
        let value: Int
        if haveLeft && haveAbove {
            var sum = 0
            for k in 0..<h { sum += left(k) }
            for k in 0..<w { sum += above(k) }
            sum += (w + h) >> 1
            value = sum / (w + h)
        } else if haveLeft {
            var sum = 0
            for k in 0..<h { sum += left(k) }
            value = AVIF.AV1Arithmetic.clip1((sum + (h >> 1)) >> log2H, bitDepth)
        } else if haveAbove {
            var sum = 0
            for k in 0..<w { sum += above(k) }
            value = AVIF.AV1Arithmetic.clip1((sum + (w >> 1)) >> log2W, bitDepth)
        } else {
            value = 1 << (bitDepth - 1)
        }
        for i in 0..<h {
            for j in 0..<w { pred[i * 64 + j] = value }
        }
    }

    /// `Sm_Weights_Tx_4x4` … `Sm_Weights_Tx_64x64` for log2 of the side 2...6 (§7.11.2.6's tables).
    static func smoothWeights(_ log2Size: Int) -> [Int] {
        switch log2Size {
        case 2: return AVIF.AV1Tables.Sm_Weights_Tx_4x4
        case 3: return AVIF.AV1Tables.Sm_Weights_Tx_8x8
        case 4: return AVIF.AV1Tables.Sm_Weights_Tx_16x16
        case 5: return AVIF.AV1Tables.Sm_Weights_Tx_32x32
        default: return AVIF.AV1Tables.Sm_Weights_Tx_64x64
        }
    }

    /// §7.11.2.6, the smooth intra prediction process (SMOOTH_PRED, SMOOTH_V_PRED, SMOOTH_H_PRED).
    mutating func smoothIntraPrediction(mode: Int, log2W: Int, log2H: Int, w: Int, h: Int) {
        let smWeightsX = Self.smoothWeights(log2W)
        let smWeightsY = Self.smoothWeights(log2H)
        let bottomLeft = left(h - 1)
        let topRight = above(w - 1)
        for i in 0..<h {
            for j in 0..<w {
                let v: Int
                if mode == AVIF.AV1Tables.SMOOTH_PRED {
                    let smoothPred = smWeightsY[i] * above(j) + (256 - smWeightsY[i]) * bottomLeft
                        + smWeightsX[j] * left(i) + (256 - smWeightsX[j]) * topRight
                    v = AVIF.AV1Arithmetic.round2(smoothPred, 9)
                } else if mode == AVIF.AV1Tables.SMOOTH_V_PRED {
                    let smoothPred = smWeightsY[i] * above(j) + (256 - smWeightsY[i]) * bottomLeft
                    v = AVIF.AV1Arithmetic.round2(smoothPred, 8)
                } else {
                    let smoothPred = smWeightsX[j] * left(i) + (256 - smWeightsX[j]) * topRight
                    v = AVIF.AV1Arithmetic.round2(smoothPred, 8)
                }
                pred[i * 64 + j] = v
            }
        }
    }
}
