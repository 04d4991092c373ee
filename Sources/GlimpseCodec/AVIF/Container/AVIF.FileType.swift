extension AVIF {
    /// The `ftyp` box (ISO/IEC 14496-12 §4.3): the brands whose rules the file follows.
    /// AVIF §7 reads a file with `avif` among its brands as a still image and one with
    /// `avis` as an image sequence (libavif's `avifFileTypeIsCompatible` asks for one of the two).
    public struct FileType: Sendable, Hashable {
        public let majorBrand: BoxType
        public let minorVersion: UInt32
        public let compatibleBrands: [BoxType]

        init(_ bytes: [UInt8], _ header: BoxHeader) throws(ImageDecodingError) {
            var reader = ByteReader(bytes, header)
            majorBrand = try reader.fourCC()
            minorVersion = try reader.uint32()
            // A trailing partial brand is ignored, as libavif does.
            let count = reader.remaining / 4
            try ContainerLimits.standard.check(count, ContainerLimits.standard.maxItems)
            var brands: [BoxType] = []
            brands.reserveCapacity(count)
            for _ in 0..<count { brands.append(try reader.fourCC()) }
            compatibleBrands = brands
        }

        public func has(_ brand: BoxType) -> Bool { majorBrand == brand || compatibleBrands.contains(brand) }

        /// Whether the file declares an image sequence (`avis`).
        public var isSequence: Bool { has(.avis) }
    }
}
