extension GIF {
    /// What is wrong with a GIF file (the payload of ``DecodingDefect/gif(_:)``),
    /// by stage: header, block structure, LZW data, frames.
    public enum Defect: Sendable, Hashable, CustomStringConvertible {
        /// The file does not start with `GIF87a` or `GIF89a` (GIF89a §17).
        case signature
        /// A logical screen of width or height 0 (§18).
        case zeroSizeScreen
        /// An image descriptor before the logical screen.
        case imageBeforeScreen
        /// A byte starting no block before the first image (§15, §20, §23, §27).
        case unknownBlock(UInt8)
        /// An LZW minimum code size outside 1…8 (§22, Appendix F).
        case lzwMinimumCodeSize(Int)
        /// An LZW code above the next free table entry (Appendix F); the payload
        /// is the code and the next free entry.
        case lzwCode(Int, next: Int)

        // Recovered in lenient mode, as browsers do. An ``lzwCode(_:next:)``
        // ends that frame's data there.
        /// A frame's LZW data ends (end code or block terminator) before all its
        /// pixels; the rest of its rectangle keeps what the canvas held.
        case missingPixels(frame: Int)
        /// The file ends inside frame `frame` (0-based, counting every frame
        /// started); its pixels decoded so far are kept.
        case truncatedFrame(frame: Int)
        /// The file ends without the trailer byte 0x3B (§27).
        case missingTrailer

        public var description: String {
            switch self {
            case .signature: "not a GIF87a or GIF89a signature"
            case .zeroSizeScreen: "zero-size logical screen"
            case .imageBeforeScreen: "image before the logical screen"
            case .unknownBlock(let byte): "unknown block type 0x\(String(byte, radix: 16))"
            case .lzwMinimumCodeSize(let size): "LZW minimum code size \(size)"
            case .lzwCode(let code, let next): "LZW code \(code) beyond the table (next \(next)); the frame's data ends there"
            case .missingPixels(let frame): "frame \(frame) has fewer pixels than its rectangle"
            case .truncatedFrame(let frame): "data ends inside frame \(frame)"
            case .missingTrailer: "no trailer"
            }
        }
    }
}
