extension WebP {
    /// Builds and reads the canonical prefix codes of a VP8L stream
    /// (RFC 9649 §3.7.1, §3.7.2) as two-level lookup tables.
    ///
    /// A table is a run of `UInt16` entries in a shared store: `length << 12 |
    /// value` (two bytes, so a group's five tables stay small in cache). The root has `1 << rootBits` entries indexed by the next
    /// `rootBits` bits; a root entry whose length exceeds `rootBits` points at a
    /// second-level table (`value` = its offset from the root's start) indexed by
    /// the following `length - rootBits` bits, whose entries hold the full code
    /// length. A single-symbol code has length 0 everywhere: it reads no bits.
    enum LosslessPrefixCode {
        /// Longest code length the format allows.
        static let maxCodeLength = 15
        /// Root bits of the tables for the five codes of a prefix-code group.
        static let rootBits = 8
        /// Root bits of the code-length code's table (its lengths are at most 7).
        static let codeLengthRootBits = 7

        /// The order in which code-length code lengths are stored (RFC 9649 §3.7.2.1.2).
        static let codeLengthOrder: [Int] = [17, 18, 0, 1, 2, 3, 4, 5, 16, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]

        /// Appends the table for `lengths` to `store` and returns its start.
        ///
        /// Accepts exactly the codes libwebp's `BuildHuffmanTable` accepts: at least
        /// one symbol; a single symbol of any length; otherwise a complete code
        /// (Kraft sum exactly 1), neither over-subscribed nor incomplete.
        static func build(lengths: UnsafeBufferPointer<UInt8>, rootBits: Int,
                          into store: inout [UInt16]) throws(LosslessDefect) -> Int {
            // Scratch on the stack: the counts and running offsets per length, the symbols in
            // canonical order and the table being built (a few hundred builds per frame of an
            // animation with meta prefix codes, so heap arrays here were most of their cost).
            let outcome: Result<Int, LosslessDefect> = withUnsafeTemporaryAllocation(
                of: Int.self, capacity: 2 * (maxCodeLength + 1)) { counts in
                withUnsafeTemporaryAllocation(of: UInt16.self, capacity: lengths.count + maxTableSize) { scratch in
                    // Safe: both allocations are non-empty (capacities above 0).
                    guard let counts = counts.baseAddress, let scratch = scratch.baseAddress else {
                        return .failure(.invalidPrefixCode)
                    }
                    return build(lengths: lengths, rootBits: rootBits, counts: counts,
                                 sorted: scratch, table: scratch + lengths.count, into: &store)
                }
            }
            return try outcome.get()
        }

        /// Entries a table may take: libwebp's bound for the largest (15-bit codes over
        /// 2328 symbols, root 8 bits) is 2704; offsets must also fit in 12 bits.
        private static let maxTableSize = 1 << 12

