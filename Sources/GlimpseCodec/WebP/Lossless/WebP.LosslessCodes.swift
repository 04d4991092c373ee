extension WebP {
    /// The five prefix codes that code one region of a VP8L image (RFC 9649 §3.7.2.2):
    /// green + length prefix + colour cache, red, blue, alpha, distance prefix.
    /// Offsets point into ``LosslessCodes/tables``.
    struct LosslessCodeGroup {
        var green: Int = 0
        var red: Int = 0
        var blue: Int = 0
        var alpha: Int = 0
        var distance: Int = 0
        /// Red, blue and alpha each have a single symbol: a literal reads only green.
        var hasTrivialLiteral = false
        /// Alpha, red and blue of every literal when ``hasTrivialLiteral``.
        var literalARB: UInt32 = 0
        /// All five codes read no bits and green is a literal: every pixel is ``literalARB``.
        var isConstant = false
    }

    /// The prefix codes of one image stream: one group, or one per entropy-image
    /// value (meta prefix codes, RFC 9649 §3.7.2.2), with the colour cache size.
    struct LosslessCodes {
        /// Alphabet sizes of the five codes without the colour cache (RFC 9649 §3.7.2.2).
        static let alphabetSizes = [256 + 24, 256, 256, 256, 40]

        var tables: [UInt16] = []
        var groups: [LosslessCodeGroup] = []
        /// Group index per entropy block, `entropyWidth` blocks a row; empty with one group.
        var entropyImage: [UInt32] = []
        var entropyBits = 0
        var entropyWidth = 0
        var colorCacheBits = 0

        /// Reads the codes of a stream `width` pixels wide. `allowMeta` is true only
        /// for the main image (level 0): sub-images have one group.
        static func read(width: Int, height: Int, colorCacheBits: Int, allowMeta: Bool,
                         stream: inout LosslessStreamDecoder) throws(LosslessDefect) -> LosslessCodes {
            var codes = LosslessCodes()
            codes.colorCacheBits = colorCacheBits
            var groupCount = 1
            // Entropy image values remapped to the groups actually used, so a hostile
            // stream naming group 65535 once costs one group (libwebp does the same).
            var mapping: [Int] = [0]
            if allowMeta, stream.reader.read(1) == 1 {
                let bits = stream.reader.readInt(3) + 2
                let blocksWide = subsampledSize(width, bits)
                let blocksHigh = subsampledSize(height, bits)
                var image = try stream.decodeSubImage(width: blocksWide, height: blocksHigh)
                var largest = 0
                for index in image.indices {
                    let group = Int((image[index] >> 8) & 0xffff)
                    image[index] = UInt32(group)
                    largest = max(largest, group)
                }
                mapping = [Int](repeating: -1, count: largest + 1)
                groupCount = 0
                for index in image.indices {
                    let group = Int(image[index])
                    if mapping[group] < 0 {
                        mapping[group] = groupCount
                        groupCount += 1
                    }
                    image[index] = UInt32(mapping[group])
                }
                codes.entropyImage = image
                codes.entropyBits = bits
                codes.entropyWidth = blocksWide
            }
            guard !stream.reader.isPastEnd else { throw .endOfData }

            let cacheSize = colorCacheBits > 0 ? 1 << colorCacheBits : 0
            codes.groups = [LosslessCodeGroup](repeating: LosslessCodeGroup(), count: groupCount)
            var lengths = [UInt8](repeating: 0, count: alphabetSizes[0] + cacheSize)
            var scratch: [UInt16] = []
            try lengths.withUnsafeMutableBufferPointer { (lengths) throws(LosslessDefect) in
                for declared in mapping.indices {
                    let target = mapping[declared]
                    if target < 0 {
                        // An unused group is still read and checked, then dropped.
                        for kind in 0..<5 {
                            let size = alphabetSizes[kind] + (kind == 0 ? cacheSize : 0)
                            scratch.removeAll(keepingCapacity: true)
                            _ = try LosslessPrefixCode.read(alphabetSize: size, reader: &stream.reader,
                                                            lengths: lengths, store: &scratch)
                        }
                        continue
                    }
                    codes.groups[target] = try readGroup(cacheSize: cacheSize, reader: &stream.reader,
                                                         lengths: lengths, tables: &codes.tables)
                }
            }
            return codes
        }

        private static func readGroup(cacheSize: Int, reader: inout LosslessBitReader,
                                      lengths: UnsafeMutableBufferPointer<UInt8>,
                                      tables: inout [UInt16]) throws(LosslessDefect) -> LosslessCodeGroup {
            var group = LosslessCodeGroup()
            var starts = [0, 0, 0, 0, 0]
            for kind in 0..<5 {
                let size = alphabetSizes[kind] + (kind == 0 ? cacheSize : 0)
                starts[kind] = try LosslessPrefixCode.read(alphabetSize: size, reader: &reader,
                                                           lengths: lengths, store: &tables)
            }
            group.green = starts[0]
            group.red = starts[1]
            group.blue = starts[2]
            group.alpha = starts[3]
            group.distance = starts[4]
            // A table whose first root entry has length 0 belongs to a single-symbol code.
            func single(_ start: Int) -> UInt32? {
                let entry = tables[start]
                return entry >> 12 == 0 ? UInt32(entry & 0xfff) : nil
            }
            if let red = single(group.red), let blue = single(group.blue), let alpha = single(group.alpha) {
                group.hasTrivialLiteral = true
                group.literalARB = alpha << 24 | red << 16 | blue
                if let green = single(group.green), green < 256, single(group.distance) != nil {
                    group.isConstant = true
                    group.literalARB |= green << 8
                }
            }
            return group
        }
    }

    /// `ceil(size / 2^bits)`, the size of a subsampled image (RFC 9649 §4, `DIV_ROUND_UP`).
    @inline(__always)
    static func subsampledSize(_ size: Int, _ bits: Int) -> Int {
        (size + (1 << bits) - 1) >> bits
    }
}
