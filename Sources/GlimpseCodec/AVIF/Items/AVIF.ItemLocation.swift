extension AVIF {
    /// Where one item's bytes are (`iloc`, ISO/IEC 14496-12 §8.11.3, versions 0–2): extents
    /// in the file (construction method 0) or in `idat` (method 1), each at base offset plus
    /// extent offset, concatenated in order.
    public struct ItemLocation: Sendable, Hashable {
        public struct Extent: Sendable, Hashable {
            public let offset: UInt64
            public let length: UInt64
        }

        public let itemID: UInt32
        /// 0: file offsets; 1: offsets into `idat`.
        public let constructionMethod: Int
        public let extents: [Extent]

        /// The total length of the item's data, `nil` when it does not fit an `Int`.
        var totalLength: Int? {
            var total = 0
            for extent in extents {
                guard extent.length <= UInt64(Int.max) else { return nil }
                let (sum, overflow) = total.addingReportingOverflow(Int(extent.length))
                guard !overflow else { return nil }
                total = sum
            }
            return total
        }

        /// The extents as ranges of `file` (method 0) or of the `idat` payload (method 1);
        /// throws for an extent that overflows or lies outside `idat`.
        func ranges(idat: Range<Int>?) throws(ImageDecodingError) -> [Range<Int>] {
            var ranges: [Range<Int>] = []
            ranges.reserveCapacity(extents.count)
            for extent in extents {
                guard extent.offset <= UInt64(Int.max / 2), extent.length <= UInt64(Int.max / 2) else {
                    throw .avif(.extentOutsideData(item: itemID))
                }
                var start = Int(extent.offset)
                if constructionMethod == 1 {
                    guard let idat else { throw .avif(.missing(type: .itemData, parent: .meta)) }
                    start += idat.lowerBound
                    guard start + Int(extent.length) <= idat.upperBound else { throw .avif(.extentOutsideData(item: itemID)) }
                }
                ranges.append(start..<start + Int(extent.length))
            }
            return ranges
        }

        /// The `iloc` box's entries, by item id.
        static func parseList(_ bytes: [UInt8], _ header: BoxHeader, limits: ContainerLimits) throws(ImageDecodingError) -> [UInt32: ItemLocation] {
            var reader = ByteReader(bytes, header)
            let (version, _) = try reader.fullBoxHeader()
            guard version <= 2 else { throw .avif(.version(type: .itemLocation, version: version)) }
            let sizes = try reader.uint16()
            let offsetSize = Int(sizes >> 12), lengthSize = Int(sizes >> 8 & 0xF), baseOffsetSize = Int(sizes >> 4 & 0xF)
            let indexSize = version >= 1 ? Int(sizes & 0xF) : 0
            for size in [offsetSize, lengthSize, baseOffsetSize, indexSize] where ![0, 4, 8].contains(size) {
                throw .avif(.fieldSize(size))
            }
            let count = version < 2 ? Int(try reader.uint16()) : Int(try reader.uint32())
            try limits.check(count, limits.maxItems)
            var locations: [UInt32: ItemLocation] = [:]
            var totalExtents = 0
            for _ in 0..<count {
                let id = version < 2 ? UInt32(try reader.uint16()) : try reader.uint32()
                var method = 0
                if version >= 1 { method = Int(try reader.uint16() & 0xF) }
                let dataReference = try reader.uint16()
                let baseOffset = try reader.unsigned(byteCount: baseOffsetSize)
                let extentCount = Int(try reader.uint16())
                totalExtents += extentCount
                try limits.check(totalExtents, limits.maxExtents)
                // Each extent takes at least its offset and length fields: a count the box
                // cannot hold is refused before reserving room for it.
                guard extentCount * (offsetSize + lengthSize + indexSize) <= reader.remaining else {
                    throw .avif(.truncated(type: .itemLocation))
                }
                var extents: [Extent] = []
                extents.reserveCapacity(extentCount)
                for _ in 0..<extentCount {
                    _ = try reader.unsigned(byteCount: indexSize)
                    let offset = try reader.unsigned(byteCount: offsetSize)
                    let length = try reader.unsigned(byteCount: lengthSize)
                    let (start, overflow) = baseOffset.addingReportingOverflow(offset)
                    guard !overflow else { throw .avif(.extentOutsideData(item: id)) }
                    extents.append(Extent(offset: start, length: length))
                }
                guard locations[id] == nil else { throw .avif(.duplicateItem(id)) }
                // Unsupported storage is refused when the item is used, not here: a file may
                // hold items this decoder never reads.
                locations[id] = ItemLocation(itemID: id, constructionMethod: dataReference != 0 ? -1 : method, extents: extents)
            }
            return locations
        }

        /// Refuses storage this decoder does not read.
        func checkSupported() throws(ImageDecodingError) {
            if constructionMethod == -1 { throw .avif(.externalData) }
            guard constructionMethod <= 1 else { throw .avif(.constructionMethod(constructionMethod)) }
            if extents.contains(where: { $0.length == 0 }) { throw .avif(.extentToEndOfSource) }
        }
    }
}
