extension WebP.EncoderPrefixCode {
    /// Writes the code's description (RFC 9649 §3.7.2.1): the simple form for at
    /// most two symbols below 256, otherwise the code lengths, run-length coded
    /// with repeats 16–18 and themselves prefix-coded by the code-length code.
    func writeHeader(into writer: inout WebP.LosslessBitWriter) {
        let used = lengths.indices.filter { lengths[$0] > 0 }
        if used.count <= 2, used.allSatisfy({ $0 < 256 }) {
            writer.write(1, 1)
            writer.write(max(used.count, 1) - 1, 1)
            let first = used.first ?? 0
            if first < 2 {
                writer.write(0, 1)
                writer.write(first, 1)
            } else {
                writer.write(1, 1)
                writer.write(first, 8)
            }
            if used.count == 2 { writer.write(used[1], 8) }
            return
        }
        writer.write(0, 1)
        let tokens = Self.codeLengthTokens(lengths)
        var counts = [UInt32](repeating: 0, count: 19)
        for token in tokens { counts[Int(token.symbol)] += 1 }
        let lengthCode = WebP.EncoderPrefixCode(counts: counts, limit: 7)
        let order = WebP.LosslessPrefixCode.codeLengthOrder
        var written = order.count
        while written > 4, lengthCode.lengths[order[written - 1]] == 0 { written -= 1 }
        writer.write(written - 4, 4)
        for index in 0..<written { writer.write(Int(lengthCode.lengths[order[index]]), 3) }

        // Trailing zero lengths may be left out by naming how many tokens follow;
        // worth it when the tokens dropped cost more than the count's field.
        var kept = tokens.count
        while kept > 0, tokens[kept - 1].symbol == 0 || tokens[kept - 1].symbol >= 17 { kept -= 1 }
        var droppedBits = 0
        for token in tokens[kept...] { droppedBits += Int(lengthCode.emittedLengths[Int(token.symbol)]) + token.extraBits }
        let countBits = kept >= 2 ? Self.tokenCountBits(kept - 2) : 99
        if kept >= 2, 3 + countBits < droppedBits {
            writer.write(1, 1)
            writer.write((countBits - 2) / 2, 3)
            writer.write(kept - 2, countBits)
        } else {
            writer.write(0, 1)
            kept = tokens.count
        }
        for token in tokens[0..<kept] {
            let symbol = Int(token.symbol)
            writer.write(code: lengthCode.codes[symbol], length: lengthCode.emittedLengths[symbol])
            if token.extraBits > 0 { writer.write(Int(token.extra), token.extraBits) }
        }
    }

    /// The smallest field width 2, 4, …, 16 that holds `value`.
    private static func tokenCountBits(_ value: Int) -> Int {
        var bits = 2
        while value >= 1 << bits { bits += 2 }
        return bits
    }

    /// One code-length symbol (0…15 a length, 16 repeat the previous non-zero
    /// length 3–6 times, 17 and 18 runs of zeros of 3–10 and 11–138) with its extra bits.
    struct CodeLengthToken {
        var symbol: UInt8
        var extra: UInt8
        var extraBits: Int
    }

    /// Run-length codes `lengths` as libwebp's `VP8LCreateCompressedHuffmanTree` does.
    static func codeLengthTokens(_ lengths: [UInt8]) -> [CodeLengthToken] {
        var tokens: [CodeLengthToken] = []
        var previous: UInt8 = 8
        var index = 0
        while index < lengths.count {
            let value = lengths[index]
            var run = 1
            while index + run < lengths.count, lengths[index + run] == value { run += 1 }
            index += run
            if value == 0 {
                while run > 0 {
                    if run < 3 {
                        tokens.append(contentsOf: repeatElement(CodeLengthToken(symbol: 0, extra: 0, extraBits: 0), count: run))
                        run = 0
                    } else if run <= 10 {
                        tokens.append(CodeLengthToken(symbol: 17, extra: UInt8(run - 3), extraBits: 3))
                        run = 0
                    } else {
                        let part = min(run, 138)
                        tokens.append(CodeLengthToken(symbol: 18, extra: UInt8(part - 11), extraBits: 7))
                        run -= part
                    }
                }
                continue
            }
            if value != previous {
                tokens.append(CodeLengthToken(symbol: value, extra: 0, extraBits: 0))
                previous = value
                run -= 1
            }
            while run > 0 {
                if run < 3 {
                    tokens.append(contentsOf: repeatElement(CodeLengthToken(symbol: value, extra: 0, extraBits: 0), count: run))
                    run = 0
                } else {
                    let part = min(run, 6)
                    tokens.append(CodeLengthToken(symbol: 16, extra: UInt8(part - 3), extraBits: 2))
                    run -= part
                }
            }
        }
        return tokens
    }
}
