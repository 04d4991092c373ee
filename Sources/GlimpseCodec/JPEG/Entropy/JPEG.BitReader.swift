extension JPEG {
    /// Reads entropy-coded bits (T.81 §F.2.2.5) from the buffered input with a
    /// 64-bit buffer, most significant bit first.
    ///
    /// It removes stuffed zero bytes after `0xFF` and stops at a marker. When
    /// the bytes run out it supplies zeros, as libjpeg does, and records why:
    /// ``hitEnd`` (more input may still come: the caller rolls back to its last
    /// checkpoint and waits) or ``paddedAtEOF`` (the input has ended: the image
    /// is truncated). The state is a plain value, so a checkpoint is a copy.
    struct BitReader: Sendable {
        /// Next byte to read in the input.
        var position: Int
        /// Valid bits, left-aligned; the bits below them are zero.
        var buffer: UInt64 = 0
        var count: Int = 0
        /// A marker was reached; zeros are supplied from here on.
        var atMarker = false
        /// Zeros were supplied because the available input ran out before the end of the file.
        var hitEnd = false
        /// Zeros were supplied because the file ended.
        var paddedAtEOF = false

        init(position: Int) { self.position = position }

        /// Tops the buffer up to at least 57 bits.
        @inline(__always)
        mutating func refill(_ bytes: UnsafeBufferPointer<UInt8>, final: Bool) {
            // Fast path: eight bytes with no 0xFF among them.
            let end = bytes.count
            if !atMarker, position &+ 8 <= end, count <= 56 {
                let raw = UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped + position)
                // In bounds: position + 8 <= count was just checked.
                let word = UInt64(bigEndian: raw.loadUnaligned(as: UInt64.self))
                // A byte is 0xFF iff all its bits are set: test every byte at once.
                let notWord = ~word
                let hasFF = (notWord &- 0x0101_0101_0101_0101) & ~notWord & 0x8080_8080_8080_8080
                if hasFF == 0 {
                    let take = (64 &- count) >> 3
                    buffer |= (word &>> UInt64(64 &- take &* 8)) &<< UInt64(64 &- count &- take &* 8)
                    count &+= take &* 8
                    position &+= take
                    return
                }
            }
            // By value, not `inout`: a call that took the reader's address would pin the
            // caller's copy in memory for the whole decode loop (a load and store per symbol).
            self = Self.refilledSlow(self, bytes, final: final)
        }

        @inline(never)
        static func refilledSlow(_ reader: BitReader, _ bytes: UnsafeBufferPointer<UInt8>, final: Bool) -> BitReader {
            var reader = reader
            reader.refillSlow(bytes, final: final)
            return reader
        }

        mutating func refillSlow(_ bytes: UnsafeBufferPointer<UInt8>, final: Bool) {
            let end = bytes.count
            while count <= 56 {
                if atMarker {
                    count &+= 8
                    continue
                }
                guard position < end else {
                    if final { paddedAtEOF = true } else { hitEnd = true }
                    count &+= 8
                    continue
                }
                var byte = bytes[position]
                if byte == 0xFF {
                    // 0xFF may be followed by fill 0xFFs, then 0x00 (a stuffed data byte)
                    // or a marker code.
                    var next = position &+ 1
                    while next < end && bytes[next] == 0xFF { next &+= 1 }
                    guard next < end else {
                        if final { paddedAtEOF = true } else { hitEnd = true }
                        count &+= 8
                        continue
                    }
                    if bytes[next] == 0 {
                        byte = 0xFF
                        position = next &+ 1
                    } else {
                        atMarker = true
                        count &+= 8
                        continue
                    }
                } else {
                    position &+= 1
                }
                buffer |= UInt64(byte) << UInt64(56 &- count)
                count &+= 8
            }
        }

        @inline(__always)
        mutating func consume(_ n: Int) {
            buffer &<<= UInt64(n)
            count &-= n
        }

        /// Reads one bit (a progressive correction or sign bit).
        @inline(__always)
        mutating func bit(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
            if count < 1 { refill(bytes, final: true) }
            let value = Int(truncatingIfNeeded: buffer &>> 63)
            consume(1)
            return value
        }

        /// Finishes decoding a Huffman symbol whose code is longer than the
        /// lookahead (canonical decoding, T.81 F.2.2.3); -1 for a code not in
        /// the table. Needs at least 16 bits in the buffer.
        mutating func decodeSlow(_ table: UnsafePointer<Int32>) -> Int {
            for length in 10...16 {
                let code = Int(truncatingIfNeeded: buffer >> UInt64(64 - length))
                if code <= Int(table[HuffmanTables.maxcodeOffset + length]) {
                    consume(length)
                    let index = code + Int(table[HuffmanTables.valoffsetOffset + length])
                    guard index >= 0, index < 256 else { return -1 }
                    return Int(table[HuffmanTables.valuesOffset + index])
                }
            }
            consume(16)
            return -1
        }

        /// Drops the buffered bits and moves past the next marker if it is a
        /// restart marker (T.81 §F.1.2.3, §B.2.1). Returns `false` when the input
        /// runs out before a marker (more may come).
        mutating func restart(_ bytes: UnsafeBufferPointer<UInt8>, final: Bool) -> Bool {
            buffer = 0
            count = 0
            atMarker = false
            var p = position
            let end = bytes.count
            // Skip whatever precedes the marker, as libjpeg's next_marker does.
            while true {
                while p < end && bytes[p] != 0xFF { p += 1 }
                var q = p
                while q < end && bytes[q] == 0xFF { q += 1 }
                guard q < end else {
                    if final {
                        position = end
                        paddedAtEOF = true
                        atMarker = true
                        return true
                    }
                    hitEnd = true
                    return false
                }
                if bytes[q] == 0 { p = q + 1; continue }
                if Marker.isRestart(bytes[q]) {
                    position = q + 1
                } else {
                    // Another marker: leave it for the marker parser; the rest of the scan reads zeros.
                    position = p
                    atMarker = true
                }
                return true
            }
        }
    }
}
