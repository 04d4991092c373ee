extension AVIF {
    /// A valid part of an AVIF file that Glimpse does not implement; the payload of
    /// ``UnsupportedFeature/avif(_:)``.
    public enum UnsupportedFeature: Sendable, Hashable, CustomStringConvertible {
        /// Matrix coefficients (H.273 Table 4) with no linear YUV→RGB conversion, as libavif
        /// refuses them: 3 (reserved), 10 and 13 (constant luminance), 11 (ST 2085), 14 (ICtCp),
        /// 16 and 17 (YCgCo-R), YCgCo in limited range, and identity with subsampled chroma.
        case matrixCoefficients(UInt16)
        /// A coded image whose decoded size differs from its `ispe` (libavif rescales it).
        case codedSizeDiffersFromExtents
        /// An image sequence (`avis`) whose tracks alone carry the images, with no primary item.
        case imageSequenceWithoutPrimaryItem
        /// The primary item's type (`hvc1`, `jpeg`, the derived `iden` and `iovl`…).
        case itemType(BoxType)
        /// A property marked essential that this decoder does not know (ISO/IEC 23008-12 §9.3).
        case essentialProperty(BoxType)
        /// `iloc` construction method 2 (item offsets, ISO/IEC 14496-12 §8.11.3).
        case constructionMethod(Int)
        /// Item data in another file (`iloc` data reference index other than 0).
        case externalData
        /// An extent of length 0 ("to the end of the source").
        case extentToEndOfSource
        /// A derivation chain (a grid of grids) deeper than the AVIF specification allows.
        case nestedDerivation

        public var description: String {
            switch self {
            case .matrixCoefficients(let code): "AVIF matrix coefficients \(code) (no linear YUV to RGB conversion)"
            case .codedSizeDiffersFromExtents: "AV1 frame size differs from the item's ispe"
            case .imageSequenceWithoutPrimaryItem: "AVIF image sequence without a primary still item"
            case .itemType(let type): "AVIF primary item of type \(type)"
            case .essentialProperty(let type): "essential AVIF property \(type)"
            case .constructionMethod(let method): "iloc construction method \(method)"
            case .externalData: "item data in an external file"
            case .extentToEndOfSource: "iloc extent of length 0"
            case .nestedDerivation: "nested derived images"
            }
        }
    }
}
