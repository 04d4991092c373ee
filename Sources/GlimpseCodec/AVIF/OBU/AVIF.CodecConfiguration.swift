extension AVIF {
    /// The `av1C` property (AV1-ISOBMFF §2.3.3): the sequence header's profile, level,
    /// tier and colour-config fields in fixed bits, then configuration OBUs (a sequence
    /// header, usually). The item's own sequence header must agree with it (§2.3.4).
    public struct CodecConfiguration: Sendable, Hashable {
        public let profile: Int
        public let level: Int
        public let tier: Int
        public let highBitDepth: Bool
        public let twelveBit: Bool
        public let monochrome: Bool
        public let subsamplingX: Bool
        public let subsamplingY: Bool
        public let chromaSamplePosition: Int
        /// `configOBUs`: zero or more OBUs, sequence header and metadata.
        public let configOBUs: [UInt8]

        /// 8, 10 or 12 (AV1 §5.5.2's BitDepth from the same two flags).
        public var bitDepth: Int { twelveBit && profile == 2 ? 12 : highBitDepth ? 10 : 8 }

        init(_ reader: inout ByteReader) throws(ImageDecodingError) {
            let first = try reader.uint8()
            // marker (1 bit) = 1, version (7 bits) = 1.
            guard first == 0x81 else { throw .avif(.configurationRecord) }
            let second = try reader.uint8(), third = try reader.uint8()
            _ = try reader.uint8()  // reserved, initial_presentation_delay
            profile = Int(second >> 5)
            level = Int(second & 0x1F)
            tier = Int(third >> 7)
            highBitDepth = third & 0x40 != 0
            twelveBit = third & 0x20 != 0
            monochrome = third & 0x10 != 0
            subsamplingX = third & 0x08 != 0
            subsamplingY = third & 0x04 != 0
            chromaSamplePosition = Int(third & 3)
            configOBUs = reader.rest()
        }

        /// Throws ``AVIF/AV1Defect/configurationMismatch(_:)`` naming the first field on which
        /// `header` (the item's sequence header) differs.
        func check(against header: SequenceHeader) throws(ImageDecodingError) {
            let color = header.color
            let pairs: [(String, Bool)] = [
                ("seq_profile", profile == header.profile),
                ("seq_level_idx_0", level == header.operatingPoints.first?.level),
                ("seq_tier_0", tier == header.operatingPoints.first?.tier),
                ("bit depth", bitDepth == color.bitDepth),
                ("monochrome", monochrome == color.isMonochrome),
                ("chroma_subsampling_x", subsamplingX == color.subsamplingX),
                ("chroma_subsampling_y", subsamplingY == color.subsamplingY),
            ]
            if let mismatch = pairs.first(where: { !$0.1 }) { throw .avif(.configurationMismatch(mismatch.0)) }
        }
    }
}
