extension AVIF {
    /// One `infe` entry (ISO/IEC 14496-12 §8.11.6, versions 2 and 3): an item's id and type,
    /// and for `mime` items the content type (XMP is `application/rdf+xml`).
    public struct ItemInfo: Sendable, Hashable {
        public let id: UInt32
        public let type: BoxType
        public let name: String
        public let contentType: String?
        /// Flag 1: the item is not meant to be displayed on its own (a tile, an alpha plane).
        public let isHidden: Bool

        init(_ bytes: [UInt8], _ header: BoxHeader) throws(ImageDecodingError) {
            var reader = ByteReader(bytes, header)
            let (version, flags) = try reader.fullBoxHeader()
            // Versions 0 and 1 predate item types; HEIF images need 2 or 3.
            guard version == 2 || version == 3 else { throw .avif(.version(type: .itemInfoEntry, version: version)) }
            id = version == 2 ? UInt32(try reader.uint16()) : try reader.uint32()
            _ = try reader.uint16()  // item_protection_index
            type = try reader.fourCC()
            name = try reader.remaining > 0 ? reader.cString() : ""
            contentType = type == .mime && reader.remaining > 0 ? try reader.cString() : nil
            isHidden = flags & 1 != 0
        }

        /// The `iinf` box's entries (ISO/IEC 14496-12 §8.11.6), by id.
        static func parseList(_ bytes: [UInt8], _ header: BoxHeader, limits: ContainerLimits) throws(ImageDecodingError) -> [UInt32: ItemInfo] {
            var reader = ByteReader(bytes, header)
            let (version, _) = try reader.fullBoxHeader()
            let declared = version == 0 ? Int(try reader.uint16()) : Int(try reader.uint32())
            try limits.check(declared, limits.maxItems)
            let boxes = try BoxHeader.children(bytes, in: reader.remainingRange, parent: .itemInfo, maxCount: limits.maxItems)
            var items: [UInt32: ItemInfo] = [:]
            for box in boxes where box.type == .itemInfoEntry {
                let item = try ItemInfo(bytes, box)
                guard items[item.id] == nil else { throw .avif(.duplicateItem(item.id)) }
                items[item.id] = item
            }
            return items
        }
    }
}
