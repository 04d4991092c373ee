extension JPEG {
    /// Entropy-coded bytes (ITU T.81 §F.1.2.3): bits packed most significant
    /// first, a zero byte stuffed after every 0xFF (§B.1.1.5).
    ///
    /// Bits gather in a 64-bit word that is written eight bytes at a time
    /// when none of them is 0xFF (the common case), byte by byte with
    /// stuffing otherwise, as libjpeg-turbo's `jchuff.c` does.
    struct BitWriter: Sendable {
        /// Output so far in `storage[..<used]`; the rest is room to write into.
        private var storage: [UInt8]
        private var used = 0
        /// Pending bits, right-aligned: the low `64 − free` bits (higher ones
        /// are already written and shift out).
        private var buffer: UInt64 = 0
        private var free = 64

        init(capacity: Int = 0) {
            storage = [UInt8](repeating: 0, count: max(capacity, 64))
        }

        /// The bytes written so far (after ``flush()``, all of them).
        var bytes: ArraySlice<UInt8> { storage[..<used] }

        /// Forgets the bytes written so far, keeping the storage.
        mutating func removeAllBytes() { used = 0 }

        /// Appends the low `length` bits of `bits` (length < 32).
        @inline(__always)
        mutating func write(_ bits: UInt32, _ length: Int) {
            write(exactly: UInt64(bits & ((1 &<< UInt32(truncatingIfNeeded: length)) &- 1)), length)
        }

        /// Appends `value`, which must be below 2^`length` (length < 64), as
        /// `length` bits: Huffman codes and masked extra bits, which need no
        /// masking again.
        @inline(__always)
        mutating func write(exactly value: UInt64, _ length: Int) {
            free &-= length
            if free < 0 {
                // The high `length + free` bits of `value` complete the word; the others stay.
                let word = (buffer &<< UInt64(truncatingIfNeeded: length &+ free)) | (value &>> UInt64(truncatingIfNeeded: 0 &- free))
                writeWord(word)
                free &+= 64
                buffer = value
            } else {
                buffer = (buffer &<< UInt64(truncatingIfNeeded: length)) | value
            }
        }

        /// The pending bits, for a caller that holds them in a local across a
        /// run of symbols (``Pending/append(_:_:flush:)``) and gives them back.
        var pending: Pending {
            get { Pending(buffer: buffer, free: free) }
            set {
                buffer = newValue.buffer
                free = newValue.free
            }
        }

        /// Writes one completed word of a caller's ``Pending`` bits. Out of
        /// line: the caller's loop then keeps the bits in registers, which a
        /// loop containing the array's uniqueness checks and growth cannot.
        @inline(never)
        mutating func put(_ word: UInt64) { writeWord(word) }

        /// Writes eight bytes, stuffing a zero after each 0xFF.
        @inline(__always)
        private mutating func writeWord(_ word: UInt64) {
            if storage.count &- used < 16 { grow() }
            // A byte is 0xFF only if its top bit is set and adding one clears it (a carry from
            // the byte below can flag others too, which only takes the slow path).
            let mayHaveFF = word & 0x8080_8080_8080_8080 & ~(word &+ 0x0101_0101_0101_0101)
            let start = used
            if mayHaveFF == 0 {
                storage.withUnsafeMutableBytes { raw in
                    // 16 bytes of room were ensured above.
                    raw.storeBytes(of: word.bigEndian, toByteOffset: start, as: UInt64.self)
                }
                used = start &+ 8
            } else {
                var at = start
                storage.withUnsafeMutableBufferPointer { out in
                    // At most 16 bytes (8, each maybe stuffed) from `start`: room was ensured above.
                    let out = out.baseAddress.unsafelyUnwrapped
                    var shift: UInt64 = 56
                    for _ in 0..<8 {
                        let byte = UInt8(truncatingIfNeeded: word &>> shift)
                        out[at] = byte
                        at &+= 1
                        if byte == 0xFF {
                            out[at] = 0
                            at &+= 1
                        }
                        shift &-= 8
                    }
                }
                used = at
            }
        }

        @inline(never)
        private mutating func grow() {
            storage.append(contentsOf: repeatElement(0, count: max(storage.count, 4096)))
        }

        /// Pads the last byte with one bits (libjpeg's `flush_bits`) and writes
        /// every pending byte.
        mutating func flush() {
            var count = 64 &- free
            let pad = (8 &- count & 7) & 7
            var value = count == 0 ? 0 : (buffer &<< UInt64(pad)) | ((1 &<< UInt64(pad)) &- 1)
            count &+= pad
            if storage.count &- used < 16 { grow() }
            while count > 0 {
                count &-= 8
                let byte = UInt8(truncatingIfNeeded: value &>> UInt64(count))
                storage[used] = byte
                used &+= 1
                if byte == 0xFF {
                    storage[used] = 0
                    used &+= 1
                }
            }
            value = 0
            buffer = value
            free = 64
        }

        /// Appends a marker or segment bytes directly (only after ``flush()``).
        mutating func appendRaw(_ raw: [UInt8]) {
            if storage.count &- used < raw.count &+ 16 { grow() }
            for byte in raw {
                storage[used] = byte
                used &+= 1
            }
        }

        /// Whether bits are pending (testing aid).
        var isAligned: Bool { free == 64 }
    }
}

extension JPEG.BitWriter {
    /// Bits not yet written, right-aligned: the low `64 − free` of `buffer`
    /// (as ``JPEG/BitWriter`` keeps them).
    struct Pending: Sendable {
        var buffer: UInt64
        var free: Int

        /// Appends `value` (below 2^`length`, length < 64); a completed word
        /// goes to `flush`, as ``JPEG/BitWriter/write(exactly:_:)`` does.
        @inline(__always)
        mutating func append(_ value: UInt64, _ length: Int, flush: (UInt64) -> Void) {
            free &-= length
            if free < 0 {
                flush((buffer &<< UInt64(truncatingIfNeeded: length &+ free)) | (value &>> UInt64(truncatingIfNeeded: 0 &- free)))
                free &+= 64
                buffer = value
            } else {
                buffer = (buffer &<< UInt64(truncatingIfNeeded: length)) | value
            }
        }
    }
}
