extension JPEG {
    /// Entropy-coded bytes (ITU T.81 §F.1.2.3): bits packed most significant
    /// first, a zero byte stuffed after every 0xFF (§B.1.1.5).
    struct BitWriter: Sendable {
        var bytes: [UInt8]
        /// Pending bits, right-aligned; `count` of them.
        private var buffer: UInt64 = 0
        private var count = 0

        init(capacity: Int = 0) {
            bytes = []
            bytes.reserveCapacity(capacity)
        }

        /// Appends the low `length` bits of `bits` (length ≤ 32).
        @inline(__always)
        mutating func write(_ bits: UInt32, _ length: Int) {
            buffer = (buffer &<< UInt64(length)) | UInt64(bits & ((1 &<< UInt32(length)) &- 1))
            count &+= length
            if count >= 32 { drain() }
        }

        @inline(__always)
        private mutating func drain() {
            while count >= 8 {
                count &-= 8
                let byte = UInt8(truncatingIfNeeded: buffer &>> UInt64(count))
                bytes.append(byte)
                if byte == 0xFF { bytes.append(0) }
            }
        }

        /// Pads the last byte with one bits (libjpeg's `flush_bits`) and empties the buffer.
        mutating func flush() {
            write(0x7F, 7)
            drain()
            buffer = 0
            count = 0
        }

        /// Appends a marker or segment bytes directly (only after ``flush()``).
        mutating func appendRaw(_ raw: [UInt8]) {
            bytes.append(contentsOf: raw)
        }

        /// Whether bits are pending (testing aid).
        var isAligned: Bool { count == 0 }
    }
}
