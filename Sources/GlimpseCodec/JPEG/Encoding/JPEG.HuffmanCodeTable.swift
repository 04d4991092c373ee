extension JPEG {
    /// A Huffman table as a DHT segment stores it (ITU T.81 §B.2.4.2): how many
    /// codes of each length 1…16, and the symbols in code order; plus the codes
    /// derived from it for writing (§C.2, figures C.1–C.3).
    struct HuffmanCodeTable: Sendable, Equatable {
        /// `counts[k]` codes of length `k + 1`.
        let counts: [UInt8]
        let symbols: [UInt8]
        /// Code and length by symbol; length 0 for symbols the table lacks.
        let codes: [UInt32]
        let lengths: [UInt8]

        init(counts: [UInt8], symbols: [UInt8]) {
            self.counts = counts
            self.symbols = symbols
            var codes = [UInt32](repeating: 0, count: 256)
            var lengths = [UInt8](repeating: 0, count: 256)
            var code: UInt32 = 0
            var index = 0
            for length in 1...16 {
                for _ in 0..<Int(counts[length - 1]) where index < symbols.count {
                    codes[Int(symbols[index])] = code
                    lengths[Int(symbols[index])] = UInt8(length)
                    code += 1
                    index += 1
                }
                code <<= 1
            }
            self.codes = codes
            self.lengths = lengths
        }

        /// The DHT payload after the class/index byte.
        var segmentBytes: [UInt8] { counts + symbols }

        /// The table libjpeg's `jpeg_gen_optimal_table` builds from symbol
        /// frequencies (T.81 §K.2 figures K.1–K.3): Huffman's algorithm over the
        /// symbols plus a reserved pseudo-symbol 256 (so no code is all ones),
        /// ties going to the larger symbol; lengths over 16 folded as figure K.3
        /// does; the pseudo-symbol's code taken away from the longest length.
        static func optimal(frequencies: [Int]) -> HuffmanCodeTable {
            var frequency = frequencies + [Int](repeating: 0, count: max(0, 257 - frequencies.count))
            frequency[256] = 1
            var codeSize = [Int](repeating: 0, count: 257)
            var others = [Int](repeating: -1, count: 257)
            while true {
                var c1 = -1, c2 = -1
                var smallest = Int.max
                for symbol in 0...256 where frequency[symbol] != 0 && frequency[symbol] <= smallest {
                    smallest = frequency[symbol]
                    c1 = symbol
                }
                smallest = Int.max
                for symbol in 0...256 where frequency[symbol] != 0 && frequency[symbol] <= smallest && symbol != c1 {
                    smallest = frequency[symbol]
                    c2 = symbol
                }
                if c2 < 0 { break }
                frequency[c1] += frequency[c2]
                frequency[c2] = 0
                codeSize[c1] += 1
                while others[c1] >= 0 {
                    c1 = others[c1]
                    codeSize[c1] += 1
                }
                others[c1] = c2
                codeSize[c2] += 1
                while others[c2] >= 0 {
                    c2 = others[c2]
                    codeSize[c2] += 1
                }
            }
            // 257 symbols give at most 256 merges, so no length exceeds 256.
            var bits = [Int](repeating: 0, count: 258)
            for size in codeSize where size != 0 { bits[size] += 1 }
            var length = 257
            while length > 16 {
                while bits[length] > 0 {
                    var prefix = length - 2
                    while prefix > 0 && bits[prefix] == 0 { prefix -= 1 }
                    bits[length] -= 2
                    bits[length - 1] += 1
                    bits[prefix + 1] += 2
                    bits[prefix] -= 1
                }
                length -= 1
            }
            while length > 0 && bits[length] == 0 { length -= 1 }
            bits[length] -= 1
            var symbols: [UInt8] = []
            for size in 1...257 {
                for symbol in 0...255 where codeSize[symbol] == size { symbols.append(UInt8(symbol)) }
            }
            return HuffmanCodeTable(counts: (1...16).map { UInt8(clamping: bits[$0]) }, symbols: symbols)
        }
    }
}
