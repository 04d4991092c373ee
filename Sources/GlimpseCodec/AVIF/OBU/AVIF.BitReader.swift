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
