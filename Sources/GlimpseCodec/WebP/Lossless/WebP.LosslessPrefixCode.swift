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
            var count = [Int](repeating: 0, count: maxCodeLength + 1)
            var symbols = 0
            var lastSymbol = 0
            for (symbol, length) in lengths.enumerated() where length != 0 {
                count[Int(length)] &+= 1
                symbols &+= 1
                lastSymbol = symbol
            }
            guard symbols > 0 else { throw .emptyPrefixCode }
            let start = store.count
            let rootSize = 1 << rootBits
            if symbols == 1 {
                store.append(contentsOf: repeatElement(UInt16(lastSymbol), count: rootSize))
                return start
            }
            var kraft = 0
            for length in 1...maxCodeLength { kraft &+= count[length] << (maxCodeLength - length) }
            guard kraft == 1 << maxCodeLength else { throw .invalidPrefixCode }

            // Canonical codes: shorter first, equal lengths in symbol order.
            var nextCode = [Int](repeating: 0, count: maxCodeLength + 1)
            var code = 0
            for length in 1...maxCodeLength {
                nextCode[length] = code
                code = (code &+ count[length]) << 1
            }

            store.append(contentsOf: repeatElement(0, count: rootSize))
            let rootMask = rootSize - 1
            // Second-level tables: one per root slot that long codes share, sized by
            // the longest code through it.
            var subBits = [Int](repeating: 0, count: rootSize)
            var codes = [Int](repeating: 0, count: lengths.count)
            var assign = nextCode
            for (symbol, length) in lengths.enumerated() where length != 0 {
                let len = Int(length)
                let reversed = reverseBits(assign[len], len)
                assign[len] &+= 1
                codes[symbol] = reversed
                if len > rootBits {
                    let slot = reversed & rootMask
                    subBits[slot] = max(subBits[slot], len - rootBits)
                }
            }
            var subStart = [Int](repeating: 0, count: rootSize)
            for slot in 0..<rootSize where subBits[slot] > 0 {
                subStart[slot] = store.count - start
                // Offsets stay below 4096: libwebp's bound for the largest table (15-bit
                // codes over 2328 symbols, root 8 bits) is 2704 entries.
                guard subStart[slot] < 1 << 12 else { throw .invalidPrefixCode }
                store[start + slot] = UInt16((rootBits + subBits[slot]) << 12 | subStart[slot])
                store.append(contentsOf: repeatElement(0, count: 1 << subBits[slot]))
            }
            for (symbol, length) in lengths.enumerated() where length != 0 {
                let len = Int(length)
                let reversed = codes[symbol]
                let entry = UInt16(len << 12 | symbol)
                if len <= rootBits {
                    var index = reversed
                    while index < rootSize {
                        store[start + index] = entry
                        index &+= 1 << len
                    }
                } else {
                    let slot = reversed & rootMask
                    let table = start + subStart[slot]
                    let size = 1 << subBits[slot]
                    var index = reversed >> rootBits
                    while index < size {
                        store[table + index] = entry
                        index &+= 1 << (len - rootBits)
                    }
                }
            }
            return start
        }

        /// `code`'s low `length` bits in reverse order: canonical codes are defined
        /// most-significant bit first, the stream is read least-significant first.
        @inline(__always)
        static func reverseBits(_ code: Int, _ length: Int) -> Int {
            var result = 0
            var value = code
            for _ in 0..<length {
                result = result << 1 | (value & 1)
                value >>= 1
            }
            return result
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
