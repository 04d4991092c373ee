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
        /// Codes `symbol`, then appends the low `count` bits of `bits`.
        mutating func emit(_ symbol: Int, table: Int, bits: UInt32, count: Int)
        /// The pending bits, to hold in a local across one block's symbols
        /// (the `into:` forms), given back with ``endBlock(_:)``: the hot loop
        /// then keeps them in registers.
        mutating func beginBlock() -> BitWriter.Pending
        mutating func endBlock(_ pending: BitWriter.Pending)
        /// ``emit(_:table:)`` between ``beginBlock()`` and ``endBlock(_:)``.
        mutating func emit(_ symbol: Int, table: Int, into pending: inout BitWriter.Pending)
        /// ``emit(_:table:bits:count:)`` between ``beginBlock()`` and ``endBlock(_:)``.
        mutating func emit(_ symbol: Int, table: Int, bits: UInt32, count: Int, into pending: inout BitWriter.Pending)
    }

    /// Counts symbols per table.
    struct SymbolCounter: EntropySink, Sendable {
        /// Table slot × 256 + symbol.
        var flatCounts = [Int](repeating: 0, count: 4 * 256)

        /// The 256 counts of table slot `slot`.
        func counts(_ slot: Int) -> [Int] { Array(flatCounts[(slot * 256)..<(slot * 256 + 256)]) }

        @inline(__always)
        mutating func emit(_ symbol: Int, table: Int) { flatCounts[table &<< 8 | symbol] &+= 1 }
        @inline(__always)
        mutating func emit(_ symbol: Int, table: Int, bits: UInt32, count: Int) { flatCounts[table &<< 8 | symbol] &+= 1 }
        @inline(__always)
        mutating func emitBits(_ bits: UInt32, _ count: Int) {}
        @inline(__always)
        mutating func beginBlock() -> BitWriter.Pending { BitWriter.Pending(buffer: 0, free: 64) }
        @inline(__always)
        mutating func endBlock(_ pending: BitWriter.Pending) {}
        @inline(__always)
        mutating func emit(_ symbol: Int, table: Int, into pending: inout BitWriter.Pending) { emit(symbol, table: table) }
        @inline(__always)
        mutating func emit(_ symbol: Int, table: Int, bits: UInt32, count: Int, into pending: inout BitWriter.Pending) {
            emit(symbol, table: table)
        }
        mutating func restart(_ index: Int) {}
        mutating func finishScan() {}
    }

    /// Writes symbols with the tables given.
    struct HuffmanWriter: EntropySink, Sendable {
        var writer: BitWriter
        /// By table slot (as ``EntropySink/emit(_:table:)``) × 256 + symbol:
        /// the code in the low 16 bits, its length above.
        private var packed = [UInt32](repeating: 0, count: 4 * 256)

        init(writer: BitWriter) {
            self.writer = writer
        }

        mutating func setTable(_ table: HuffmanCodeTable, slot: Int) {
            for symbol in 0..<256 {
                packed[slot &* 256 &+ symbol] = table.codes[symbol] | UInt32(table.lengths[symbol]) << 16
            }
        }

        @inline(__always)
        mutating func emit(_ symbol: Int, table: Int) {
            let entry = entry(symbol, table: table)
            // A code has no bits above its length.
            writer.write(exactly: UInt64(entry & 0xFFFF), Int(entry &>> 16))
        }

        @inline(__always)
        mutating func emit(_ symbol: Int, table: Int, bits: UInt32, count: Int) {
            let entry = entry(symbol, table: table)
            // A code of at most 16 bits and at most 15 extra bits: under 32 together.
            let extra = bits & ((1 &<< UInt32(count)) &- 1)
            writer.write(exactly: UInt64((entry & 0xFFFF) &<< UInt32(count) | extra), Int(entry &>> 16) &+ count)
        }

        @inline(__always)
        mutating func emitBits(_ bits: UInt32, _ count: Int) { writer.write(bits, count) }

        @inline(__always)
        mutating func beginBlock() -> BitWriter.Pending { writer.pending }

        @inline(__always)
        mutating func endBlock(_ pending: BitWriter.Pending) { writer.pending = pending }

        @inline(__always)
        mutating func emit(_ symbol: Int, table: Int, into pending: inout BitWriter.Pending) {
            let entry = entry(symbol, table: table)
            // A code has no bits above its length.
            pending.append(UInt64(entry & 0xFFFF), Int(entry &>> 16)) { writer.put($0) }
        }

        @inline(__always)
        mutating func emit(_ symbol: Int, table: Int, bits: UInt32, count: Int, into pending: inout BitWriter.Pending) {
            let entry = entry(symbol, table: table)
            // A code of at most 16 bits and at most 15 extra bits: under 32 together.
            let extra = bits & ((1 &<< UInt32(count)) &- 1)
            pending.append(UInt64((entry & 0xFFFF) &<< UInt32(count) | extra), Int(entry &>> 16) &+ count) { writer.put($0) }
        }

        /// The packed code of `symbol` in table slot `table`.
        @inline(__always)
        private func entry(_ symbol: Int, table: Int) -> UInt32 {
            // The coders pass slots 0…3 and symbols 0…255 (a run of at most 15 and a size of at
            // most 15, or an EOB run category of at most 14): inside the 1024 entries, so the
            // unchecked read skips the bounds test done once per symbol.
            packed.withUnsafeBufferPointer { $0[table &<< 8 | symbol] }
        }

        mutating func restart(_ index: Int) {
            writer.flush()
            writer.appendRaw([0xFF, 0xD0 &+ UInt8(index & 7)])
        }

        mutating func finishScan() { writer.flush() }
    }
}
