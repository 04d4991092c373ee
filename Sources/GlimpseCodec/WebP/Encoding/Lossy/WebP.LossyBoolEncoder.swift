/// The boolean entropy encoder of RFC 6386 §7.3, the exact inverse of
/// ``WebP/LossyBoolDecoder``: `bottom` holds the low end of the interval with
/// 24 bits of headroom, a byte leaves when eight bits have shifted out, and a
/// carry out of `bottom` is added back into the bytes already written.
extension WebP {
    struct LossyBoolEncoder {
        private(set) var bytes: [UInt8] = []
        /// Low end of the interval; bits above the top 8 are pending output.
        private var bottom: UInt32 = 0
        /// Interval width, 128…255 between calls.
        private var range: UInt32 = 255
        /// Shifts left before the next byte is complete.
        private var bitCount = 24

        init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

        /// Writes `bit` whose probability of being 0 is `probability`/256 (RFC 6386 §7.3 `write_bool`).
        @inline(__always)
        mutating func put(_ bit: Bool, _ probability: Int) {
            let split = 1 &+ (((range &- 1) &* UInt32(truncatingIfNeeded: probability)) &>> 8)
            if bit {
                bottom &+= split
                range &-= split
            } else {
                range = split
            }
            while range < 128 {
                range &<<= 1
                if bottom & (1 << 31) != 0 { propagateCarry() }
                bottom &<<= 1
                bitCount &-= 1
                if bitCount == 0 {
                    bytes.append(UInt8(truncatingIfNeeded: bottom &>> 24))
                    bottom &= 0xff_ffff
                    bitCount = 8
                }
            }
        }

        /// Adds one to the bytes written so far (a carry out of `bottom`).
        private mutating func propagateCarry() {
            var index = bytes.count &- 1
            while index >= 0, bytes[index] == 255 {
                bytes[index] = 0
                index &-= 1
            }
            if index >= 0 { bytes[index] &+= 1 }
        }

        /// One bit at probability one half.
        mutating func putFlag(_ bit: Bool) { put(bit, 128) }

        /// An unsigned `count`-bit literal, most significant bit first (`L(n)`).
        mutating func putLiteral(_ value: Int, _ count: Int) {
            var shift = count
            while shift > 0 {
                shift -= 1
                put((value >> shift) & 1 == 1, 128)
            }
        }

        /// A magnitude of `count` bits and a sign bit (RFC 6386 §9.3, §9.6).
        mutating func putSignedLiteral(_ value: Int, _ count: Int) {
            putLiteral(value < 0 ? -value : value, count)
            putFlag(value < 0)
        }

        /// Writes out the interval's remaining bits (RFC 6386 §7.3 `flush_bool_encoder`) and returns every byte.
        mutating func finish() -> [UInt8] {
            var c = bitCount
            var v = bottom
            if v & (1 << (32 &- UInt32(c))) != 0 { propagateCarry() }
            v &<<= UInt32(c & 7)
            c >>= 3
            while c > 0 {
                v &<<= 8
                c -= 1
            }
            for _ in 0..<4 {
                bytes.append(UInt8(truncatingIfNeeded: v &>> 24))
                v &<<= 8
            }
            return bytes
        }

        /// Bytes written so far (the finished size is at most four more).
        var count: Int { bytes.count }
    }
}
