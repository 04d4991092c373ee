extension AVIF {
    /// The file-level `meta` box (ISO/IEC 23008-12 §6.2, ISO/IEC 14496-12 §8.11): the
    /// handler, the primary item, the items with their locations, references and
    /// properties, and `idat`.
    struct MetaBox: Sendable {
        var primaryItemID: UInt32 = 0
        var items: [UInt32: ItemInfo] = [:]
        var locations: [UInt32: ItemLocation] = [:]
        var references: [ItemReference] = []
        var properties: [Property] = []
        var associations: [UInt32: [PropertyAssociation]] = [:]
        /// The `idat` payload's range in the file.
        var itemData: Range<Int>?

        init(_ bytes: [UInt8], _ header: BoxHeader, limits: ContainerLimits) throws(ImageDecodingError) {
            var reader = ByteReader(bytes, header)
            let (version, _) = try reader.fullBoxHeader()
            guard version == 0 else { throw .avif(.version(type: .meta, version: version)) }
            var seen: Set<BoxType> = []
            var sawPrimaryItem = false
            for box in try BoxHeader.children(bytes, in: reader.remainingRange, parent: .meta) {
                let unique: [BoxType] = [.handler, .primaryItem, .itemInfo, .itemLocation, .itemReference, .itemProperties, .itemData]
                if unique.contains(box.type) {
                    guard seen.insert(box.type).inserted else { throw .avif(.duplicate(type: box.type)) }
                }
                switch box.type {
                case .handler:
                    var fields = ByteReader(bytes, box)
                    _ = try fields.fullBoxHeader()
                    _ = try fields.uint32()  // pre_defined
                    let handler = try fields.fourCC()
                    guard handler == .picture else { throw .avif(.handler(handler)) }
                case .primaryItem:
                    var fields = ByteReader(bytes, box)
                    let (version, _) = try fields.fullBoxHeader()
                    primaryItemID = version == 0 ? UInt32(try fields.uint16()) : try fields.uint32()
                    sawPrimaryItem = true
                case .itemInfo: items = try ItemInfo.parseList(bytes, box, limits: limits)
                case .itemLocation: locations = try ItemLocation.parseList(bytes, box, limits: limits)
                case .itemReference: references = try ItemReference.parseList(bytes, box, limits: limits)
                case .itemProperties: try parseProperties(bytes, box, limits: limits)
                case .itemData: itemData = box.payload
                default: break
                }
            }
            for required in [BoxType.handler, .itemInfo, .itemLocation, .itemProperties] where !seen.contains(required) {
                throw .avif(.missing(type: required, parent: .meta))
            }
            guard sawPrimaryItem else { throw .avif(.missing(type: .primaryItem, parent: .meta)) }
            guard items[primaryItemID] != nil else { throw .avif(.unknownPrimaryItem(primaryItemID)) }
            for reference in references {
                for id in [reference.from] + reference.to where items[id] == nil {
                    throw .avif(.referenceToUnknownItem(type: reference.type, from: reference.from, to: id))
                }
            }
        }

        /// `iprp`: one `ipco`, then `ipma` boxes (ISO/IEC 23008-12 §9.3).
        private mutating func parseProperties(_ bytes: [UInt8], _ header: BoxHeader, limits: ContainerLimits) throws(ImageDecodingError) {
            let children = try BoxHeader.children(bytes, in: header.payload, parent: .itemProperties)
            guard let container = children.first, container.type == .propertyContainer else {
                throw .avif(.missing(type: .propertyContainer, parent: .itemProperties))
            }
            for box in try BoxHeader.children(bytes, in: container.payload, parent: .propertyContainer, maxCount: limits.maxProperties) {
                properties.append(try Property.parse(bytes, box))
            }
            for box in children.dropFirst() where box.type == .propertyAssociation {
                try PropertyAssociation.parseList(bytes, box, propertyCount: properties.count, limits: limits, into: &associations)
            }
        }

        /// The properties of `item` with their essential flags, in association order.
        func properties(of item: UInt32) -> [(property: Property, isEssential: Bool)] {
            (associations[item] ?? []).map { (properties[$0.propertyIndex], $0.isEssential) }
        }

        /// The items `type` references lead to from `item`, in order.
        func references(_ type: BoxType, from item: UInt32) -> [UInt32] {
            references.filter { $0.type == type && $0.from == item }.flatMap(\.to)
        }

        /// The items whose `type` references lead to `item`.
        func items(referring type: BoxType, to item: UInt32) -> [UInt32] {
            references.filter { $0.type == type && $0.to.contains(item) }.map(\.from)
        }
    }
}
