extension JPEG {
    /// libjpeg-turbo's block smoothing for progressive images whose low AC
    /// coefficients are not (fully) known yet (T.81 annex K.8, extended to a
    /// 5×5 neighbourhood, with DC interpolation when no AC data arrived at
    /// all). libjpeg-turbo applies it by default, so partial progressive images
    /// must go through it to match.
    enum BlockSmoothing {
        /// Natural-order positions of zig-zag coefficients 1…9.
        static let positions = [0, 1, 8, 16, 9, 2, 3, 10, 17, 24]

        /// Whether smoothing applies (libjpeg's `smoothing_ok`): every component
        /// has some DC bits, the quantisers involved are non-zero, and some of the
        /// first nine AC coefficients are still inexact somewhere.
        static func applies(coefficientBits: [Int], quant: [Int32], components: Int) -> Bool {
            var useful = false
            for c in 0..<components {
                for k in 0..<10 where quant[c * 64 + positions[k]] == 0 { return false }
                if coefficientBits[c * 10] < 0 { return false }
                for k in 1..<10 where coefficientBits[c * 10 + k] != 0 { useful = true }
            }
            return useful
        }

        /// Transforms every block of component `c` with smoothing.
        static func transform(component c: Layout.Component, mcuRow: Int, layout: Layout, bits: ArraySlice<Int>,
                              coefficients: UnsafePointer<Int16>, quant: UnsafePointer<Int32>, quant16: UnsafePointer<Int16>,
                              plane: UnsafeMutablePointer<UInt8>, workspace: UnsafeMutablePointer<Int32>,
                              block: UnsafeMutablePointer<Int16>, scratch: UnsafeMutablePointer<Int32>) {
            let b = Array(bits)
            let changeDC = (1..<10).allSatisfy { b[$0] == -1 }
            func q(_ k: Int) -> Int { Int(UInt16(truncatingIfNeeded: quant[positions[k]])) }
            let q00 = Int(UInt16(truncatingIfNeeded: quant[0]))
            let heightInBlocks = c.scanBlocksY, widthInBlocks = c.scanBlocksX
            let lastColumn = widthInBlocks - 1
            let lastRow = layout.mcusY - 1
            let size = c.blockSize
            let stride = c.coefficientStride
            func blockAt(_ row: Int, _ column: Int) -> UnsafePointer<Int16> {
                coefficients + c.coefficientOffset + (row * c.blocksPerLine + column) * stride
            }
            func dc(_ row: Int, _ column: Int) -> Int { Int(blockAt(row, column)[0]) }
            do {
                var blockRows = c.v
                if mcuRow == lastRow {
                    blockRows = heightInBlocks % c.v
                    if blockRows == 0 { blockRows = c.v }
                }
                for blockRow in 0..<blockRows {
                    // Which rows libjpeg-turbo 2.1 reads around this one. Its tests look at the
                    // iMCU row and the block row separately, so with vertical factors above 1 the
                    // second and the second-to-last iMCU rows see clamped neighbours; kept as it is.
                    let row = mcuRow * c.v + blockRow
                    let prev = blockRow > 0 || mcuRow > 0 ? row - 1 : row
                    let prevPrev = blockRow > 1 || mcuRow > 1 ? row - 2 : prev
                    let next = blockRow < blockRows - 1 || mcuRow < lastRow ? row + 1 : row
                    let nextNext = blockRow < blockRows - 2 || mcuRow + 1 < lastRow ? row + 2 : next
                    let rows = [prevPrev, prev, row, next, nextNext]
                    // dcs[r][k]: the 5x5 window, k = column offset -2…+2.
                    var window = [Int](repeating: 0, count: 25)
                    for r in 0..<5 {
                        let value = dc(rows[r], 0)
                        for k in 0..<5 { window[r * 5 + k] = value }
                    }
                    for column in 0...lastColumn {
                        // Only the +1 column comes from block 1 here: the +2 column keeps block 0's value
                        // unless a block 2 exists (libjpeg-turbo 2.1's DC04 / DC05 updates), so a component
                        // two blocks wide sees block 0 again two columns to the right.
                        if column == 0 && column < lastColumn {
                            for r in 0..<5 { window[r * 5 + 3] = dc(rows[r], 1) }
                        }
                        if column + 1 < lastColumn {
                            for r in 0..<5 { window[r * 5 + 4] = dc(rows[r], column + 2) }
                        }
                        let source = blockAt(row, column)
                        if stride == 64 {
                            block.update(from: source, count: 64)
                        } else {
                            // A DC-only store: the AC coefficients it leaves out are zero (never decoded).
                            block.update(repeating: 0, count: 64)
                            block[0] = source[0]
                        }
                        smooth(block, window: window, bits: b, changeDC: changeDC, q00: q00, q: q)
                        var y = row * size
                        if c.ringRows > 0 { y %= c.ringRows }
                        let out = plane + y * c.planeStride + column * size
                        IDCT.transformBlock(block, quant: quant, quant16: quant16, size: size, out: out, stride: c.planeStride,
                                            workspace: workspace, scratch: scratch)
                        for r in 0..<5 {
                            for k in 0..<4 { window[r * 5 + k] = window[r * 5 + k + 1] }
                        }
                    }
                }
            }
        }

