extension WebP {
    /// One transform of a VP8L image (RFC 9649 §4) with its data, read from the
    /// stream in order and undone in reverse.
    struct LosslessTransform {
        enum Kind: Int {
            case predictor = 0, crossColor = 1, subtractGreen = 2, colorIndexing = 3
        }

        let kind: Kind
        /// Width of the image this transform outputs when undone.
        let width: Int
        let height: Int
        /// Width of the image it takes: `width` except for colour indexing, which
        /// bundles `1 << bits` pixels into one (RFC 9649 §4.4).
        let codedWidth: Int
        /// Block size bits (predictor, cross-colour) or bundling bits (colour indexing).
        let bits: Int
        /// The predictor modes or colour transform elements per block, `blocksWide`
        /// a row; or the palette, padded with transparent black to `256 >> (8 - …)`
        /// entries so that any index a bundle can hold is defined (as libwebp does).
        let data: [UInt32]
        let blocksWide: Int

        /// Reads the transform of `type` for an image `width` × `height`.
        static func read(type: Int, width: Int, height: Int,
                         stream: inout LosslessStreamDecoder) throws(LosslessDefect) -> LosslessTransform {
            guard let kind = Kind(rawValue: type) else { throw .repeatedTransform(type) }
            switch kind {
            case .predictor, .crossColor:
                let bits = stream.reader.readInt(3) + 2
                let blocksWide = subsampledSize(width, bits)
                let data = try stream.decodeSubImage(width: blocksWide, height: subsampledSize(height, bits))
                return LosslessTransform(kind: kind, width: width, height: height, codedWidth: width,
                                         bits: bits, data: data, blocksWide: blocksWide)
            case .subtractGreen:
                return LosslessTransform(kind: kind, width: width, height: height, codedWidth: width,
                                         bits: 0, data: [], blocksWide: 0)
            case .colorIndexing:
                let colors = stream.reader.readInt(8) + 1
                let bits = colors > 16 ? 0 : colors > 4 ? 1 : colors > 2 ? 2 : 3
                var palette = try stream.decodeSubImage(width: colors, height: 1)
                // The palette is delta-coded: each entry adds to the previous one per channel.
                for index in 1..<palette.count {
                    palette[index] = addPixels(palette[index], palette[index - 1])
                }
                let entries = 1 << (8 >> bits)
                if palette.count < entries {
                    palette.append(contentsOf: repeatElement(0, count: entries - palette.count))
                }
                return LosslessTransform(kind: kind, width: width, height: height,
                                         codedWidth: subsampledSize(width, bits),
                                         bits: bits, data: palette, blocksWide: 0)
            }
        }

        /// Per-channel addition modulo 256 of two ARGB pixels.
        @inline(__always)
        static func addPixels(_ a: UInt32, _ b: UInt32) -> UInt32 {
            let alphaGreen = (a & 0xff00_ff00) &+ (b & 0xff00_ff00)
            let redBlue = (a & 0x00ff_00ff) &+ (b & 0x00ff_00ff)
            return (alphaGreen & 0xff00_ff00) | (redBlue & 0x00ff_00ff)
        }
    }
}
