extension WebP {
    /// What is wrong with a WebP file (the payload of ``DecodingDefect/webp(_:)``), by
    /// stage: the RIFF container and its fixed chunks, the lossless (VP8L) bitstream,
    /// the lossy (VP8) bitstream.
    public enum Defect: Sendable, Hashable, CustomStringConvertible {
        /// The container, a fixed chunk, a bitstream's frame header or `ALPH` (RFC 9649 §2).
        case container(ContainerDefect)
        /// The lossless bitstream of a `VP8L` chunk or of a compressed `ALPH` (RFC 9649 §3–§5).
        case lossless(LosslessDefect)
        /// The lossy bitstream of a `VP8 ` chunk (RFC 6386).
        case lossy(LossyDefect)

        public var description: String {
            switch self {
            case .container(let defect): defect.description
            case .lossless(let defect): defect.description
            case .lossy(let defect): defect.description
            }
        }
    }
}
