extension AVIF {
    /// What is wrong with an AVIF file (the payload of ``DecodingDefect/avif(_:)``), by
    /// stage: the boxes, the items and their properties, the AV1 headers.
    public enum Defect: Sendable, Hashable, CustomStringConvertible {
        /// The box structure (ISO/IEC 14496-12 §4.2) or a box's fields.
        case box(BoxDefect)
        /// The items, their properties, references and data (ISO/IEC 23008-12 §6–§9, the AVIF specification).
        case item(ItemDefect)
        /// The AV1 OBUs of an item, or its `av1C` record (AV1 specification §5, AV1-ISOBMFF §2.3).
        case av1(AV1Defect)

        public var description: String {
            switch self {
            case .box(let defect): defect.description
            case .item(let defect): defect.description
            case .av1(let defect): defect.description
            }
        }
    }
}

extension ImageDecodingError {
    static func avif(_ defect: AVIF.BoxDefect) -> Self { .malformed(.avif(.box(defect))) }
    static func avif(_ defect: AVIF.ItemDefect) -> Self { .malformed(.avif(.item(defect))) }
    static func avif(_ defect: AVIF.AV1Defect) -> Self { .malformed(.avif(.av1(defect))) }
    static func avif(_ feature: AVIF.UnsupportedFeature) -> Self { .unsupported(.avif(feature)) }
}
