/// The coefficient token tree of RFC 6386 §13.2, walked for one block of
/// levels, the inverse of the decoder's `readCoefficients`. Every bit goes to a
/// sink: the bool encoder (writing), a counter (adapting the probabilities,
/// §13.4) or a cost accumulator (rate estimates for mode decisions), so the
/// three can never disagree about which bits a block takes.
protocol WebPLossyTokenSink {
    /// A bit coded with the token probability at `node` of the flattened
    /// `[type][band][context][node]` table.
    mutating func put(_ bit: Bool, node: Int)
    /// A bit coded with a fixed probability (signs and extra bits).
    mutating func put(_ bit: Bool, probability: Int)
}

extension WebP {
    enum LossyTokenizer {
        /// Token probabilities in the flattened table (4 types × 8 bands × 3 contexts × 11 nodes).
        static let probabilityCount = 4 * 8 * 3 * 11

        /// Offset of the 11 probabilities of `type`, the band of scan position `n`, and `context`.
        @inline(__always)
        static func offset(type: Int, position n: Int, context: Int) -> Int {
            ((type &* 8 &+ LossyTables.bands[n]) &* 3 &+ context) &* 11
        }

        /// The tokens of `levels` (zigzag order) from scan position `first` to `last`
        /// (−1 or below `first`: the block is empty, one end-of-block token).
        /// `type`: 0 luma after Y2, 1 Y2, 2 chroma, 3 luma with DC (RFC 6386 §13.3).
        @inline(__always)
        static func tokenize<Sink: WebPLossyTokenSink>(_ levels: UnsafePointer<Int16>, first: Int, last: Int,
                                                      type: Int, context: Int, into sink: inout Sink) {
            var n = first
            var p = offset(type: type, position: n, context: context)
            sink.put(last >= n, node: p)
            guard last >= n else { return }
            while n < 16 {
                let level = Int(levels[n])
                n &+= 1
                let magnitude = level < 0 ? 0 &- level : level
                if magnitude == 0 {
                    sink.put(false, node: p &+ 1)
                    p = offset(type: type, position: n, context: 0)
                    continue
                }
                sink.put(true, node: p &+ 1)
                let nextContext: Int
                if magnitude == 1 {
                    sink.put(false, node: p &+ 2)
                    nextContext = 1
                } else {
                    sink.put(true, node: p &+ 2)
                    putLarge(magnitude, p, into: &sink)
                    nextContext = 2
                }
                sink.put(level < 0, probability: 128)
                if n == 16 { return }
                p = offset(type: type, position: n, context: nextContext)
                sink.put(n <= last, node: p)
                if n > last { return }
            }
        }

        /// A magnitude of 2 or more: the tree below node 2 and the DCT_CAT extra bits.
        @inline(__always)
        private static func putLarge<Sink: WebPLossyTokenSink>(_ v: Int, _ p: Int, into sink: inout Sink) {
            if v <= 4 {
                sink.put(false, node: p &+ 3)
                sink.put(v != 2, node: p &+ 4)
                if v != 2 { sink.put(v == 4, node: p &+ 5) }
                return
            }
            sink.put(true, node: p &+ 3)
            if v <= 10 {
                sink.put(false, node: p &+ 6)
                if v <= 6 {
                    sink.put(false, node: p &+ 7)
                    sink.put(v == 6, probability: 159)
                } else {
                    sink.put(true, node: p &+ 7)
                    sink.put(v &- 7 >= 2, probability: 165)
                    sink.put((v &- 7) & 1 == 1, probability: 145)
                }
                return
            }
            sink.put(true, node: p &+ 6)
            let category = v < 19 ? 0 : v < 35 ? 1 : v < 67 ? 2 : 3
            sink.put(category >= 2, node: p &+ 8)
            sink.put(category & 1 == 1, node: p &+ 9 &+ (category >> 1))
            let extra = v &- (3 &+ (8 << category))
            let probabilities = LossyTables.categoryProbabilities[category]
            let count = probabilities.count &- 1
            for i in 0..<count {
                sink.put((extra >> (count &- 1 &- i)) & 1 == 1, probability: Int(probabilities[i]))
            }
        }

        /// Cost in 1/256 bit of coding a 0 with probability `p`/256 (index 0…256): −256·log2(p/256).
        static let bitCost: [Int32] = (0...256).map { p in
            p == 0 ? 256 * 12 : Int32((-256 * ScalarMath.log(Double(p) / 256) / ScalarMath.ln2).rounded())
        }

        /// The cost of `bit` at probability `probability` (of a 0), in 1/256 bit.
        @inline(__always)
        static func cost(_ bit: Bool, _ probability: Int) -> Int32 {
            bitCost[bit ? 256 &- probability : probability]
        }
    }

    /// Writes token bits to a bool encoder with the frame's probabilities.
    struct LossyTokenWriter: WebPLossyTokenSink {
        var encoder: LossyBoolEncoder
        let probabilities: [UInt8]
        @inline(__always) mutating func put(_ bit: Bool, node: Int) { encoder.put(bit, Int(probabilities[node])) }
        @inline(__always) mutating func put(_ bit: Bool, probability: Int) { encoder.put(bit, probability) }
    }

    /// Counts the zeros and ones coded at every node (`counts[2 node + bit]`).
    struct LossyTokenCounter: WebPLossyTokenSink {
        var counts = [Int32](repeating: 0, count: 2 * LossyTokenizer.probabilityCount)
        @inline(__always) mutating func put(_ bit: Bool, node: Int) { counts[2 &* node &+ (bit ? 1 : 0)] &+= 1 }
        @inline(__always) mutating func put(_ bit: Bool, probability: Int) {}
    }

    /// Adds up the cost of the bits, in 1/256 bit, at the given probabilities.
    struct LossyTokenCost: WebPLossyTokenSink {
        let probabilities: UnsafePointer<UInt8>
        var total: Int32 = 0
        @inline(__always) mutating func put(_ bit: Bool, node: Int) {
            total &+= LossyTokenizer.cost(bit, Int(probabilities[node]))
        }
        @inline(__always) mutating func put(_ bit: Bool, probability: Int) {
            total &+= LossyTokenizer.cost(bit, probability)
        }
    }
}
