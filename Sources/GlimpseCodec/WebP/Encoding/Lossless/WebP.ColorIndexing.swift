extension WebP {
    /// The forward colour-indexing transform (RFC 9649 §4.4): a palette of at
    /// most 256 colours, and the image as indices bundled 8, 4 or 2 to a pixel
    /// when there are at most 2, 4 or 16 colours.
    struct ColorIndexing {
        /// The colours in ascending ARGB order.
        let palette: [UInt32]
        /// log2 of the pixels bundled into one coded pixel (0…3).
        let bundleBits: Int

        /// The palette of `argb`, or `nil` when it has more than 256 colours.
        init?(_ argb: [UInt32]) {
            var colors = Set<UInt32>()
            var last: UInt32? = nil
            for pixel in argb where pixel != last {
                last = pixel
                colors.insert(pixel)
                if colors.count > 256 { return nil }
            }
            palette = colors.sorted()
            let count = palette.count
            bundleBits = count <= 2 ? 3 : count <= 4 ? 2 : count <= 16 ? 1 : 0
        }

        /// The palette as written: each entry the per-channel difference from the one before.
        var deltaCoded: [UInt32] {
            palette.indices.map { $0 == 0 ? palette[0] : PredictorSearch.subtractPixels(palette[$0], palette[$0 - 1]) }
        }

        /// The image's indices, bundled, in the green channel of opaque pixels;
        /// `subsampledSize(width, bundleBits)` wide.
        func indexImage(_ argb: [UInt32], width: Int, height: Int) -> [UInt32] {
            var index = [UInt32: UInt32](minimumCapacity: palette.count)
            for (position, color) in palette.enumerated() { index[color] = UInt32(position) }
            let codedWidth = subsampledSize(width, bundleBits)
            let bitsPerIndex = UInt32(8 >> bundleBits)
            let perWord = 1 << bundleBits
            var coded = [UInt32](repeating: 0xff00_0000, count: codedWidth * height)
            var lastColor: UInt32 = palette[0]
            var lastIndex: UInt32 = 0
            for y in 0..<height {
                for x in 0..<width {
                    let color = argb[y * width + x]
                    if color != lastColor {
                        lastColor = color
                        lastIndex = index[color] ?? 0
                    }
                    let shift = 8 + bitsPerIndex * UInt32(x & (perWord - 1))
                    coded[y * codedWidth + (x >> bundleBits)] |= lastIndex << shift
                }
            }
            return coded
        }
    }
}
