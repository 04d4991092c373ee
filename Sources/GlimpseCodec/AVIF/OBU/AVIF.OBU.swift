extension AVIF {
    /// One OBU (open bitstream unit, AV1 §5.3): its header fields and where its payload lies.
    public struct OBU: Sendable, Hashable {
        /// `obu_type` (§6.2.2).
        public enum Kind: Int, Sendable {
            case sequenceHeader = 1, temporalDelimiter = 2, frameHeader = 3, tileGroup = 4, metadata = 5
            case frame = 6, redundantFrameHeader = 7, tileList = 8, padding = 15
        }

        /// The raw `obu_type`; reserved values (0, 9–14) are skipped by decoders (§6.2.2).
        public let type: Int
        public let temporalID: Int
        public let spatialID: Int
        /// The payload's range in the bytes the OBU was read from.
        public let payload: Range<Int>

        public var kind: Kind? { Kind(rawValue: type) }

        /// The OBUs of `range` in order (§5.3.1): each header, its optional extension, and
        /// its `leb128` size (§4.10.5) or, without one, the rest of the range.
        static func split(_ bytes: [UInt8], _ range: Range<Int>, maxCount: Int = 65_536) throws(ImageDecodingError) -> [OBU] {
            var units: [OBU] = []
            var offset = range.lowerBound
            while offset < range.upperBound {
                guard units.count < maxCount else { throw .limitExceeded(.entries) }
                let header = bytes[offset]
                guard header & 0x80 == 0 else { throw .avif(.forbiddenBit) }
                let type = Int(header >> 3 & 0xF)
                let hasExtension = header & 4 != 0, hasSize = header & 2 != 0
                offset += 1
                var temporal = 0, spatial = 0
                if hasExtension {
                    guard offset < range.upperBound else { throw .avif(.obuPastEnd) }
                    temporal = Int(bytes[offset] >> 5)
                    spatial = Int(bytes[offset] >> 3 & 3)
                    offset += 1
                }
                var size = range.upperBound - offset
                if hasSize { size = try leb128(bytes, &offset, end: range.upperBound) }
                guard size <= range.upperBound - offset else { throw .avif(.obuPastEnd) }
                units.append(OBU(type: type, temporalID: temporal, spatialID: spatial, payload: offset..<offset + size))
                offset += size
            }
            return units
        }

        /// `leb128()` (§4.10.5): at most 8 bytes, the value below 2^32.
        static func leb128(_ bytes: [UInt8], _ offset: inout Int, end: Int) throws(ImageDecodingError) -> Int {
            var value: UInt64 = 0
            for index in 0..<8 {
                guard offset < end else { throw .avif(.obuPastEnd) }
                let byte = bytes[offset]
                offset += 1
                value |= UInt64(byte & 0x7F) << (7 * UInt64(index))
                if byte & 0x80 == 0 {
                    guard value <= UInt64(UInt32.max) else { throw .avif(.sizeField) }
                    return Int(value)
                }
            }
            throw .avif(.sizeField)
        }
    }
}