        /// Estimates the missing coefficients of one block from the DC window.
        static func smooth(_ w: UnsafeMutablePointer<Int16>, window d: [Int], bits: [Int], changeDC: Bool,
                           q00: Int, q: (Int) -> Int) {
            // DC01…DC25 of libjpeg, row by row.
            func D(_ n: Int) -> Int { d[n - 1] }
            func estimate(_ k: Int, _ weights: Int, limitBits al: Int) -> Int16 {
                let num = q00 * weights
                let qk = q(k)
                var pred: Int
                if num >= 0 {
                    pred = ((qk << 7) + num) / (qk << 8)
                    if al > 0 && pred >= (1 << al) { pred = (1 << al) - 1 }
                } else {
                    pred = ((qk << 7) - num) / (qk << 8)
                    if al > 0 && pred >= (1 << al) { pred = (1 << al) - 1 }
                    pred = -pred
                }
                return Int16(truncatingIfNeeded: pred)
            }
            if bits[1] != 0 && w[1] == 0 {
                let n = changeDC
                    ? -D(1) - D(2) + D(4) + D(5) - 3 * D(6) + 13 * D(7) - 13 * D(9) + 3 * D(10) - 3 * D(11) + 38 * D(12)
                        - 38 * D(14) + 3 * D(15) - 3 * D(16) + 13 * D(17) - 13 * D(19) + 3 * D(20) - D(21) - D(22) + D(24) + D(25)
                    : -7 * D(11) + 50 * D(12) - 50 * D(14) + 7 * D(15)
                w[1] = estimate(1, n, limitBits: bits[1])
            }
            if bits[2] != 0 && w[8] == 0 {
                let n = changeDC
                    ? -D(1) - 3 * D(2) - 3 * D(3) - 3 * D(4) - D(5) - D(6) + 13 * D(7) + 38 * D(8) + 13 * D(9) - D(10)
                        + D(16) - 13 * D(17) - 38 * D(18) - 13 * D(19) + D(20) + D(21) + 3 * D(22) + 3 * D(23) + 3 * D(24) + D(25)
                    : -7 * D(3) + 50 * D(8) - 50 * D(18) + 7 * D(23)
                w[8] = estimate(2, n, limitBits: bits[2])
            }
            if bits[3] != 0 && w[16] == 0 {
                let n = changeDC
                    ? D(3) + 2 * D(7) + 7 * D(8) + 2 * D(9) - 5 * D(12) - 14 * D(13) - 5 * D(14) + 2 * D(17) + 7 * D(18)
                        + 2 * D(19) + D(23)
                    : -D(3) + 13 * D(8) - 24 * D(13) + 13 * D(18) - D(23)
                w[16] = estimate(3, n, limitBits: bits[3])
            }
            if bits[4] != 0 && w[9] == 0 {
                let n = changeDC
                    ? -D(1) + D(5) + 9 * D(7) - 9 * D(9) - 9 * D(17) + 9 * D(19) + D(21) - D(25)
                    : D(10) + D(16) - 10 * D(17) + 10 * D(19) - D(2) - D(20) + D(22) - D(24) + D(4) - D(6) + 10 * D(7) - 10 * D(9)
                w[9] = estimate(4, n, limitBits: bits[4])
            }
            if bits[5] != 0 && w[2] == 0 {
                let n = changeDC
                    ? 2 * D(7) - 5 * D(8) + 2 * D(9) + D(11) + 7 * D(12) - 14 * D(13) + 7 * D(14) + D(15) + 2 * D(17)
                        - 5 * D(18) + 2 * D(19)
                    : -D(11) + 13 * D(12) - 24 * D(13) + 13 * D(14) - D(15)
                w[2] = estimate(5, n, limitBits: bits[5])
            }
            guard changeDC else { return }
            if bits[6] != 0 && w[3] == 0 {
                w[3] = estimate(6, D(7) - D(9) + 2 * D(12) - 2 * D(14) + D(17) - D(19), limitBits: bits[6])
            }
            if bits[7] != 0 && w[10] == 0 {
                w[10] = estimate(7, D(7) - 3 * D(8) + D(9) - D(17) + 3 * D(18) - D(19), limitBits: bits[7])
            }
            if bits[8] != 0 && w[17] == 0 {
                w[17] = estimate(8, D(7) - D(9) - 3 * D(12) + 3 * D(14) + D(17) - D(19), limitBits: bits[8])
            }
            if bits[9] != 0 && w[24] == 0 {
                w[24] = estimate(9, D(7) + 2 * D(8) + D(9) - D(17) - 2 * D(18) - D(19), limitBits: bits[9])
            }
            let n = -2 * D(1) - 6 * D(2) - 8 * D(3) - 6 * D(4) - 2 * D(5) - 6 * D(6) + 6 * D(7) + 42 * D(8) + 6 * D(9)
                - 6 * D(10) - 8 * D(11) + 42 * D(12) + 152 * D(13) + 42 * D(14) - 8 * D(15) - 6 * D(16) + 6 * D(17)
                + 42 * D(18) + 6 * D(19) - 6 * D(20) - 2 * D(21) - 6 * D(22) - 8 * D(23) - 6 * D(24) - 2 * D(25)
            w[0] = estimate(0, n, limitBits: 0)
        }
    }
}
