extension WebP {
    /// What is wrong with a WebP file (the payload of ``DecodingDefect/webp(_:)``), by
    /// stage: the RIFF container and its fixed chunks, the lossless (VP8L) bitstream,
    /// the lossy (VP8) bitstream.
    public enum Defect: Sendable, Hashable, CustomStringConvertible {
        /// The container, a fixed chunk, a bitstream's frame header or `ALPH` (RFC 9649 §2).
        case container(ContainerDefect)

        public var description: String {
            switch self {
            case .container(let defect): defect.description
            }
        }
    }
}
