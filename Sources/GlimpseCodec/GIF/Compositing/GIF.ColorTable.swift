extension GIF {
    /// A frame's palette as 256 packed RGBA values ready to store into a row
    /// (GIF89a §19, §21), with the transparent index and the indices past the
    /// end of the table mapped to 0, which means "leave the canvas as it is".
    ///
    /// Every real colour is opaque, so 0 can never be a colour.
    struct ColorTable: Sendable {
        /// Packed RGBA in memory order (R first), 256 entries.
        private(set) var entries: [UInt32]
        /// Whether some index leaves the canvas untouched.
        private(set) var hasHoles: Bool

        /// Builds the table from RGB triples; `nil` means the frame has no colour
        /// table at all, which browsers show as opaque black.
        init(rgb: [UInt8]?, transparentIndex: Int?) {
            let opaqueBlack = Self.pack(0, 0, 0)
            if let rgb {
                let count = min(256, rgb.count / 3)
                entries = [UInt32](repeating: 0, count: 256)
                for i in 0..<count {
                    entries[i] = Self.pack(rgb[3 &* i], rgb[3 &* i &+ 1], rgb[3 &* i &+ 2])
                }
                hasHoles = count < 256
            } else {
                entries = [UInt32](repeating: opaqueBlack, count: 256)
                hasHoles = false
            }
            if let transparentIndex, (0..<256).contains(transparentIndex) {
                entries[transparentIndex] = 0
                hasHoles = true
            }
        }

        /// The value whose in-memory bytes are R, G, B, 255.
        static func pack(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt32 {
            (UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | 0xFF00_0000).littleEndian
        }
    }
}
