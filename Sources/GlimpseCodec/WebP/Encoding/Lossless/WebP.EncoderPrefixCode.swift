extension WebP {
    /// A canonical prefix code built from symbol counts, limited to a longest code
    /// (15 bits for the five codes of a group, 7 for the code-length code; RFC 9649
    /// §3.7.1, §3.7.2.1.2), with each code stored bit-reversed so that it is
    /// written least significant bit first as the decoder reads it.
    struct EncoderPrefixCode {
        /// Code length per symbol as written in the code's header (0: unused).
        var lengths: [UInt8]
        /// Bits written per symbol: `lengths`, except a code of one symbol, which
        /// reads (and so writes) no bits at all.
        var emittedLengths: [UInt8]
        /// Bit-reversed canonical codes.
        var codes: [UInt16]
        /// Symbols with a non-zero length.
        var usedSymbols: Int

        /// The optimal code for `counts` whose lengths do not exceed `limit`.
        ///
        /// When plain Huffman gives a longer code, the smallest counts are raised
        /// to a floor that doubles until the tree fits (libwebp's approach too):
        /// nearly optimal and far simpler than package-merge.
        init(counts: [UInt32], limit: Int) {
            let size = counts.count
            lengths = [UInt8](repeating: 0, count: size)
            codes = [UInt16](repeating: 0, count: size)
            let used = counts.indices.filter { counts[$0] > 0 }
            usedSymbols = used.count
            if used.count == 1 {
                lengths[used[0]] = 1
            } else if used.count > 1 {
                var floor: UInt32 = 1
                while true {
                    let depths = Self.huffmanDepths(used.map { max(counts[$0], floor) })
                    if let deepest = depths.max(), deepest <= limit {
                        for (index, symbol) in used.enumerated() { lengths[symbol] = UInt8(depths[index]) }
                        break
                    }
                    floor = floor &* 2
                }
            }
            emittedLengths = usedSymbols == 1 ? [UInt8](repeating: 0, count: size) : lengths
            assignCanonicalCodes()
        }

        /// A code with the given lengths (a complete code, or a single symbol).
        init(lengths: [UInt8]) {
            self.lengths = lengths
            codes = [UInt16](repeating: 0, count: lengths.count)
            usedSymbols = lengths.reduce(0) { $0 + ($1 > 0 ? 1 : 0) }
            emittedLengths = usedSymbols == 1 ? [UInt8](repeating: 0, count: lengths.count) : lengths
            assignCanonicalCodes()
        }

        /// Shorter codes first, equal lengths in symbol order — how the decoder
        /// rebuilds the code from its lengths (RFC 9649 §3.7.2.1.2).
        private mutating func assignCanonicalCodes() {
            var perLength = [Int](repeating: 0, count: 17)
            for length in lengths where length > 0 { perLength[Int(length)] += 1 }
            var next = [Int](repeating: 0, count: 17)
            var code = 0
            for length in 1...15 {
                next[length] = code
                code = (code + perLength[length]) << 1
            }
            for symbol in lengths.indices where lengths[symbol] > 0 {
                let length = Int(lengths[symbol])
                codes[symbol] = Self.reversed(next[length], length)
                next[length] += 1
            }
        }

        private static func reversed(_ code: Int, _ length: Int) -> UInt16 {
            var result = 0
            var value = code
            for _ in 0..<length {
                result = result << 1 | value & 1
                value >>= 1
            }
            return UInt16(truncatingIfNeeded: result)
        }

        /// Depth of each leaf of the Huffman tree over `weights` (at least two),
        /// built with the two-queue method over the leaves sorted by weight.
        private static func huffmanDepths(_ weights: [UInt32]) -> [Int] {
            let leaves = weights.count
            let order = weights.indices.sorted { weights[$0] < weights[$1] || (weights[$0] == weights[$1] && $0 < $1) }
            var weight = [UInt64](repeating: 0, count: 2 * leaves - 1)
            var parent = [Int](repeating: 0, count: 2 * leaves - 1)
            for (rank, leaf) in order.enumerated() { weight[rank] = UInt64(weights[leaf]) }
            var nextLeaf = 0
            var nextInternal = leaves
            var built = leaves
            func smallest() -> Int {
                if nextLeaf < leaves, nextInternal >= built || weight[nextLeaf] <= weight[nextInternal] {
                    nextLeaf += 1
                    return nextLeaf - 1
                }
                nextInternal += 1
                return nextInternal - 1
            }
            while built < 2 * leaves - 1 {
                let a = smallest()
                let b = smallest()
                weight[built] = weight[a] + weight[b]
                parent[a] = built
                parent[b] = built
                built += 1
            }
            // Parents are built after their children: one pass from the root down.
            var depth = [Int](repeating: 0, count: 2 * leaves - 1)
            for node in stride(from: 2 * leaves - 3, through: 0, by: -1) { depth[node] = depth[parent[node]] + 1 }
            var result = [Int](repeating: 0, count: leaves)
            for (rank, leaf) in order.enumerated() { result[leaf] = depth[rank] }
            return result
        }
    }
}
