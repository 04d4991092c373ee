/// Token decoding of one macroblock's coefficients (RFC 6386 §13), with the
/// above/left non-zero contexts kept as libwebp keeps them: one bit per 4×4
/// block column (luma bits 0–3, U 4–5, V 6–7) and one for the Y2 block.
extension WebP.LossyFrameDecoder {
    /// Reads the coefficients of macroblock `mbX` into ``coefficients``,
    /// dequantised, and returns libwebp's per-block summary: two bits per
    /// block (3: general, 2: only the first three coefficients, 1: DC only,
    /// 0: none), luma block 0 in the top bits, chroma U in bits 0–7, V in 8–15.
    mutating func parseResiduals(_ mbX: Int, modes: WebP.LossyMacroblockModes,
                                 reader: inout WebP.LossyBoolDecoder) -> (luma: UInt32, chroma: UInt32) {
        let dq = picture.dequantizers[modes.segment]
        // The token reader is static and takes the tables as locals: as a method of
        // this mutating struct, each call site first copied the whole 424-byte
        // decoder to the stack (one or two copies a macroblock).
        let probabilities = UnsafePointer(self.probabilities)
        let bandOffsets = UnsafePointer(self.bandOffsets)
        let out = coefficients
        out.update(repeating: 0, count: 384)
        var first = 0
        var acType = 3
        if !modes.is4x4 {
            let dc = coefficients + 384
            dc.update(repeating: 0, count: 16)
            let context = Int(nonZeroDCAbove[mbX]) &+ Int(nonZeroDCLeft)
            let count = Self.readCoefficients(&reader, probabilities, bandOffsets, type: 1, context: context,
                                              dc: dq.y2.dc, ac: dq.y2.ac, first: 0, into: dc)
            let flag: UInt8 = count > 0 ? 1 : 0
            nonZeroDCAbove[mbX] = flag
            nonZeroDCLeft = UInt32(flag)
            if count > 1 {
                WebP.LossyTransform.inverseWHT(dc, out)
            } else {
                // Only the DC of Y2: every luma block gets the same DC (the WHT's shortcut).
                let dc0 = Int16(truncatingIfNeeded: (Int32(dc[0]) &+ 3) &>> 3)
                for block in 0..<16 { out[block &* 16] = dc0 }
            }
            first = 1
            acType = 0
        }

        var nonZeroY: UInt32 = 0
        var top = UInt32(nonZeroAbove[mbX]) & 0x0f
        var left = nonZeroLeft & 0x0f
        var block = out
        for _ in 0..<4 {
            var l = left & 1
            var codes: UInt32 = 0
            for _ in 0..<4 {
                let context = Int(l &+ (top & 1))
                let count = Self.readCoefficients(&reader, probabilities, bandOffsets, type: acType, context: context,
                                                  dc: dq.y1.dc, ac: dq.y1.ac, first: first, into: block)
                l = count > first ? 1 : 0
                top = (top >> 1) | (l << 7)
                codes = Self.appendCode(codes, count: count, hasDC: block[0] != 0)
                block += 16
            }
            top >>= 4
            left = (left >> 1) | (l << 7)
            nonZeroY = (nonZeroY << 8) | codes
        }
        var newTop = top
        var newLeft = left >> 4

        var nonZeroUV: UInt32 = 0
        for channel in stride(from: 0, to: 4, by: 2) {
            var codes: UInt32 = 0
            top = UInt32(nonZeroAbove[mbX]) >> (4 &+ channel)
            left = (nonZeroLeft >> (4 &+ channel)) & 0xff
            for _ in 0..<2 {
                var l = left & 1
                for _ in 0..<2 {
                    let context = Int(l &+ (top & 1))
                    let count = Self.readCoefficients(&reader, probabilities, bandOffsets, type: 2, context: context,
                                                      dc: dq.uv.dc, ac: dq.uv.ac, first: 0, into: block)
                    l = count > 0 ? 1 : 0
                    top = (top >> 1) | (l << 3)
                    codes = Self.appendCode(codes, count: count, hasDC: block[0] != 0)
                    block += 16
                }
                top >>= 2
                left = ((left >> 1) | (l << 5)) & 0xff
            }
            nonZeroUV |= codes << (4 &* UInt32(channel))
            newTop |= (top << 4) << channel
            newLeft |= (left & 0xf0) << channel
        }
        nonZeroAbove[mbX] = UInt8(truncatingIfNeeded: newTop)
        nonZeroLeft = newLeft & 0xff
        return (nonZeroY, nonZeroUV)
    }

