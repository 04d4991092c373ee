/// The quantised levels of a whole frame, walked in the decoder's order with
/// its non-zero contexts (RFC 6386 §13.3): once to count the token bits, once
/// to write them into the token partitions.
extension WebP {
    struct LossyFrameTokens {
        let columns: Int
        let rows: Int
        let infos: [LossyMacroblockInfo]
        /// ``LossyBlocks`` layout per macroblock, zigzag order.
        let levels: [Int16]
        /// Scan position of each block's last non-zero level, −1 for none.
        let lasts: [Int8]

        /// Sends every macroblock row's tokens to `sinks[row % sinks.count]`. A skipped
        /// macroblock (`usesSkip` and no coefficients) sends nothing and clears the
        /// contexts as the decoder does.
        func walk<Sink: WebPLossyTokenSink>(usesSkip: Bool, into sinks: inout [Sink]) {
            var top = [UInt8](repeating: 0, count: 9 * columns)
            var left = [UInt8](repeating: 0, count: 9)
            levels.withUnsafeBufferPointer { levelBuffer in
                guard let levelBase = levelBuffer.baseAddress else { return }
                for mbY in 0..<rows {
                    for i in 0..<9 { left[i] = 0 }
                    let sinkIndex = mbY % sinks.count
                    for mbX in 0..<columns {
                        let index = mbY * columns + mbX
                        let info = infos[index]
                        let base = index * LossyBlocks.perMacroblock
                        let t = 9 * mbX
                        if usesSkip, info.hasNoCoefficients {
                            for i in 0..<8 { top[t + i] = 0; left[i] = 0 }
                            if !info.is4x4 { top[t + 8] = 0; left[8] = 0 }
                            continue
                        }
                        let blockLevels = levelBase + index * LossyBlocks.levelsPerMacroblock
                        func emit(_ block: Int, first: Int, type: Int, context: Int) -> UInt8 {
                            let last = Int(lasts[base + block])
                            LossyTokenizer.tokenize(blockLevels + block * 16, first: first, last: last, type: type,
                                                    context: context, into: &sinks[sinkIndex])
                            return last >= first ? 1 : 0
                        }
                        if !info.is4x4 {
                            let flag = emit(LossyBlocks.y2, first: 0, type: 1, context: Int(top[t + 8] + left[8]))
                            top[t + 8] = flag
                            left[8] = flag
                        }
                        let first = info.is4x4 ? 0 : 1, type = info.is4x4 ? 3 : 0
                        for y in 0..<4 {
                            for x in 0..<4 {
                                let flag = emit(y * 4 + x, first: first, type: type, context: Int(top[t + x] + left[y]))
                                top[t + x] = flag
                                left[y] = flag
                            }
                        }
                        for channel in 0..<2 {
                            let c = 4 + channel * 2
                            for y in 0..<2 {
                                for x in 0..<2 {
                                    let block = LossyBlocks.u + channel * 4 + y * 2 + x
                                    let flag = emit(block, first: 0, type: 2, context: Int(top[t + c + x] + left[c + y]))
                                    top[t + c + x] = flag
                                    left[c + y] = flag
                                }
                            }
                        }
                    }
                }
            }
        }

        /// The token probabilities to code the frame with: each default replaced by
        /// the frequency of zeros at its node where the saving pays for the update
        /// flag and its 8-bit value (RFC 6386 §13.4).
        func adaptedProbabilities(usesSkip: Bool) -> [UInt8] {
            var counters = [LossyTokenCounter()]
            walk(usesSkip: usesSkip, into: &counters)
            let counts = counters[0].counts
            var probabilities = LossyTables.defaultCoefficientProbabilities
            let updates = LossyTables.coefficientUpdateProbabilities
            let cost = LossyTokenizer.cost
            for i in 0..<LossyTokenizer.probabilityCount {
                let zeros = Int64(counts[2 * i]), ones = Int64(counts[2 * i + 1])
                let total = zeros + ones
                guard total > 0 else { continue }
                let old = Int(probabilities[i])
                let candidate = Int(min(max((zeros * 255 + total / 2) / total, 1), 255))
                let oldCost = zeros * Int64(cost(false, old)) + ones * Int64(cost(true, old))
                    + Int64(cost(false, Int(updates[i])))
                let newCost = zeros * Int64(cost(false, candidate)) + ones * Int64(cost(true, candidate))
                    + Int64(cost(true, Int(updates[i]))) + 8 * 256
                if newCost < oldCost { probabilities[i] = UInt8(candidate) }
            }
            return probabilities
        }

        /// The token partitions, each a finished bool-coded stream.
        func writePartitions(count: Int, probabilities: [UInt8], usesSkip: Bool) -> [[UInt8]] {
            var writers = (0..<count).map { _ in
                LossyTokenWriter(encoder: LossyBoolEncoder(capacity: levels.count / (4 * count)), probabilities: probabilities)
            }
            walk(usesSkip: usesSkip, into: &writers)
            return writers.indices.map { writers[$0].encoder.finish() }
        }

        /// Whether the decoder filters each macroblock's inner edges: 4×4-predicted, or
        /// with a non-zero coefficient after dequantisation (libwebp counts a 16×16
        /// block's DC only once the Y2 inverse transform has produced it).
        func innerEdgeFlags(y2Quantizers: [LossyQuantizer]) -> [Bool] {
            var dequantized = [Int16](repeating: 0, count: 16)
            var dcs = [Int16](repeating: 0, count: 256)
            return infos.indices.map { index in
                let info = infos[index]
                if info.is4x4 { return true }
                let base = index * LossyBlocks.perMacroblock
                if (0..<16).contains(where: { lasts[base + $0] >= 1 }) { return true }
                if (16..<24).contains(where: { lasts[base + $0] >= 0 }) { return true }
                guard lasts[base + LossyBlocks.y2] >= 0 else { return false }
                let y2 = index * LossyBlocks.levelsPerMacroblock + LossyBlocks.y2 * 16
                let y2Quantizer = y2Quantizers[Int(info.segment)]
                for n in 0..<16 {
                    let step = n == 0 ? y2Quantizer.dc : y2Quantizer.ac
                    dequantized[LossyTables.zigzag[n]] = Int16(truncatingIfNeeded: Int32(levels[y2 + n]) * step)
                }
                dequantized.withUnsafeBufferPointer { input in
                    dcs.withUnsafeMutableBufferPointer { out in
                        guard let i = input.baseAddress, let o = out.baseAddress else { return }
                        LossyTransform.inverseWHT(i, o)
                    }
                }
                return (0..<16).contains { dcs[$0 * 16] != 0 }
            }
        }
    }
}
