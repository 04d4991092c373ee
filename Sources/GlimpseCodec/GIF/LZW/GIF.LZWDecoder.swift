extension GIF {
    /// The variable-length-code LZW decompressor of GIF image data
    /// (GIF89a §22 and Appendix F), resumable at any byte.
    ///
    /// Codes are read least-significant bit first. The table keeps, for every
    /// code, its string's length and where that string already sits in memory:
    /// a literal's one byte sits in a 256-byte prefix of the output buffer that
    /// holds 0…255, and a new entry is "previous string + first byte of the
    /// current one", which is exactly the bytes starting where the previous
    /// string was written. So every code, literal or not, is emitted whole with
    /// one forward copy (8 bytes at a time when there is room), with no prefix
    /// chain to walk and no literal/non-literal branch. The output buffer holds
    /// the whole frame, so earlier output is always there to copy from.
    struct LZWDecoder: Sendable {
        /// Largest number of codes (12-bit codes).
        static let tableSize = 4096
        /// Bytes before the output that must hold 0, 1, …, 255 (see ``makeBuffer(count:)``).
        static let literalPrefix = 256
        /// Bytes after the output that a code's copy may write past its end: the longest
        /// string (one per table entry) and a word. With them every copy is whole words and
        /// the loop never asks how much room is left, only whether the output is full.
        static let tailSlack = tableSize + 8

        /// A buffer for ``decode(_:into:count:position:)``: the literal prefix, `count`
        /// bytes of output, which start at ``literalPrefix``, then ``tailSlack`` bytes that
        /// hold nothing of meaning.
        static func makeBuffer(count: Int) -> [UInt8] {
            var buffer = [UInt8](repeating: 0, count: bufferSize(count: count))
            for i in 0..<literalPrefix { buffer[i] = UInt8(truncatingIfNeeded: i) }
            return buffer
        }

        /// The size of the buffer ``makeBuffer(count:)`` makes for `count` bytes of output.
        static func bufferSize(count: Int) -> Int { literalPrefix &+ count &+ tailSlack }

        /// What survives between calls.
        private struct State: Sendable {
            var codeSize: Int
            var nextCode: Int
            /// Where the previous code's string starts in the output, and its length
            /// (0 right after a clear code: there is no previous code).
            var previousStart = 0
            var previousLength = 0
            var bitBuffer: UInt64 = 0
            var bitCount = 0
            var sawEndCode = false
        }

        private(set) var clearCode: Int
        private var state: State
        /// Per code: where its string starts, relative to the output (negative for
        /// literals, in the prefix), in the high 48 bits, and its length in the low 16
        /// bits (0 for the clear and end codes), so that one load finds both.
        private var table: [UInt64]
        /// The end code was read; later bytes are ignored.
        var sawEndCode: Bool { state.sawEndCode }

        /// A decoder for data whose minimum code size byte is `minimumCodeSize`.
        /// Accepts 1…8: 1 works like 2 bits of literals would (clear code 2, end code 3),
        /// as giflib decodes it. 0 and values above 8 are malformed.
        init(minimumCodeSize: Int) throws(ImageDecodingError) {
            clearCode = 0
            state = State(codeSize: 0, nextCode: 0)
            table = [UInt64](repeating: 0, count: Self.tableSize)
            try reset(minimumCodeSize: minimumCodeSize)
        }

        /// Starts over for the next frame's data, keeping the table's memory.
        mutating func reset(minimumCodeSize: Int) throws(ImageDecodingError) {
            guard (1...8).contains(minimumCodeSize) else {
                throw .malformed(.gif(.lzwMinimumCodeSize(minimumCodeSize)))
            }
            clearCode = 1 << minimumCodeSize
            state = State(codeSize: minimumCodeSize + 1, nextCode: clearCode + 2)
            // Entries from the end code + 1 on are written before they are read;
            // the literals and the two zero-length special codes are set here.
            for literal in 0..<clearCode {
                table[literal] = Self.entry(start: literal - Self.literalPrefix, length: 1)
            }
            // Both zero-length; the end code's start is 1, so the clear code is the one zero entry.
            table[clearCode] = 0
            table[clearCode + 1] = Self.entry(start: 1, length: 0)
        }

        @inline(__always)
        private static func entry(start: Int, length: Int) -> UInt64 {
            UInt64(bitPattern: Int64(start) << 16) | UInt64(truncatingIfNeeded: length)
        }

        /// Decodes `input` into `output` starting at `position`, which it advances.
        /// Stops writing when `output` is full (later data is ignored, as is data
        /// after the end code).
        ///
        /// `output` must point ``literalPrefix`` bytes into a buffer made by
        /// ``makeBuffer(count:)`` with at least `count` bytes of output (and the
        /// ``tailSlack`` after them).
        mutating func decode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutablePointer<UInt8>,
                             count: Int, position: inout Int) throws(ImageDecodingError) {
            guard !state.sawEndCode, position < count, !input.isEmpty else { return }
            var state = self.state
            var pos = position
            let badCode: Int = table.withUnsafeMutableBufferPointer { table in
                guard let table = table.baseAddress else { return -1 }
                return Self.run(&state, input, output, count: count, position: &pos, table: table)
            }
            self.state = state
            position = pos
            if badCode >= 0 { throw .malformed(.gif(.lzwCode(badCode, next: state.nextCode))) }
        }

        /// The decoding loop, on plain locals so that they live in registers.
        /// Returns a code that is not in the table, or -1.
        ///
        /// `table` points to 4096 entries, and every index used is a code below
        /// 4096; `output` has `count` bytes after the literal prefix and ``tailSlack``
        /// after them, and every write is below `count + tailSlack` (a string is at most
        /// 4096 bytes, written whole from a position below `count`).
        private static func run(_ state: inout State, _ input: UnsafeRawBufferPointer,
                                _ output: UnsafeMutablePointer<UInt8>, count: Int, position: inout Int,
                                table: UnsafeMutablePointer<UInt64>) -> Int {
            var bits = state.bitBuffer, available = state.bitCount, size = state.codeSize
            var mask = UInt64(1) << UInt64(size) &- 1
            // The `next` at which codes grow a bit; -1, which `next` never is, once they are 12 bits.
            var growAt = size < 12 ? 1 << size : -1
            var next = state.nextCode, prevStart = state.previousStart
            var prevLength = state.previousLength
            var pos = position
            var index = 0
            // The last index at which a whole word can be read.
            let wordLimit = input.count &- 8
            defer {
                state.bitBuffer = bits; state.bitCount = available; state.codeSize = size
                state.nextCode = next; state.previousStart = prevStart; state.previousLength = prevLength
                position = min(pos, count)
            }
            while true {
                // Refill: 7 bytes at once when there is room, else byte by byte.
                if available < size {
                    if index <= wordLimit {
                        let word = UInt64(littleEndian: input.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                        let take = (63 &- available) >> 3
                        bits |= (word & ((UInt64(1) << UInt64(take &* 8)) &- 1)) << UInt64(available)
                        available &+= take &* 8
                        index &+= take
                    } else {
                        while available < size {
                            guard index < input.count else { return -1 }
                            bits |= UInt64(input[index]) << UInt64(available)
                            available &+= 8
                            index &+= 1
                        }
                    }
                }
                let code = Int(truncatingIfNeeded: bits & mask)
                bits >>= UInt64(size)
                available &-= size

                let length: Int
                let source: Int
                if code < next {
                    let entry = table[code]
                    length = Int(truncatingIfNeeded: entry & 0xFFFF)
                    if length == 0 {
                        if entry == 0 {  // the clear code
                            size = code.trailingZeroBitCount &+ 1
                            mask = UInt64(1) << UInt64(size) &- 1
                            growAt = 1 << size
                            next = code &+ 2
                            prevLength = 0
                            continue
                        }
                        state.sawEndCode = true
                        return -1
                    }
                    // Right after a clear code `next` is the end code + 1, so this is a literal.
                    source = Int(truncatingIfNeeded: Int64(bitPattern: entry) >> 16)
                } else if code == next, prevLength > 0 {
                    // The KwKwK case: the previous string plus its own first byte.
                    length = prevLength &+ 1
                    source = prevStart
                } else {
                    return code
                }
                // The source string lies before `pos` (in the prefix or earlier output;
                // for KwKwK all but its last byte, which is the source's first byte), and
                // this copy writes only at `pos` and after, so it never reads its own output.
                // Whole words, into the tail slack at the end; the bytes past the string are
                // rewritten by later codes.
                let to = UnsafeMutableRawPointer(output + pos)
                let from = UnsafeRawPointer(output + source)
                var i = 0
                repeat {
                    to.storeBytes(of: from.loadUnaligned(fromByteOffset: i, as: UInt64.self),
                                  toByteOffset: i, as: UInt64.self)
                    i &+= 8
                } while i < length
                if code == next { output[pos &+ length &- 1] = output[prevStart] }
                if prevLength > 0, next < tableSize {
                    table[next] = entry(start: prevStart, length: prevLength &+ 1)
                    next &+= 1
                }
                // Checked after every code, not only after an entry is added: with a minimum
                // code size of 1, `next` starts at the growth point right after a clear code.
                if next == growAt {
                    size &+= 1
                    mask = UInt64(1) << UInt64(size) &- 1
                    growAt = size < 12 ? 1 << size : -1
                }
                prevStart = pos
                prevLength = length
                pos &+= length
                // A string cut at the end of the output leaves `pos` past `count`; the
                // caller sees `count` (the `defer`).
                if pos >= count { return -1 }
            }
        }
    }
}