    @inline(__always)
    private static func appendCode(_ codes: UInt32, count: Int, hasDC: Bool) -> UInt32 {
        (codes << 2) | (count > 3 ? 3 : count > 1 ? 2 : hasDC ? 1 : 0)
    }

    /// Reads one block's tokens from scan position `first` (RFC 6386 §13.2),
    /// storing dequantised values at their raster positions. Returns the scan
    /// position after the last non-zero coefficient (libwebp's `GetCoeffs`).
    @inline(__always)
    static func readCoefficients(_ reader: inout WebP.LossyBoolDecoder,
                                 _ probabilities: UnsafePointer<UInt8>, _ bandOffsets: UnsafePointer<Int>,
                                 type: Int, context: Int,
                                 dc: Int32, ac: Int32, first: Int, into out: UnsafeMutablePointer<Int16>) -> Int {
        // The bit window in locals for the whole block, given back on every exit.
        var w = reader.window
        defer { reader.window = w }
        let offsets = bandOffsets + type &* 17
        var n = first
        var p = probabilities + (offsets[n] &+ context &* 11)
        while n < 16 {
            if !reader.readBit(Int(p[0]), window: &w) { return n }
            while !reader.readBit(Int(p[1]), window: &w) {
                n &+= 1
                if n == 16 { return 16 }
                p = probabilities + offsets[n]
            }
            let next = probabilities + offsets[n &+ 1]
            let magnitude: Int32
            if !reader.readBit(Int(p[2]), window: &w) {
                magnitude = 1
                p = next + 11
            } else {
                (magnitude, w) = Self.readLargeValue(&reader, w, p)
                p = next + 22
            }
            let value = reader.readSigned(magnitude, window: &w) &* (n > 0 ? ac : dc)
            // libwebp stores the product in an int16_t; out-of-range values of
            // hostile streams wrap the same way.
            out[WebP.LossyTables.zigzag[n]] = Int16(truncatingIfNeeded: value)
            n &+= 1
        }
        return 16
    }

    /// The magnitude of a token above ONE (RFC 6386 §13.2, DCT_CAT1…6 extra bits).
    /// Out of line; the window goes in and out by value so that the caller's stays in registers.
    private static func readLargeValue(_ reader: inout WebP.LossyBoolDecoder, _ window: WebP.LossyBoolDecoder.Window,
                                       _ p: UnsafePointer<UInt8>) -> (Int32, WebP.LossyBoolDecoder.Window) {
        var w = window
        @inline(__always) func bit(_ probability: UInt8) -> Int32 {
            reader.readBit(Int(probability), window: &w) ? 1 : 0
        }
        if bit(p[3]) == 0 {
            if bit(p[4]) == 0 { return (2, w) }
            return (3 &+ bit(p[5]), w)
        }
        if bit(p[6]) == 0 {
            if bit(p[7]) == 0 { return (5 &+ bit(159), w) }
            var v: Int32 = 7 &+ 2 &* bit(165)
            v &+= bit(145)
            return (v, w)
        }
        let bit1 = Int(bit(p[8]))
        let bit0 = Int(bit(p[9 &+ bit1]))
        let category = 2 &* bit1 &+ bit0
        var v: Int32 = 0
        for probability in WebP.LossyTables.categoryProbabilities[category] where probability != 0 {
            v = v &+ v &+ bit(probability)
        }
        return (v &+ 3 &+ (Int32(8) << category), w)
    }
}
