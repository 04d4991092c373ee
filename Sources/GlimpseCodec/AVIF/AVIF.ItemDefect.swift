extension AVIF {
    /// What is wrong with the items of an AVIF file: their entries, locations, references,
    /// properties and derivations (ISO/IEC 23008-12 §6.5–§6.6, §9; MIAF §7; the AVIF
    /// specification); the payload of ``AVIF/Defect/item(_:)``.
    public enum ItemDefect: Sendable, Hashable, CustomStringConvertible {
        /// `pitm` names an item `iinf` does not list.
        case unknownPrimaryItem(UInt32)
        /// Two `infe` (or two `iloc` entries, or two `ipma` entries) for one item.
        case duplicateItem(UInt32)
        /// An item that must be read has no `iloc` entry.
        case missingLocation(UInt32)
        /// An extent whose offset plus length overflows, or (construction method 1) lies outside `idat`.
        case extentOutsideData(item: UInt32)
        /// An item whose data is empty.
        case emptyData(UInt32)
        /// `ipma` names a property past the end of `ipco`.
        case propertyIndex(item: UInt32, index: Int)
        /// An image item without a property it must have (`ispe`, `av1C`).
        case missingProperty(item: UInt32, type: BoxType)
        /// A property whose fields are out of range (a zero denominator, a zero-channel `pixi`…).
        case propertyValue(type: BoxType)
        /// A `clap` that is not integral or not inside the image (MIAF §7.3.6.7).
        case cleanAperture
        /// A reference to an item `iinf` does not list.
        case referenceToUnknownItem(type: BoxType, from: UInt32, to: UInt32)
        /// An item that refers to itself, directly or through a derivation chain.
        case referenceCycle(UInt32)
        /// A `grid` payload of the wrong length or version (ISO/IEC 23008-12 §6.6.2.3.2).
        case gridPayload
        /// A `grid` whose `dimg` references do not number rows × columns.
        case gridTileCount(expected: Int, found: Int)
        /// `grid` tiles that differ in size or coding, or that do not cover the output
        /// as MIAF §7.3.11.4 requires.
        case gridTiles
        /// A `grid` input that is not an AV1 image item.
        case gridTileType(BoxType)
        /// An auxiliary (alpha) image whose size differs from its master image's.
        case auxiliarySize
        /// An `a1op` or `lsel` that selects an operating point or layer the image does not have.
        case layerSelection

        public var description: String {
            switch self {
            case .unknownPrimaryItem(let id): "primary item \(id) is not in iinf"
            case .duplicateItem(let id): "item \(id) described twice"
            case .missingLocation(let id): "item \(id) has no iloc entry"
            case .extentOutsideData(let id): "an extent of item \(id) lies outside its data"
            case .emptyData(let id): "item \(id) has no data"
            case .propertyIndex(let id, let index): "item \(id) is associated with property \(index), past the end of ipco"
            case .missingProperty(let id, let type): "item \(id) has no \(type) property"
            case .propertyValue(let type): "\(type) property out of range"
            case .cleanAperture: "clap is not an integral crop inside the image"
            case .referenceToUnknownItem(let type, let from, let to): "\(type) reference from item \(from) to unknown item \(to)"
            case .referenceCycle(let id): "item \(id) refers to itself"
            case .gridPayload: "grid payload of the wrong length or version"
            case .gridTileCount(let expected, let found): "grid of \(expected) tiles has \(found) dimg references"
            case .gridTiles: "grid tiles differ or do not cover the output"
            case .gridTileType(let type): "grid tile of item type \(type)"
            case .auxiliarySize: "alpha image size differs from the colour image's"
            case .layerSelection: "a1op or lsel selects a layer the image lacks"
            }
        }
    }
}
