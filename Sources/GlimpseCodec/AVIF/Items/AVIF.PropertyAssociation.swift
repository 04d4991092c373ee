extension AVIF {
    /// One association of `ipma` (ISO/IEC 23008-12 §9.3): a property of `ipco` (by its
    /// 0-based position) given to an item, essential or not. A reader must not show an
    /// item one of whose essential properties it does not understand.
    public struct PropertyAssociation: Sendable, Hashable {
        public let propertyIndex: Int
        public let isEssential: Bool

        /// The associations of one `ipma` box, by item id (index 0, "no property", dropped).
        static func parseList(_ bytes: [UInt8], _ header: BoxHeader, propertyCount: Int, limits: ContainerLimits,
                              into associations: inout [UInt32: [PropertyAssociation]]) throws(ImageDecodingError) {
            var reader = ByteReader(bytes, header)
            let (version, flags) = try reader.fullBoxHeader()
            guard version <= 1 else { throw .avif(.version(type: .propertyAssociation, version: version)) }
            let count = Int(try reader.uint32())
            try limits.check(count + associations.count, limits.maxItems)
            var total = associations.values.reduce(0) { $0 + $1.count }
            for _ in 0..<count {
                let id = version == 0 ? UInt32(try reader.uint16()) : try reader.uint32()
                let entries = Int(try reader.uint8())
                total += entries
                try limits.check(total, limits.maxAssociations)
                guard associations[id] == nil else { throw .avif(.duplicateItem(id)) }
                var list: [PropertyAssociation] = []
                list.reserveCapacity(entries)
                for _ in 0..<entries {
                    let value = flags & 1 != 0 ? Int(try reader.uint16()) : Int(try reader.uint8())
                    let wide = flags & 1 != 0
                    let index = value & (wide ? 0x7FFF : 0x7F)
                    let essential = value >> (wide ? 15 : 7) != 0
                    guard index != 0 else { continue }
                    guard index <= propertyCount else { throw .avif(.propertyIndex(item: id, index: index)) }
                    list.append(PropertyAssociation(propertyIndex: index - 1, isEssential: essential))
                }
                associations[id] = list
            }
        }
    }
}