        private static func build(lengths: UnsafeBufferPointer<UInt8>, rootBits: Int,
                                  counts: UnsafeMutablePointer<Int>, sorted: UnsafeMutablePointer<UInt16>,
                                  table: UnsafeMutablePointer<UInt16>,
                                  into store: inout [UInt16]) -> Result<Int, LosslessDefect> {
            let count = counts
            let offset = counts + (maxCodeLength + 1)
            for length in 0...maxCodeLength { count[length] = 0 }
            var symbols = 0
            var lastSymbol = 0
            for symbol in 0..<lengths.count {
                let length = Int(lengths[symbol])
                guard length != 0 else { continue }
                guard length <= maxCodeLength else { return .failure(.invalidPrefixCode) }
                count[length] &+= 1
                symbols &+= 1
                lastSymbol = symbol
            }
            guard symbols > 0 else { return .failure(.emptyPrefixCode) }
            let start = store.count
            let rootSize = 1 << rootBits
            if symbols == 1 {
                store.append(contentsOf: repeatElement(UInt16(lastSymbol), count: rootSize))
                return .success(start)
            }
            var kraft = 0
            for length in 1...maxCodeLength { kraft &+= count[length] << (maxCodeLength - length) }
            guard kraft == 1 << maxCodeLength else { return .failure(.invalidPrefixCode) }

            // Canonical order: shorter codes first, equal lengths in symbol order.
            offset[1] = 0
            for length in 1..<maxCodeLength { offset[length + 1] = offset[length] &+ count[length] }
            for symbol in 0..<lengths.count {
                let length = Int(lengths[symbol])
                guard length != 0 else { continue }
                // Safe: offset[length] < symbols <= lengths.count, the size of sorted.
                sorted[offset[length]] = UInt16(truncatingIfNeeded: symbol)
                offset[length] &+= 1
            }

            // `key` is the current code with its bits reversed (the stream is read least
            // significant bit first), so it indexes the tables directly; it advances by a
            // reversed increment. Every entry is written: the code is complete.
            var key = 0
            var index = 0
            for length in 1...min(rootBits, maxCodeLength) {
                let entryBase = UInt16(length << 12)
                for _ in 0..<count[length] {
                    let entry = entryBase | sorted[index]
                    var slot = key
                    while slot < rootSize {
                        // Safe: slot < rootSize <= maxTableSize.
                        table[slot] = entry
                        slot &+= 1 << length
                    }
                    key = nextKey(key, length)
                    index &+= 1
                }
            }
            // Longer codes: a second-level table per root slot they share, as large as the
            // subtree of codes under that slot.
            let rootMask = rootSize - 1
            var used = rootSize
            var slotOfTable = -1
            var tableStart = 0
            var tableSize = 0
            if rootBits < maxCodeLength {
                for length in (rootBits + 1)...maxCodeLength {
                    let entryBase = UInt16(length << 12)
                    while count[length] > 0 {
                        if key & rootMask != slotOfTable {
                            let bits = subtableBits(count, length: length, rootBits: rootBits)
                            tableSize = 1 << bits
                            guard used &+ tableSize <= maxTableSize else { return .failure(.invalidPrefixCode) }
                            tableStart = used
                            used &+= tableSize
                            slotOfTable = key & rootMask
                            table[slotOfTable] = UInt16((rootBits + bits) << 12 | tableStart)
                        }
                        let entry = entryBase | sorted[index]
                        var slot = key >> rootBits
                        while slot < tableSize {
                            // Safe: tableStart + tableSize <= used <= maxTableSize.
                            table[tableStart &+ slot] = entry
                            slot &+= 1 << (length - rootBits)
                        }
                        key = nextKey(key, length)
                        index &+= 1
                        count[length] &-= 1
                    }
                }
            }
            store.append(contentsOf: UnsafeBufferPointer(start: table, count: used))
            return .success(start)
        }

        /// The next code of `length` bits after `key`, both bit-reversed.
        @inline(__always)
        private static func nextKey(_ key: Int, _ length: Int) -> Int {
            var step = 1 << (length - 1)
            while key & step != 0 { step >>= 1 }
            return step == 0 ? key : (key & (step - 1)) + step
        }

        /// Bits of the second-level table for the codes left from `length` on that share
        /// the next root slot: enough to hold their whole subtree.
        private static func subtableBits(_ count: UnsafeMutablePointer<Int>, length: Int, rootBits: Int) -> Int {
            var length = length
            var left = 1 << (length - rootBits)
            while length < maxCodeLength {
                left -= count[length]
                if left <= 0 { break }
                length += 1
                left <<= 1
            }
            return length - rootBits
        }

        /// Decodes one symbol with the table at `table` (root `rootBits`). The
        /// window must hold at least 15 bits (call `refill` first).
        @inline(__always)
        static func decode(_ table: UnsafePointer<UInt16>, rootBits: Int,
                           _ reader: inout LosslessBitReader) -> Int {
            let window = reader.window
            var entry = table[Int(truncatingIfNeeded: window) & ((1 &<< rootBits) &- 1)]
            var length = Int(truncatingIfNeeded: entry &>> 12)
            if length > rootBits {
                let sub = Int(truncatingIfNeeded: window &>> UInt64(truncatingIfNeeded: rootBits))
                    & ((1 &<< (length &- rootBits)) &- 1)
                // Safe: the builder put a table of 1 << (length - rootBits) entries at this offset.
                entry = table[Int(truncatingIfNeeded: entry & 0xfff) &+ sub]
                length = Int(truncatingIfNeeded: entry &>> 12)
            }
            reader.skip(length)
            return Int(truncatingIfNeeded: entry & 0xfff)
        }

