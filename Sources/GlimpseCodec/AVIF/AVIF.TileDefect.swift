extension AVIF {
    /// What is wrong with an AV1 frame's tile data (AV1 §5.11, §8.2); the payload of
    /// ``AVIF/AV1Defect/tileData(_:)``.
    public enum TileDefect: Sendable, Hashable, CustomStringConvertible {
        /// A tile size (`tile_size_minus_1`, or the last tile's remainder) of 0 or past the tile group's end.
        case sizeOutOfRange
        /// `tg_start`/`tg_end` out of order or out of the frame, tile groups that skip or
        /// repeat tiles, or a frame whose tiles never all arrive.
        case tileGroup
        /// The symbol decoder used more than 14 bits of padding (`SymbolMaxBits` < −14, §8.2.4):
        /// the tile's syntax reads past its data.
        case overread
        /// No trailing one bit where the symbol decoder stopped, or non-zero padding after it (§8.2.4).
        case trailingBits
        /// A block whose chroma size is `BLOCK_INVALID` (§6.10.4: 4:2:2 aspect ratios beyond 4:1).
        case blockSize
        /// A syntax element outside its allowed range (`segment_id` above `LastActiveSegId`,
        /// a palette colour or CFL alpha out of range…).
        case syntaxValue
        /// An intra block copy vector that `is_mv_valid` (§6.10.25) rejects: fractional, or
        /// fetching outside the tile, from samples not yet decoded, or too close to the block.
        case blockVector

        public var description: String {
            switch self {
            case .sizeOutOfRange: "tile size out of range"
            case .tileGroup: "tile groups inconsistent with the tile grid"
            case .overread: "tile data read past its end"
            case .trailingBits: "tile trailing bits or padding wrong"
            case .blockSize: "block size invalid for the chroma subsampling"
            case .syntaxValue: "tile syntax element out of range"
            case .blockVector: "intra block copy vector points outside the decoded part of the tile"
            }
        }
    }
}
