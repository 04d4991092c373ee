extension WebP {
    /// Symbol counts of the five alphabets of one prefix-code group (RFC 9649
    /// §3.7.2.2), in one flat array: green with the length prefixes and the
    /// colour cache, red, blue, alpha, distance prefix.
    struct LosslessHistogram {
        var counts: [UInt32]
        let cacheSize: Int

        /// Start of each alphabet in ``counts``, and the end.
        let starts: [Int]

        init(cacheBits: Int) {
            cacheSize = cacheBits > 0 ? 1 << cacheBits : 0
            let sizes = LosslessCodes.alphabetSizes
            var starts = [0]
            for (kind, size) in sizes.enumerated() { starts.append(starts[kind] + size + (kind == 0 ? cacheSize : 0)) }
            self.starts = starts
            counts = [UInt32](repeating: 0, count: starts[5])
        }

        @inline(__always)
        mutating func add(_ token: PixelToken) {
            switch token.kind {
            case .literal:
                let argb = token.value
                counts[Int((argb >> 8) & 0xff)] &+= 1
                counts[starts[1] + Int((argb >> 16) & 0xff)] &+= 1
                counts[starts[2] + Int(argb & 0xff)] &+= 1
                counts[starts[3] + Int(argb >> 24)] &+= 1
            case .cacheIndex:
                counts[256 + 24 + Int(token.value)] &+= 1
            case .copy:
                counts[256 + PrefixValue(token.length).prefix] &+= 1
                counts[starts[4] + PrefixValue(Int(token.value)).prefix] &+= 1
            }
        }

        /// Bits per symbol, `−log2 p` within its alphabet; a symbol never seen costs
        /// `unseenPenalty` bits more than one seen once in an alphabet of the same total.
        func bitCosts(unseenPenalty: Double) -> [Double] {
            var costs = [Double](repeating: 0, count: counts.count)
            for kind in 0..<5 {
                let range = starts[kind]..<starts[kind + 1]
                let total = counts[range].reduce(0) { $0 + Int($1) }
                let totalLog = Log2Table.log2(total + 1)
                for index in range {
                    let count = Int(counts[index])
                    costs[index] = count > 0 ? totalLog - Log2Table.log2(count) : totalLog + unseenPenalty
                }
            }
            return costs
        }

        /// The colour cache slot of `argb` in a cache of `bits` bits (RFC 9649 §5.2.3).
        @inline(__always)
        static func cacheKey(_ argb: UInt32, bits: Int) -> Int {
            Int((0x1e35_a7bd &* argb) >> UInt32(32 - bits))
        }

        /// The counts of alphabet `kind` (0…4).
        func alphabet(_ kind: Int) -> [UInt32] { Array(counts[starts[kind]..<starts[kind + 1]]) }

        /// The histogram of both groups' symbols together.
        mutating func merge(_ other: LosslessHistogram) {
            for index in counts.indices { counts[index] &+= other.counts[index] }
        }

        /// Estimated bits for the symbols counted (Shannon entropy per alphabet)
        /// plus a rough cost of describing each code: what clustering and the
        /// colour cache choice compare.
        var estimatedBits: Double {
            var total = 0.0
            for kind in 0..<5 { total += Self.entropyBits(counts[starts[kind]..<starts[kind + 1]]) }
            return total
        }

        /// `N log2 N − Σ c log2 c` over a set of counts, with about 4 bits per used symbol
        /// and a few bits per code as the header's cost.
        static func entropyBits(_ counts: ArraySlice<UInt32>) -> Double {
            var sum = 0
            var weighted = 0.0
            var used = 0
            for count in counts where count > 0 {
                sum += Int(count)
                weighted += Log2Table.times(Int(count))
                used += 1
            }
            guard used > 1 else { return 6 }
            return Log2Table.times(sum) - weighted + Double(used) * 3 + 20
        }
    }

    /// `log2 x` and `x · log2 x` for counts, from tables for small values.
    enum Log2Table {
        private static let size = 1 << 13
        private static let logs: [Double] = (0..<size).map { $0 == 0 ? 0 : ScalarMath.log(Double($0)) / ScalarMath.ln2 }

        @inline(__always)
        static func log2(_ x: Int) -> Double {
            x < size ? logs[x] : ScalarMath.log(Double(x)) / ScalarMath.ln2
        }

        @inline(__always)
        static func times(_ x: Int) -> Double { Double(x) * log2(x) }

        /// Bits to code the symbols counted in `tile` with a code fitted to
        /// `tile + accumulated`: how a tile's choice is judged against what the
        /// tiles before it chose (libwebp's spatial-histogram cost, simplified).
        static func combinedBits(_ tile: UnsafeBufferPointer<UInt32>, _ accumulated: UnsafeBufferPointer<UInt32>,
                                 offset: Int, count: Int) -> Double {
            var tileTotal = 0
            var total = 0
            var weighted = 0.0
            // Safe: the caller's ranges lie inside both buffers.
            for symbol in offset..<(offset + count) {
                let t = Int(tile[symbol])
                total += Int(accumulated[symbol])
                guard t > 0 else { continue }
                tileTotal += t
                weighted += Double(t) * log2(t + Int(accumulated[symbol]))
            }
            return Double(tileTotal) * log2(total + tileTotal) - weighted
        }
    }

    /// A length or distance split into a prefix symbol and extra bits (RFC 9649 §5.2.2).
    struct PrefixValue {
        let prefix: Int
        let extraBits: Int
        let extra: Int

        /// `value` ≥ 1.
        @inline(__always)
        init(_ value: Int) {
            if value <= 4 {
                prefix = value - 1
                extraBits = 0
                extra = 0
                return
            }
            let d = value - 1
            let highest = Int.bitWidth - 1 - d.leadingZeroBitCount
            let second = (d >> (highest - 1)) & 1
            prefix = 2 * highest + second
            extraBits = highest - 1
            extra = d & ((1 << extraBits) - 1)
        }
    }
}
