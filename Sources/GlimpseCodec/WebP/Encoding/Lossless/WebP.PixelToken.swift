extension WebP {
    /// One symbol of an entropy-coded VP8L image (RFC 9649 §5.2): a literal
    /// ARGB pixel, a colour cache index, or a backward reference copying
    /// `length` pixels from `value` pixels back (stored as its distance code).
    struct PixelToken {
        enum Kind: UInt8 { case literal, cacheIndex, copy }

        var kind: Kind
        /// Pixels covered: 1 except for copies (1…4096).
        var length: Int
        /// The ARGB literal, the cache index, or a copy's distance code (RFC 9649 §5.2.2).
        var value: UInt32

        static func literal(_ argb: UInt32) -> PixelToken { PixelToken(kind: .literal, length: 1, value: argb) }
    }
}
