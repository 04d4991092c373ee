extension WebP {
    /// Writes a VP8L bitstream: values least significant bit first, packed into
    /// bytes from their lowest bit up (RFC 9649 §3.1, the mirror of
    /// ``WebP/LosslessBitReader``).
    struct LosslessBitWriter {
        private(set) var bytes: [UInt8] = []
        private var accumulator: UInt64 = 0
        private var count = 0

        init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

        /// Appends the low `bits` (0…32) bits of `value`.
        @inline(__always)
        mutating func write(_ value: UInt32, _ bits: Int) {
            accumulator |= UInt64(value & UInt32(truncatingIfNeeded: (1 << UInt64(bits)) &- 1)) << UInt64(count)
            count &+= bits
            while count >= 8 {
                bytes.append(UInt8(truncatingIfNeeded: accumulator))
                accumulator >>= 8
                count &-= 8
            }
        }

        @inline(__always)
        mutating func write(_ value: Int, _ bits: Int) { write(UInt32(truncatingIfNeeded: value), bits) }

        /// Writes a prefix-code symbol whose bits are already reversed (``WebP/EncoderPrefixCode``).
        @inline(__always)
        mutating func write(code: UInt16, length: UInt8) { write(UInt32(code), Int(length)) }

        /// Bits written so far.
        var bitCount: Int { bytes.count &* 8 &+ count }

        /// The stream, its last byte padded with zeros.
        mutating func finish() -> [UInt8] {
            if count > 0 {
                bytes.append(UInt8(truncatingIfNeeded: accumulator))
                accumulator = 0
                count = 0
            }
            return bytes
        }
    }
}
