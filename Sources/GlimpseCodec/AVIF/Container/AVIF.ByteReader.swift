extension AVIF {
    /// Big-endian fields of one box's payload, in order. Reading past the payload's end
    /// throws ``AVIF/BoxDefect/truncated(type:)`` for the box: no field is ever read from
    /// outside it.
    struct ByteReader {
        let bytes: [UInt8]
        private(set) var position: Int
        let end: Int
        let box: BoxType

        init(_ bytes: [UInt8], _ range: Range<Int>, box: BoxType) {
            self.bytes = bytes
            position = range.lowerBound
            end = range.upperBound
            self.box = box
        }

        init(_ bytes: [UInt8], _ header: BoxHeader) {
            self.init(bytes, header.payload, box: header.type)
        }

        var remaining: Int { end - position }
        var remainingRange: Range<Int> { position..<end }

        mutating func skip(_ count: Int) throws(ImageDecodingError) {
            guard count >= 0, count <= remaining else { throw .avif(.truncated(type: box)) }
            position += count
        }

        mutating func uint8() throws(ImageDecodingError) -> UInt8 {
            guard position < end else { throw .avif(.truncated(type: box)) }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func uint16() throws(ImageDecodingError) -> UInt16 {
            UInt16(truncatingIfNeeded: try unsigned(byteCount: 2))
        }

        mutating func uint32() throws(ImageDecodingError) -> UInt32 {
            UInt32(truncatingIfNeeded: try unsigned(byteCount: 4))
        }

        mutating func uint64() throws(ImageDecodingError) -> UInt64 {
            try unsigned(byteCount: 8)
        }

        /// An unsigned field of 0–8 bytes (0 reads as 0: `iloc`'s absent fields).
        mutating func unsigned(byteCount: Int) throws(ImageDecodingError) -> UInt64 {
            guard byteCount >= 0, byteCount <= 8, byteCount <= remaining else { throw .avif(.truncated(type: box)) }
            var value: UInt64 = 0
            for index in position..<position + byteCount { value = value << 8 | UInt64(bytes[index]) }
            position += byteCount
            return value
        }

        mutating func fourCC() throws(ImageDecodingError) -> BoxType {
            BoxType(rawValue: try uint32())
        }

        /// A FullBox's version and flags (ISO/IEC 14496-12 §4.2.2).
        mutating func fullBoxHeader() throws(ImageDecodingError) -> (version: UInt8, flags: UInt32) {
            let word = try uint32()
            return (UInt8(word >> 24), word & 0xFF_FFFF)
        }

        /// A null-terminated UTF-8 string; one that runs to the payload's end without its
        /// null is taken whole (libavif accepts both).
        mutating func cString() throws(ImageDecodingError) -> String {
            var stop = position
            while stop < end && bytes[stop] != 0 { stop += 1 }
            let text = String(decoding: bytes[position..<stop], as: UTF8.self)
            position = min(end, stop + 1)
            return text
        }

        /// The rest of the payload, consumed.
        mutating func rest() -> [UInt8] {
            defer { position = end }
            return Array(bytes[position..<end])
        }
    }
}
