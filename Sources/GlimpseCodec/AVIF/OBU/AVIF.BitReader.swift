extension AVIF {
    /// Reads the AV1 headers' fixed-width fields most significant bit first (`f(n)`,
    /// AV1 §4.10.2) and `uvlc()` (§4.10.3) from one OBU's payload; reading past its end
    /// throws ``AVIF/AV1Defect/headerPastEnd(obuType:)``.
    struct BitReader {
        private let bytes: [UInt8]
        private var bit: Int
        private let endBit: Int
        private let obuType: Int

        init(_ bytes: [UInt8], _ range: Range<Int>, obuType: Int) {
            self.bytes = bytes
            bit = range.lowerBound * 8
            endBit = range.upperBound * 8
            self.obuType = obuType
        }

        /// `get_position()` (§4.10.1): the next bit's index from the start of the bytes.
        var position: Int { bit }

        /// `byte_alignment()` (§5.3.5): skips to the next byte boundary.
        mutating func alignToByte() { bit = (bit + 7) & ~7 }

        /// `su(n)` (§4.10.6): an n-bit two's complement value.
        mutating func signed(_ count: Int) throws(ImageDecodingError) -> Int {
            let value = try bits(count)
            let signMask = 1 << (count - 1)
            return value & signMask != 0 ? value - 2 * signMask : value
        }

        /// `ns(n)` (§4.10.7): a value below `n` in ⌊log2 n⌋ or one more bits.
        mutating func nonSymmetric(_ n: Int) throws(ImageDecodingError) -> Int {
            guard n > 1 else { return 0 }
            var w = 0
            while 1 << (w + 1) <= n { w += 1 }
            w += 1  // FloorLog2(n) + 1
            let m = (1 << w) - n
            let v = try bits(w - 1)
            if v < m { return v }
            let extraBit = try bits(1)
            return (v << 1) - m + extraBit
        }

        /// `le(n)` (§4.10.4): n little-endian bytes, byte aligned.
        mutating func littleEndian(_ count: Int) throws(ImageDecodingError) -> Int {
            var value = 0
            for index in 0..<count { value |= try bits(8) << (8 * index) }
            return value
        }

        /// `f(n)` for n ≤ 32.
        mutating func bits(_ count: Int) throws(ImageDecodingError) -> Int {
            guard count >= 0, count <= 32, bit + count <= endBit else { throw .avif(.headerPastEnd(obuType: obuType)) }
            var value = 0
            for _ in 0..<count {
                value = value << 1 | Int(bytes[bit >> 3] >> (7 - UInt8(bit & 7)) & 1)
                bit += 1
            }
            return value
        }

        mutating func flag() throws(ImageDecodingError) -> Bool { try bits(1) == 1 }

        /// `uvlc()`: leading zeros, a one, then that many bits; 32 or more zeros give 2^32 − 1.
        mutating func uvlc() throws(ImageDecodingError) -> Int {
            var leadingZeros = 0
            while !(try flag()) {
                leadingZeros += 1
                // The specification reads on until the one, however far; the value saturates at 32.
                guard leadingZeros < 1 << 16 else { throw .avif(.headerValue) }
            }
            guard leadingZeros < 32 else { return (1 << 32) - 1 }
            return try bits(leadingZeros) + (1 << leadingZeros) - 1
        }
    }
}
