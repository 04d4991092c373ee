extension AVIF {
    /// What the AV1 data of one `av01` item says (AV1-ISOBMFF §2.1, AVIF §2.1): its sequence
    /// header (from the item's OBUs, else from `av1C`'s configuration OBUs) checked
    /// against `av1C`, and the header of its first frame.
    public struct CodedImage: Sendable, Hashable {
        public let sequenceHeader: SequenceHeader
        public let firstFrame: FrameHeader
        /// How many frame (or frame header) OBUs the item holds: more than one for a layered image.
        public let frameCount: Int

        init(_ data: [UInt8], configuration: CodecConfiguration, operatingPoint: Int?) throws(ImageDecodingError) {
            let units = try OBU.split(data, 0..<data.count)
            var sequence: SequenceHeader?
            if let unit = units.first(where: { $0.kind == .sequenceHeader }) {
                sequence = try SequenceHeader(data, unit.payload)
            } else {
                let config = configuration.configOBUs
                if let unit = try OBU.split(config, 0..<config.count).first(where: { $0.kind == .sequenceHeader }) {
                    sequence = try SequenceHeader(config, unit.payload)
                }
            }
            guard let sequence else { throw .avif(.missingSequenceHeader) }
            try configuration.check(against: sequence)
            if let operatingPoint, operatingPoint >= sequence.operatingPoints.count { throw .avif(.layerSelection) }
            let frames = units.filter { $0.kind == .frame || $0.kind == .frameHeader }
            guard let first = frames.first else { throw .avif(.missingFrameHeader) }
            sequenceHeader = sequence
            firstFrame = try FrameHeader(data, first, sequence: sequence)
            frameCount = frames.count
        }
    }
}
