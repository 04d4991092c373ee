/// Prediction plus residue for one macroblock in the work area (RFC 6386
/// §12, §14), then a copy into the plane cache. The work area keeps the
/// unfiltered left column and the row above, as libwebp's `ReconstructRow`
/// does: prediction always sees unfiltered neighbours.
extension WebP.LossyFrameDecoder {
    private static var stride: Int { WebP.LossyPrediction.stride }

    /// Sets the work area's borders for a new macroblock row: 129 on the left
    /// edge, 127 above the first row (RFC 6386 §12.2).
    func beginReconstructionRow(_ mbY: Int) {
        let s = Self.stride
        let y = work + Self.lumaOffset, u = work + Self.uOffset, v = work + Self.vOffset
        for j in 0..<16 { y[j &* s &- 1] = 129 }
        for j in 0..<8 {
            u[j &* s &- 1] = 129
            v[j &* s &- 1] = 129
        }
        if mbY > 0 {
            y[-1 &- s] = 129
            u[-1 &- s] = 129
            v[-1 &- s] = 129
        } else {
            (y - s - 1).update(repeating: 127, count: 16 + 4 + 1)
            (u - s - 1).update(repeating: 127, count: 8 + 1)
            (v - s - 1).update(repeating: 127, count: 8 + 1)
        }
    }

    /// Predicts and reconstructs macroblock (`mbX`, `mbY`) and stores it in the cache.
    mutating func reconstruct(_ mbX: Int, _ mbY: Int, modes: WebP.LossyMacroblockModes,
                              nonZero: (luma: UInt32, chroma: UInt32)) {
        let s = Self.stride
        let y = work + Self.lumaOffset, u = work + Self.uOffset, v = work + Self.vOffset
        let top = topSamples + mbX &* 32  // 16 luma, 8 U, 8 V
        if mbX > 0 {
            // The previous macroblock's right column (and the corner above it) becomes the left border.
            for j in -1..<16 { (y + (j &* s &- 4)).update(from: y + (j &* s &+ 12), count: 4) }
            for j in -1..<8 {
                (u + (j &* s &- 4)).update(from: u + (j &* s &+ 4), count: 4)
                (v + (j &* s &- 4)).update(from: v + (j &* s &+ 4), count: 4)
            }
        }
        if mbY > 0 {
            (y - s).update(from: top, count: 16)
            (u - s).update(from: top + 16, count: 8)
            (v - s).update(from: top + 24, count: 8)
        }
        let coefficients = self.coefficients
        if modes.is4x4 {
            let topRight = y - s + 16
            if mbY > 0 {
                if mbX >= columns &- 1 {
                    topRight.update(repeating: top[15], count: 4)
                } else {
                    topRight.update(from: top + 32 + 0, count: 4)
                }
            }
            // Sub-blocks on the right edge below the first row see the macroblock's above-right pixels.
            for k in 1...3 { (topRight + k &* 4 &* s).update(from: topRight, count: 4) }
            var bits = nonZero.luma
            // The modes read in place once (a mode a time copied all 16 to the stack each time).
            withUnsafeBytes(of: modes.lumaModes) { lumaModes in
                for n in 0..<16 {
                    let dst = y + ((n >> 2) &* 4 &* s &+ (n & 3) &* 4)
                    WebP.LossyPrediction.predict4x4(dst, mode: Int(lumaModes[n]))
                    WebP.LossyTransform.apply(code: bits >> 30, coefficients + n &* 16, dst)
                    bits <<= 2
                }
            }
        } else {
            WebP.LossyPrediction.predictBlock(y, size: 16, mode: modes.lumaMode(0), hasTop: mbY > 0, hasLeft: mbX > 0)
            var bits = nonZero.luma
            if bits != 0 {
                // Blocks in pairs along a row: two full transforms run as one vector transform.
                for n in Swift.stride(from: 0, to: 16, by: 2) {
                    let dst = y + ((n >> 2) &* 4 &* s &+ (n & 3) &* 4)
                    if bits >> 28 == 0xf {
                        WebP.LossyTransform.vectorDCTPair(coefficients + n &* 16, dst)
                    } else {
                        WebP.LossyTransform.apply(code: bits >> 30, coefficients + n &* 16, dst)
                        WebP.LossyTransform.apply(code: (bits >> 28) & 3, coefficients + (n &+ 1) &* 16, dst + 4)
                    }
                    bits <<= 4
                }
            }
        }
        WebP.LossyPrediction.predictBlock(u, size: 8, mode: modes.chromaMode, hasTop: mbY > 0, hasLeft: mbX > 0)
        WebP.LossyPrediction.predictBlock(v, size: 8, mode: modes.chromaMode, hasTop: mbY > 0, hasLeft: mbX > 0)
        Self.addChromaResidue(nonZero.chroma, coefficients + 256, u)
        Self.addChromaResidue(nonZero.chroma >> 8, coefficients + 320, v)

        if mbY < rows &- 1 {
            top.update(from: y + 15 &* s, count: 16)
            (top + 16).update(from: u + 7 &* s, count: 8)
            (top + 24).update(from: v + 7 &* s, count: 8)
        }
        let yOut = cacheY + (lumaMargin &* lumaStride &+ mbX &* 16)
        let uOut = cacheU + (chromaMargin &* chromaStride &+ mbX &* 8)
        let vOut = cacheV + (chromaMargin &* chromaStride &+ mbX &* 8)
        for j in 0..<16 { (yOut + j &* lumaStride).update(from: y + j &* s, count: 16) }
        for j in 0..<8 {
            (uOut + j &* chromaStride).update(from: u + j &* s, count: 8)
            (vOut + j &* chromaStride).update(from: v + j &* s, count: 8)
        }
    }

    /// Adds the four chroma blocks' residue (libwebp: full transforms when any
    /// block has AC coefficients, else DC-only transforms of the blocks with a DC).
    private static func addChromaResidue(_ bits: UInt32, _ coefficients: UnsafeMutablePointer<Int16>,
                                         _ dst: UnsafeMutablePointer<UInt8>) {
        guard bits & 0xff != 0 else { return }
        let s = stride
        if bits & 0xaa != 0 {
            // Blocks 0 and 1 (and 2 and 3) lie side by side: one vector transform per pair.
            WebP.LossyTransform.vectorDCTPair(coefficients, dst)
            WebP.LossyTransform.vectorDCTPair(coefficients + 32, dst + 4 &* s)
            return
        }
        for block in 0..<4 {
            let input = coefficients + block &* 16
            if input[0] != 0 {
                WebP.LossyTransform.inverseDCTDCOnly(input, dst + ((block >> 1) &* 4 &* s &+ (block & 1) &* 4))
            }
        }
    }
}
