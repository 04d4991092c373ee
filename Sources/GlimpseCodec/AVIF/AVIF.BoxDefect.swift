extension AVIF {
    /// What is wrong with the boxes of an AVIF file (ISO/IEC 14496-12 §4.2, and the fields of
    /// the boxes ISO/IEC 23008-12 defines); the payload of ``AVIF/Defect/box(_:)``.
    public enum BoxDefect: Sendable, Hashable, CustomStringConvertible {
        /// The file does not start with a `ftyp` box (ISO/IEC 14496-12 §4.3).
        case missingFileType
        /// `ftyp` names neither `avif` nor `avis`, as major or compatible brand (AVIF §7).
        case noCompatibleBrand(major: BoxType)
        /// A box whose size is smaller than its own header.
        case size(type: BoxType, size: UInt64)
        /// A box that runs past the end of the box holding it.
        case pastParent(type: BoxType, parent: BoxType)
        /// A box too short for the fields its type and version require.
        case truncated(type: BoxType)
        /// A box version this type does not define.
        case version(type: BoxType, version: UInt8)
        /// A box that may appear once where it is found appears again.
        case duplicate(type: BoxType)
        /// A box the file or its parent requires is missing.
        case missing(type: BoxType, parent: BoxType?)
        /// The `meta` handler is not `pict` (ISO/IEC 23008-12 §6.2).
        case handler(BoxType)
        /// An `iloc` field size other than 0, 4 or 8 bytes (ISO/IEC 14496-12 §8.11.3).
        case fieldSize(Int)

        public var description: String {
            switch self {
            case .missingFileType: "no ftyp box at the start"
            case .noCompatibleBrand(let major): "ftyp (major brand \(major)) names neither avif nor avis"
            case .size(let type, let size): "\(type) box size \(size) is smaller than its header"
            case .pastParent(let type, let parent): "\(type) box runs past the end of \(parent)"
            case .truncated(let type): "\(type) box too short for its fields"
            case .version(let type, let version): "\(type) box version \(version)"
            case .duplicate(let type): "more than one \(type) box"
            case .missing(let type, let parent): "no \(type) box" + (parent.map { " in \($0)" } ?? "")
            case .handler(let handler): "meta handler \(handler), not pict"
            case .fieldSize(let size): "iloc field size \(size)"
            }
        }
    }
}
