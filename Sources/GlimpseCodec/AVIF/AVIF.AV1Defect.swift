extension AVIF {
    /// What is wrong with the AV1 data of an image item or its `av1C` record (AV1 Bitstream
    /// & Decoding Process Specification §5.3–§5.9, AV1-ISOBMFF §2.3); the payload of
    /// ``AVIF/Defect/av1(_:)``.
    public enum AV1Defect: Sendable, Hashable, CustomStringConvertible {
        /// An OBU header with `obu_forbidden_bit` set (§5.3.2).
        case forbiddenBit
        /// A `leb128` size of more than 8 bytes or above 2^32 − 1 (§4.10.5).
        case sizeField
        /// An OBU that runs past the end of the item's data.
        case obuPastEnd
        /// Neither the item's data nor `av1C` has a sequence header OBU.
        case missingSequenceHeader
        /// The item's data has no frame (or frame header) OBU.
        case missingFrameHeader
        /// An OBU's header fields run past the OBU's end.
        case headerPastEnd(obuType: Int)
        /// `seq_profile` above 2 (§6.4.1).
        case profile(Int)
        /// `mono_chrome`, subsampling or colour description the specification forbids
        /// (§6.4.2: identity matrix with subsampled chroma).
        case colorConfig
        /// An operating point or frame field out of range (§6.4, §6.8).
        case headerValue
        /// The first frame is not a key or intra-only frame (a still needs no reference),
        /// or shows an earlier frame (`show_existing_frame`).
        case firstFrame
        /// `av1C` without its marker bit or with a version other than 1.
        case configurationRecord
        /// `av1C` disagrees with the sequence header on the named field (AV1-ISOBMFF §2.3.4).
        case configurationMismatch(String)
        /// The tile data of a frame (AV1 §5.11, the symbol decoder §8.2).
        case tileData(TileDefect)

        public var description: String {
            switch self {
            case .forbiddenBit: "OBU forbidden bit set"
            case .sizeField: "leb128 OBU size out of range"
            case .obuPastEnd: "OBU runs past the end of the item"
            case .missingSequenceHeader: "no sequence header OBU"
            case .missingFrameHeader: "no frame header OBU"
            case .headerPastEnd(let type): "OBU of type \(type) ends inside its header"
            case .profile(let profile): "seq_profile \(profile)"
            case .colorConfig: "colour config the specification forbids"
            case .headerValue: "header field out of range"
            case .firstFrame: "the first frame is neither a key frame nor intra-only"
            case .configurationRecord: "av1C marker or version wrong"
            case .configurationMismatch(let field): "av1C \(field) differs from the sequence header"
            case .tileData(let defect): "AV1 tile data: \(defect)"
            }
        }
    }
}
