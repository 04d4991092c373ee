extension AVIF {
    /// Fixed bounds on what the container parser builds from a file, checked before
    /// allocating: beyond them a file is refused with
    /// ``ImageDecodingError/limitExceeded(_:)`` (``DecodingLimits/Limit/entries``).
    /// Pixel sizes and byte totals are the caller's ``DecodingLimits``.
    struct ContainerLimits: Sendable {
        /// Largest `meta` or `moov` box parsed (the boxes held in memory whole).
        var maxParsedBoxBytes = 64 << 20
        /// Most items in `iinf` and `iloc`.
        var maxItems = 16_384
        /// Most properties in `ipco`, and associations in `ipma` all told.
        var maxProperties = 16_384
        var maxAssociations = 65_536
        /// Most extents in `iloc`, all items together.
        var maxExtents = 65_536
        /// Most references in `iref`, all boxes together.
        var maxReferences = 65_536
        /// Most tiles in a `grid`.
        var maxGridTiles = 4_096

        static let standard = ContainerLimits()

        func check(_ count: Int, _ limit: Int) throws(ImageDecodingError) {
            guard count >= 0, count <= limit else { throw .limitExceeded(.entries) }
        }
    }
}
