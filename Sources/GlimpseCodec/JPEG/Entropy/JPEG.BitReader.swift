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
        /// Zero bits appended after the last byte of data (at a marker or the end
        /// of the input); `count < padded` means some were consumed, which is
        /// libjpeg's "insufficient data" (JWRN_HIT_MARKER).
        var padded = 0
        /// The four flags below in one byte: the reader goes by value to and from
        /// `refilledSlow`, and with a `Bool` each it no longer travelled in registers
        /// (callgrind: +2 % instructions on a baseline decode).
        private var flags: UInt8 = 0

        /// A marker was reached; zeros are supplied from here on.
        var atMarker: Bool {
            get { flags & 1 != 0 }
            set { flags = newValue ? flags | 1 : flags & ~1 }
        }
        /// Zeros were supplied because the available input ran out before the end of the file.
        var hitEnd: Bool {
            get { flags & 2 != 0 }
            set { flags = newValue ? flags | 2 : flags & ~2 }
        }
        /// Zeros were supplied because the file ended.
        var paddedAtEOF: Bool {
            get { flags & 4 != 0 }
            set { flags = newValue ? flags | 4 : flags & ~4 }
        }
        /// A code in no Huffman table was read (and decoded as symbol 0, as libjpeg does).
        var badCode: Bool {
            get { flags & 8 != 0 }
            set { flags = newValue ? flags | 8 : flags & ~8 }
        }

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
                    padded &+= 8
                    continue
                }
                guard position < end else {
                    if final { paddedAtEOF = true } else { hitEnd = true }
                    count &+= 8
                    padded &+= 8
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
                        padded &+= 8
                        continue
                    }
                    if bytes[next] == 0 {
                        byte = 0xFF
                        position = next &+ 1
                    } else {
                        atMarker = true
                        count &+= 8
                        padded &+= 8
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
        /// lookahead (canonical decoding, T.81 F.2.2.3). Needs at least 17 bits in
        /// the buffer. A code in no table consumes 17 bits and reads as symbol 0,
        /// as in libjpeg's `jpeg_huff_decode` (which reaches its sentinel length
        /// 17 and fakes a zero); ``badCode`` records it.
        mutating func decodeSlow(_ table: UnsafePointer<Int32>) -> Int {
            for length in 10...16 {
                let code = Int(truncatingIfNeeded: buffer >> UInt64(64 - length))
                if code <= Int(table[HuffmanTables.maxcodeOffset + length]) {
                    consume(length)
                    let index = code + Int(table[HuffmanTables.valoffsetOffset + length])
                    guard index >= 0, index < 256 else {
                        badCode = true
                        return 0
                    }
                    return Int(table[HuffmanTables.valuesOffset + index])
                }
            }
            consume(17)
            badCode = true
            return 0
        }

        /// What ``restart(_:final:expected:)`` met on its way to the restart marker.
        struct RestartOutcome {
            /// Bytes skipped before the marker(s), as libjpeg's `next_marker` counts them.
            var skipped = 0
            /// The marker found instead of the expected RSTn (libjpeg resynchronised).
            var resync: UInt8?
        }

        /// Drops the buffered bits and reads the restart marker `RST(expected)`
        /// as libjpeg's `read_restart_marker` does (T.81 §F.1.2.3, §B.2.1): the
        /// next marker is found as `next_marker` finds it (skipping other bytes);
        /// if it is not the expected one, `jpeg_resync_to_restart` decides: an
        /// invalid marker (below SOF0) or one of the two previous RSTs is skipped
        /// and the search goes on; one of the next two RSTs or any other valid
        /// marker is left in place (``atMarker``: the interval reads as zeros);
        /// any other RST is taken as this one. The end of a complete input is a
        /// marker left in place (libjpeg's source supplies a fake EOI there).
        /// Returns `nil` when the input runs out first and more may come.
        mutating func restart(_ bytes: UnsafeBufferPointer<UInt8>, final: Bool, expected: Int) -> RestartOutcome? {
            buffer = 0
            count = 0
            padded = 0
            atMarker = false
            var outcome = RestartOutcome()
            guard var marker = Self.nextMarker(bytes, from: position) else { return endOfInput(bytes, final: final, outcome) }
            outcome.skipped += marker.skipped
            if marker.code == Marker.rst0 &+ UInt8(expected & 7) {
                position = marker.codeIndex + 1
                return outcome
            }
            outcome.resync = marker.code
            while true {
                let code = Int(marker.code)
                let action: Int
                if code < Int(Marker.sof0) {
                    action = 2
                } else if !Marker.isRestart(marker.code) {
                    action = 3
                } else {
                    let n = code - Int(Marker.rst0)
                    if n == (expected + 1) & 7 || n == (expected + 2) & 7 {
                        action = 3
                    } else if n == (expected - 1) & 7 || n == (expected - 2) & 7 {
                        action = 2
                    } else {
                        action = 1
                    }
                }
                switch action {
                case 1:
                    position = marker.codeIndex + 1
                    return outcome
                case 2:
                    guard let next = Self.nextMarker(bytes, from: marker.codeIndex + 1) else {
                        return endOfInput(bytes, final: final, outcome)
                    }
                    outcome.skipped += next.skipped
                    marker = next
                default:
                    position = marker.fill
                    atMarker = true
                    return outcome
                }
            }
        }

        /// The input ended while looking for a marker: wait for more, or treat the
        /// end of a complete input as a marker left in place.
        private mutating func endOfInput(_ bytes: UnsafeBufferPointer<UInt8>, final: Bool,
                                         _ outcome: RestartOutcome) -> RestartOutcome? {
            guard final else {
                hitEnd = true
                return nil
            }
            position = bytes.count
            paddedAtEOF = true
            atMarker = true
            var outcome = outcome
            outcome.resync = Marker.eoi
            return outcome
        }

        /// The next marker from `start` as libjpeg's `next_marker` finds it: bytes
        /// before `0xFF` and `FF 00` pairs are skipped (and counted), fill `0xFF`s
        /// are not. `fill` is the first `0xFF` before the code; `nil` when the
        /// input ends first.
        static func nextMarker(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int)
            -> (code: UInt8, fill: Int, codeIndex: Int, skipped: Int)? {
            var p = start
            var skipped = 0
            let end = bytes.count
            while true {
                while p < end && bytes[p] != 0xFF { p += 1; skipped += 1 }
                var q = p
                while q < end && bytes[q] == 0xFF { q += 1 }
                guard q < end else { return nil }
                if bytes[q] == 0 {
                    skipped += 2
                    p = q + 1
                    continue
                }
                return (bytes[q], p, q, skipped)
            }
        }
    }
}
