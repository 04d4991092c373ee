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

        let clearCode: Int
        private let endCode: Int
        private var codeSize: Int
        private var nextCode: Int
        /// The previous code, or -1 right after a clear code.
        private var previous: Int = -1
        /// Where the previous code's string starts in the output.
        private var previousStart: Int = 0
        private var bitBuffer: UInt64 = 0
        private var bitCount: Int = 0
        /// Where each code's string starts in the output (codes above the end code).
        private var starts: [Int32]
        /// Each code's string length.
        private var lengths: [UInt16]
        /// The end code was read; later bytes are ignored.
        private(set) var sawEndCode = false

        /// A decoder for data whose minimum code size byte is `minimumCodeSize`.
        /// Accepts 1…8: 1 works like 2 bits of literals would (clear code 2, end code 3),
        /// as giflib and Pillow decode it. 0 and values above 8 are malformed.
        init(minimumCodeSize: Int) throws(DecodingError) {
            guard (1...8).contains(minimumCodeSize) else {
                throw .malformed("LZW minimum code size \(minimumCodeSize)")
            }
            clearCode = 1 << minimumCodeSize
            endCode = clearCode + 1
            codeSize = minimumCodeSize + 1
            nextCode = clearCode + 2
            starts = [Int32](repeating: 0, count: Self.tableSize)
            lengths = [UInt16](repeating: 1, count: Self.tableSize)
        }

        /// Decodes `input` into `output` starting at `position`, which it advances.
        /// Stops writing when `output` is full (later data is ignored, as is data
        /// after the end code).
        mutating func decode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutablePointer<UInt8>,
                             count: Int, position: inout Int) throws(DecodingError) {
            guard !sawEndCode, position < count, !input.isEmpty else { return }
            // Local copies keep the hot state in registers.
            var bits = bitBuffer, available = bitCount, size = codeSize
            var mask = UInt64(1) << UInt64(size) &- 1
            var next = nextCode, prev = previous, prevStart = previousStart
            var pos = position
            let clear = clearCode, end = endCode
            defer {
                bitBuffer = bits; bitCount = available; codeSize = size
                nextCode = next; previous = prev; previousStart = prevStart; position = pos
            }
            var index = 0
            let inputCount = input.count
            // `starts` and `lengths` have 4096 entries and every index below is a code < 4096.
            try starts.withUnsafeMutableBufferPointer { (starts) throws(DecodingError) in
                try lengths.withUnsafeMutableBufferPointer { (lengths) throws(DecodingError) in
                    while true {
                        // Refill: whole 8-byte words when there is room, else byte by byte.
                        if available < size {
                            if index &+ 8 <= inputCount {
                                let word = UInt64(littleEndian: input.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                                let take = (63 &- available) >> 3
                                bits |= (word & ((UInt64(1) << UInt64(take &* 8)) &- 1)) << UInt64(available)
                                available &+= take &* 8
                                index &+= take
                            } else {
                                while available < size {
                                    guard index < inputCount else { return }
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
                            if prev >= 0, next < Self.tableSize {
                                starts[next] = Int32(truncatingIfNeeded: prevStart)
                                lengths[next] = lengths[prev] &+ 1
                                next &+= 1
                            }
                            prevStart = pos
                            pos &+= 1
                            prev = code
                        } else if code == clear {
                            size = clear.trailingZeroBitCount &+ 1
                            mask = UInt64(1) << UInt64(size) &- 1
                            next = clear &+ 2
                            prev = -1
                            continue
                        } else if code == end {
                            sawEndCode = true
                            return
                        } else {
                            guard prev >= 0, code <= next else {
                                throw .malformed("LZW code \(code) beyond the table (next \(next))")
                            }
                            let length: Int
                            let room = count &- pos
                            if code < next {
                                length = Int(lengths[code])
                                let source = Int(starts[code])
                                // `source + length <= pos`: the string was written before, and
                                // this copy only writes at `pos` and after, so its source stays intact.
                                let n = min(length, room)
                                if pos &+ n &+ 8 <= count {
                                    // Whole words; the bytes past the string are rewritten by later codes.
                                    let to = UnsafeMutableRawPointer(output + pos)
                                    let from = UnsafeRawPointer(output + source)
                                    var i = 0
                                    repeat {
                                        let word = from.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                                        to.storeBytes(of: word, toByteOffset: i, as: UInt64.self)
                                        i &+= 8
                                    } while i < n
                                } else {
                                    var i = 0
                                    while i < n { output[pos &+ i] = output[source &+ i]; i &+= 1 }
                                }
                            } else {
                                // The KwKwK case: previous string plus its own first byte.
                                let prevLength = Int(lengths[prev])
                                length = prevLength &+ 1
                                let n = min(prevLength, room)
                                var i = 0
                                while i < n { output[pos &+ i] = output[prevStart &+ i]; i &+= 1 }
                                if length <= room { output[pos &+ prevLength] = output[prevStart] }
                            }
                            if next < Self.tableSize {
                                starts[next] = Int32(truncatingIfNeeded: prevStart)
                                lengths[next] = lengths[prev] &+ 1
                                next &+= 1
                            }
                            prevStart = pos
                            pos &+= min(length, room)
                            prev = code
                        }
                        if next == 1 << size, size < 12 {
                            size &+= 1
                            mask = UInt64(1) << UInt64(size) &- 1
                        }
                        if pos >= count { return }
                    }
                }
            }
        }
    }
}
