extension AVIF.IntraPredictor {
    /// §7.11.5, the predict chroma from luma process: adds alpha × (the block's subsampled
    /// reconstructed luma minus its average) to the DC prediction already in
    /// `frame.planes[ plane ]` at (`startX`, `startY`) for the block of `txSz` (at most 32×32).
    ///
    /// `alpha` is `CflAlphaU` or `CflAlphaV`; `maxLumaW`, `maxLumaH` are `MaxLumaW`, `MaxLumaH`
    /// (§5.11.5: the extent of the luma samples the block reconstructed).
    mutating func predictChromaFromLuma(frame: inout AVIF.AV1Frame, plane: Int, startX: Int, startY: Int,
                                        txSz txSzIn: Int, alpha alphaIn: Int, maxLumaW: Int, maxLumaH: Int) {
        guard plane > 0 && plane < frame.planes.count else { return }
        let txSz = AVIF.AV1Arithmetic.clip3(0, AVIF.AV1Tables.TX_SIZES_ALL - 1, txSzIn)
        // CflAlphaU/V are coded within ±16 (§5.11.45); bounded so the product below cannot wrap.
        let alpha = AVIF.AV1Arithmetic.clip3(-16, 16, alphaIn)
        let w = min(32, AVIF.AV1Tables.Tx_Width[txSz])
        let h = min(32, AVIF.AV1Tables.Tx_Height[txSz])
        let subX = frame.subsamplingX
        let subY = frame.subsamplingY
        let bitDepth = frame.bitDepth
        var lumaAvg = 0
        for i in 0..<h {
            var lumaY = (startY + i) << subY
            lumaY = min(lumaY, maxLumaH - (1 << subY))
            for j in 0..<w {
                var lumaX = (startX + j) << subX
                lumaX = min(lumaX, maxLumaW - (1 << subX))
                var t = 0
                for dy in 0...subY {
                    for dx in 0...subX { t += frame.planes[0].sample(lumaX + dx, lumaY + dy) }
                }
                let v = t << (3 - subX - subY)
                pred[i * 64 + j] = v
                lumaAvg += v
            }
        }
        lumaAvg = AVIF.AV1Arithmetic.round2(lumaAvg, AVIF.AV1Tables.Tx_Width_Log2[txSz] + AVIF.AV1Tables.Tx_Height_Log2[txSz])
        // CFL is allowed for blocks up to 32×32 only, so w and h above equal the block's.
        for i in 0..<h {
            for j in 0..<w {
                let dc = frame.planes[plane].sample(startX + j, startY + i)
                // |alpha| ≤ 16 and |L - avg| < 2^16: the product cannot wrap.
                let scaledLuma = AVIF.AV1Arithmetic.round2Signed(alpha &* (pred[i * 64 + j] - lumaAvg), 6)
                frame.planes[plane][y: startY + i, x: startX + j] =
                    UInt16(truncatingIfNeeded: AVIF.AV1Arithmetic.clip1(dc + scaledLuma, bitDepth))
            }
        }
    }
}
