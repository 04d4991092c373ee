extension JPEG {
    /// Where the entropy coders send Huffman symbols and raw bits: a
    /// ``HuffmanWriter`` that writes them, or a ``SymbolCounter`` that only
    /// counts symbols for optimised tables (libjpeg's gather pass). Scans are
    /// generic over it so both passes walk the blocks identically.
    protocol EntropySink {
        /// Codes `symbol` with table `table` (0, 1: DC luma/chroma; 2, 3: AC).
        mutating func emit(_ symbol: Int, table: Int)
        /// Appends the low `count` (< 32) bits of `bits`.
        mutating func emitBits(_ bits: UInt32, _ count: Int)
        /// Pads to a byte and writes RSTn (T.81 §B.2.1); no-op when counting.
        mutating func restart(_ index: Int)
        /// Pads the scan's last byte with one bits; no-op when counting.
        mutating func finishScan()
    }

    /// Counts symbols per table.
    struct SymbolCounter: EntropySink, Sendable {
        var counts: [[Int]] = Array(repeating: [Int](repeating: 0, count: 257), count: 4)

        @inline(__always)
        mutating func emit(_ symbol: Int, table: Int) { counts[table][symbol] &+= 1 }
        @inline(__always)
        mutating func emitBits(_ bits: UInt32, _ count: Int) {}
        mutating func restart(_ index: Int) {}
        mutating func finishScan() {}
    }

    /// Writes symbols with the tables given.
    struct HuffmanWriter: EntropySink, Sendable {
        var writer: BitWriter
        /// Per table slot (as ``EntropySink/emit(_:table:)``), code and length by symbol.
        private var codes: [[UInt32]] = Array(repeating: [UInt32](repeating: 0, count: 256), count: 4)
        private var lengths: [[UInt8]] = Array(repeating: [UInt8](repeating: 0, count: 256), count: 4)

        init(writer: BitWriter) {
            self.writer = writer
        }

        mutating func setTable(_ table: HuffmanCodeTable, slot: Int) {
            codes[slot] = table.codes
            lengths[slot] = table.lengths
        }

        @inline(__always)
        mutating func emit(_ symbol: Int, table: Int) {
            writer.write(codes[table][symbol], Int(lengths[table][symbol]))
        }

        @inline(__always)
        mutating func emitBits(_ bits: UInt32, _ count: Int) { writer.write(bits, count) }

        mutating func restart(_ index: Int) {
            writer.flush()
            writer.appendRaw([0xFF, 0xD0 &+ UInt8(index & 7)])
        }

        mutating func finishScan() { writer.flush() }
    }
}