        /// Reads one prefix code over `alphabetSize` symbols (RFC 9649 §3.7.2.1)
        /// and appends its table to `store`, returning its start. `lengths` is
        /// scratch of at least 256 entries and `alphabetSize`.
        static func read(alphabetSize: Int, reader: inout LosslessBitReader,
                         lengths: UnsafeMutableBufferPointer<UInt8>,
                         store: inout [UInt16]) throws(LosslessDefect) -> Int {
            for index in 0..<max(alphabetSize, 256) { lengths[index] = 0 }
            if reader.read(1) == 1 {
                // Simple code: one or two symbols of length 1. libwebp ignores symbols
                // beyond the alphabet (a 40-symbol distance alphabet can name 255).
                let symbolCount = reader.readInt(1) + 1
                let firstIs8Bits = reader.read(1) == 1
                lengths[reader.readInt(firstIs8Bits ? 8 : 1)] = 1
                if symbolCount == 2 { lengths[reader.readInt(8)] = 1 }
            } else {
                try readCodeLengths(alphabetSize: alphabetSize, reader: &reader, lengths: lengths)
            }
            guard !reader.isPastEnd else { throw .endOfData }
            return try build(lengths: UnsafeBufferPointer(rebasing: lengths[0..<alphabetSize]),
                             rootBits: rootBits, into: &store)
        }

        /// The normal code: a code-length code, then the code lengths it codes with
        /// repeats 16 (previous non-zero length, default 8), 17 and 18 (zeros).
        private static func readCodeLengths(alphabetSize: Int, reader: inout LosslessBitReader,
                                            lengths: UnsafeMutableBufferPointer<UInt8>) throws(LosslessDefect) {
            var codeLengthLengths = [UInt8](repeating: 0, count: codeLengthOrder.count)
            let codeCount = reader.readInt(4) + 4
            for index in 0..<codeCount {
                codeLengthLengths[codeLengthOrder[index]] = UInt8(reader.read(3))
            }
            var table: [UInt16] = []
            table.reserveCapacity(1 << codeLengthRootBits)
            _ = try codeLengthLengths.withUnsafeBufferPointer { (lengths) throws(LosslessDefect) in
                try build(lengths: lengths, rootBits: codeLengthRootBits, into: &table)
            }
            var maxSymbol = alphabetSize
            if reader.read(1) == 1 {
                let lengthBits = 2 + 2 * reader.readInt(3)
                maxSymbol = 2 + reader.readInt(lengthBits)
                guard maxSymbol <= alphabetSize else { throw .maxSymbolTooLarge(maxSymbol) }
            }
            var symbol = 0
            var previous: UInt8 = 8
            try table.withUnsafeBufferPointer { (table) throws(LosslessDefect) in
                // Safe: the table is non-empty (build succeeded) and lives for this scope.
                guard let base = table.baseAddress else { return }
                while symbol < alphabetSize {
                    if maxSymbol == 0 { break }
                    maxSymbol -= 1
                    reader.refill()
                    let code = decode(base, rootBits: codeLengthRootBits, &reader)
                    if code < 16 {
                        lengths[symbol] = UInt8(code)
                        symbol += 1
                        if code != 0 { previous = UInt8(code) }
                    } else {
                        let slot = code - 16
                        let extraBits = slot == 0 ? 2 : slot == 1 ? 3 : 7
                        let repeatOffset = slot == 2 ? 11 : 3
                        let repeatCount = reader.readInt(extraBits) + repeatOffset
                        guard symbol + repeatCount <= alphabetSize else { throw .codeLengthRepeatOverflow }
                        let value: UInt8 = code == 16 ? previous : 0
                        for _ in 0..<repeatCount {
                            lengths[symbol] = value
                            symbol += 1
                        }
                    }
                }
            }
        }
    }
}
