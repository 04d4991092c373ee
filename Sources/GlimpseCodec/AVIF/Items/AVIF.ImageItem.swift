extension AVIF {
    /// One image as the container describes it (an `av01` item, or a `grid` of them), with
    /// the properties that say what its pixels will be (ISO/IEC 23008-12 §6.5, AVIF §2–§4).
    struct ImageItem: Sendable {
        let id: UInt32
        /// The `av01` items holding its coded data: itself, or a grid's tiles in raster order.
        let codedItems: [UInt32]
        let grid: ImageGrid?
        /// `ispe` of a coded image, the output size of a grid.
        let width: Int
        let height: Int
        /// The first coded item's `av1C` (every tile's agrees with it).
        let configuration: CodecConfiguration
        let properties: [Property]

        /// Resolves item `id`; `nil` while a grid's payload has not arrived in `file`.
        init?(_ id: UInt32, meta: MetaBox, file: [UInt8], limits: DecodingLimits,
              containerLimits: ContainerLimits) throws(ImageDecodingError) {
            guard let item = meta.items[id] else { throw .avif(.unknownPrimaryItem(id)) }
            properties = try Self.checkedProperties(of: id, meta: meta)
            self.id = id
            switch item.type {
            case .av01:
                codedItems = [id]
                grid = nil
                let coded = try Self.coded(id, meta: meta)
                (width, height, configuration) = (coded.width, coded.height, coded.configuration)
            case .grid:
                guard let payload = try Self.data(of: id, meta: meta, file: file, limits: limits) else { return nil }
                let grid = try ImageGrid(payload, limits: limits, containerLimits: containerLimits)
                let tiles = meta.references(.derivedImage, from: id)
                guard tiles.count == grid.rows * grid.columns else {
                    throw .avif(.gridTileCount(expected: grid.rows * grid.columns, found: tiles.count))
                }
                var first: (width: Int, height: Int, configuration: CodecConfiguration)?
                for tile in tiles {
                    guard tile != id else { throw .avif(.referenceCycle(id)) }
                    guard let type = meta.items[tile]?.type, type == .av01 else {
                        if meta.items[tile]?.type == .grid { throw .avif(.nestedDerivation) }
                        throw .avif(.gridTileType(meta.items[tile]?.type ?? BoxType(rawValue: 0)))
                    }
                    _ = try Self.checkedProperties(of: tile, meta: meta)
                    let coded = try Self.coded(tile, meta: meta)
                    if let first {
                        let a = first.configuration, b = coded.configuration
                        guard coded.width == first.width, coded.height == first.height, a.profile == b.profile,
                              a.bitDepth == b.bitDepth, a.monochrome == b.monochrome,
                              a.subsamplingX == b.subsamplingX, a.subsamplingY == b.subsamplingY else {
                            throw .avif(.gridTiles)
                        }
                    } else {
                        first = coded
                    }
                }
                guard let first else { throw .avif(.gridTileCount(expected: grid.rows * grid.columns, found: 0)) }
                try grid.checkCoverage(tileWidth: first.width, tileHeight: first.height)
                codedItems = tiles
                self.grid = grid
                (width, height, configuration) = (grid.outputWidth, grid.outputHeight, first.configuration)
            default:
                throw .avif(.itemType(item.type))
            }
            try limits.checkDimensions(width: width, height: height)
        }

        /// `ispe` and `av1C` of an `av01` item.
        private static func coded(_ id: UInt32, meta: MetaBox) throws(ImageDecodingError)
            -> (width: Int, height: Int, configuration: CodecConfiguration) {
            var size: (Int, Int)?
            var configuration: CodecConfiguration?
            for (property, _) in meta.properties(of: id) {
                switch property {
                case .spatialExtents(let width, let height) where size == nil: size = (Int(width), Int(height))
                case .av1Configuration(let record) where configuration == nil: configuration = record
                default: break
                }
            }
            guard let size else { throw .avif(.missingProperty(item: id, type: .spatialExtents)) }
            guard let configuration else { throw .avif(.missingProperty(item: id, type: .av1Configuration)) }
            guard size.0 > 0, size.1 > 0 else { throw .avif(.propertyValue(type: .spatialExtents)) }
            return (size.0, size.1, configuration)
        }

        /// The item's properties; an unknown one marked essential makes it unsupported (§9.3).
        private static func checkedProperties(of id: UInt32, meta: MetaBox) throws(ImageDecodingError) -> [Property] {
            let associated = meta.properties(of: id)
            for (property, essential) in associated where essential {
                if case .other(let type) = property { throw .avif(.essentialProperty(type)) }
            }
            return associated.map(\.property)
        }

        /// The data of item `id` joined from its extents; `nil` while some have not arrived.
        static func data(of id: UInt32, meta: MetaBox, file: [UInt8], limits: DecodingLimits) throws(ImageDecodingError) -> [UInt8]? {
            guard let location = meta.locations[id] else { throw .avif(.missingLocation(id)) }
            try location.checkSupported()
            let ranges = try location.ranges(idat: meta.itemData)
            guard let total = location.totalLength else { throw .avif(.extentOutsideData(item: id)) }
            try limits.checkBytes(total)
            guard total > 0 else { throw .avif(.emptyData(id)) }
            guard ranges.allSatisfy({ $0.upperBound <= file.count }) else { return nil }
            if ranges.count == 1, let only = ranges.first { return Array(file[only]) }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(total)
            for range in ranges { bytes.append(contentsOf: file[range]) }
            return bytes
        }

        /// How many bytes of the file item `id`'s data needs (the end of its last extent);
        /// data larger than the byte budget is refused before waiting for it.
        static func dataEnd(_ id: UInt32, meta: MetaBox, limits: DecodingLimits) throws(ImageDecodingError) -> Int {
            guard let location = meta.locations[id] else { throw .avif(.missingLocation(id)) }
            try location.checkSupported()
            guard let total = location.totalLength else { throw .avif(.extentOutsideData(item: id)) }
            try limits.checkBytes(total)
            return try location.ranges(idat: meta.itemData).map(\.upperBound).max() ?? 0
        }
    }
}
