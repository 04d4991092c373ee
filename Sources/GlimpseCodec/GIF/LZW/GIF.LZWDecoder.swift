extension GIF {
    /// The variable-length-code LZW decompressor of GIF image data
    /// (GIF89a §22 and Appendix F), resumable at any byte.
    ///
    /// Codes are read least-significant bit first. The table keeps, for every
    /// code, its string's length and where that string already sits in the
    /// output. A new entry is "previous string + first byte of the current one",
    /// which is exactly the bytes starting where the previous string was written,
    /// so every string is emitted whole with one copy from earlier output instead
    /// of walking a prefix chain one pixel at a time. The output buffer holds the
    /// whole frame, so the earlier output is always there to copy from.
    struct LZWDecoder: Sendable {
        /// Largest number of codes (12-bit codes).
        static let tableSize = 4096

        /// What survives between calls.
        private struct State: Sendable {
            var codeSize: Int
            var nextCode: Int
            /// The previous code, or -1 right after a clear code.
            var previous = -1
            /// Where the previous code's string starts in the output, and its length.
            var previousStart = 0
            var previousLength = 0
            var bitBuffer: UInt64 = 0
            var bitCount = 0
            var sawEndCode = false
        }

        let clearCode: Int
        private var state: State
        /// Per code above the end code: where its string starts in the output
        /// (high 48 bits) and its length (low 16 bits), so that one load finds both.
        private var table: [UInt64]
        /// The end code was read; later bytes are ignored.
        var sawEndCode: Bool { state.sawEndCode }

        /// A decoder for data whose minimum code size byte is `minimumCodeSize`.
        /// Accepts 1…8: 1 works like 2 bits of literals would (clear code 2, end code 3),
        /// as giflib decodes it. 0 and values above 8 are malformed.
        init(minimumCodeSize: Int) throws(DecodingError) {
            guard (1...8).contains(minimumCodeSize) else {
                throw .malformed("LZW minimum code size \(minimumCodeSize)")
            }
            clearCode = 1 << minimumCodeSize
            state = State(codeSize: minimumCodeSize + 1, nextCode: clearCode + 2)
            table = [UInt64](repeating: 0, count: Self.tableSize)
        }

        /// Decodes `input` into `output` starting at `position`, which it advances.
        /// Stops writing when `output` is full (later data is ignored, as is data
        /// after the end code).
        mutating func decode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutablePointer<UInt8>,
                             count: Int, position: inout Int) throws(DecodingError) {
            guard !state.sawEndCode, position < count, !input.isEmpty else { return }
            var state = self.state
            var pos = position
            let clear = clearCode
            let badCode: Int = table.withUnsafeMutableBufferPointer { table in
                guard let table = table.baseAddress else { return -1 }
                return Self.run(&state, clear: clear, input, output, count: count, position: &pos, table: table)
            }
            self.state = state
            position = pos
            if badCode >= 0 { throw .malformed("LZW code \(badCode) beyond the table (next \(state.nextCode))") }
        }

        /// The decoding loop, on plain locals so that they live in registers.
        /// Returns a code that is not in the table, or -1.
        ///
        /// `table` points to 4096 entries, and every index used is a code below
        /// 4096; `output` has `count` bytes and every write is below `count`.
        private static func run(_ state: inout State, clear: Int, _ input: UnsafeRawBufferPointer,
                                _ output: UnsafeMutablePointer<UInt8>, count: Int, position: inout Int,
                                table: UnsafeMutablePointer<UInt64>) -> Int {
            var bits = state.bitBuffer, available = state.bitCount, size = state.codeSize
            var mask = UInt64(1) << UInt64(size) &- 1
            var next = state.nextCode, prev = state.previous, prevStart = state.previousStart
            var prevLength = state.previousLength
            var pos = position
            let end = clear &+ 1
            var index = 0
            let inputCount = input.count
            var badCode = -1
            defer {
                state.bitBuffer = bits; state.bitCount = available; state.codeSize = size
                state.nextCode = next; state.previous = prev; state.previousStart = prevStart
                state.previousLength = prevLength
                position = pos
            }
            while true {
                // Refill: 7 bytes at once when there is room, else byte by byte.
                if available < size {
                    if index &+ 8 <= inputCount {
                        let word = UInt64(littleEndian: input.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                        let take = (63 &- available) >> 3
                        bits |= (word & ((UInt64(1) << UInt64(take &* 8)) &- 1)) << UInt64(available)
                        available &+= take &* 8
                        index &+= take
                    } else {
                        while available < size {
                            guard index < inputCount else { return badCode }
                            bits |= UInt64(input[index]) << UInt64(available)
                            available &+= 8
                            index &+= 1
                        }
                    }
                }
                let code = Int(truncatingIfNeeded: bits & mask)
                bits >>= UInt64(size)
                available &-= size

                if code < clear {
                    output[pos] = UInt8(truncatingIfNeeded: code)
                    if prev >= 0, next < tableSize {
                        table[next] = UInt64(truncatingIfNeeded: prevStart) << 16 | UInt64(truncatingIfNeeded: prevLength &+ 1)
                        next &+= 1
                    }
                    prevStart = pos
                    prevLength = 1
                    pos &+= 1
                    prev = code
                } else if code == clear {
                    size = clear.trailingZeroBitCount &+ 1
                    mask = UInt64(1) << UInt64(size) &- 1
                    next = clear &+ 2
                    prev = -1
                    continue
                } else if code == end {
                    state.sawEndCode = true
                    return badCode
                } else {
                    guard prev >= 0, code <= next else {
                        badCode = code
                        return badCode
                    }
                    let length: Int
                    let room = count &- pos
                    let source: Int
                    if code < next {
                        let entry = table[code]
                        length = Int(truncatingIfNeeded: entry & 0xFFFF)
                        source = Int(truncatingIfNeeded: entry >> 16)
                    } else {
                        // The KwKwK case: the previous string plus its own first byte.
                        length = prevLength &+ 1
                        source = prevStart
                    }
                    // The source string lies before `pos` (for KwKwK, all but its last
                    // byte, which is the source's first byte), and this copy writes only
                    // at `pos` and after, so the bytes it reads are never its own output.
                    let n = min(length, room)
                    if pos &+ n &+ 8 <= count {
                        // Whole words; the bytes past the string are rewritten by later codes.
                        let to = UnsafeMutableRawPointer(output + pos)
                        let from = UnsafeRawPointer(output + source)
                        var i = 0
                        repeat {
                            to.storeBytes(of: from.loadUnaligned(fromByteOffset: i, as: UInt64.self),
                                          toByteOffset: i, as: UInt64.self)
                            i &+= 8
                        } while i < n
                    } else {
                        var i = 0
                        while i < n { output[pos &+ i] = output[source &+ i]; i &+= 1 }
                    }
                    if code == next, length <= room { output[pos &+ length &- 1] = output[prevStart] }
                    if next < tableSize {
                        table[next] = UInt64(truncatingIfNeeded: prevStart) << 16 | UInt64(truncatingIfNeeded: prevLength &+ 1)
                        next &+= 1
                    }
                    prevStart = pos
                    prevLength = length
                    pos &+= n
                    prev = code
                }
                if next == 1 << size, size < 12 {
                    size &+= 1
                    mask = UInt64(1) << UInt64(size) &- 1
                }
                if pos >= count { return badCode }
            }
        }
    }
}
