extension WebP {
    /// Decodes the entropy-coded image streams of a VP8L bitstream (RFC 9649 §5):
    /// the transforms' headers and sub-images, the colour cache, the prefix codes
    /// and the LZ77-coded pixels.
    struct LosslessStreamDecoder {
        var reader: LosslessBitReader
        let limits: DecodingLimits
        /// Bytes of working memory reserved so far against `limits.maxTotalBytes`.
        private(set) var reservedBytes: Int

        init(reader: LosslessBitReader, limits: DecodingLimits, reservedBytes: Int) {
            self.reader = reader
            self.limits = limits
            self.reservedBytes = reservedBytes
        }

        /// Counts `count` items of `size` bytes against the byte limit before they
        /// are allocated.
        mutating func reserve(_ count: Int, of size: Int) throws(LosslessDefect) {
            do {
                reservedBytes &+= try limits.checkBytes(count, of: size, alreadyUsed: reservedBytes)
            } catch {
                throw .limitExceeded(.totalBytes)
            }
        }

        /// The main image stream (level 0, RFC 9649 §5.1): transforms, colour
        /// cache, meta prefix codes, then the coded pixels, `codedWidth` wide
        /// (narrower than `width` when colour indexing bundles pixels).
        /// `onRows(coded, rows)` is called as rows complete: the first `rows` rows of
        /// `coded` are final and will not change.
        mutating func decodeMainImage(width: Int, height: Int,
                                      onHeader: ([LosslessTransform], Int) throws(LosslessDefect) -> Void,
                                      onRows: (UnsafePointer<UInt32>, Int) -> Void) throws(LosslessDefect) {
            var transforms: [LosslessTransform] = []
            var seen: Set<Int> = []
            var codedWidth = width
            while reader.read(1) == 1 {
                let type = reader.readInt(2)
                guard seen.insert(type).inserted else { throw .repeatedTransform(type) }
                let transform = try LosslessTransform.read(type: type, width: codedWidth, height: height, stream: &self)
                codedWidth = transform.codedWidth
                transforms.append(transform)
            }
            try onHeader(transforms, codedWidth)
            _ = try decodeEntropyCodedImage(width: codedWidth, height: height, allowMeta: true, onRows: onRows)
        }

        /// A sub-image (entropy image, predictor or colour transform data, palette):
        /// no transforms and a single prefix-code group (RFC 9649 §5.1).
        mutating func decodeSubImage(width: Int, height: Int) throws(LosslessDefect) -> [UInt32] {
            try decodeEntropyCodedImage(width: width, height: height, allowMeta: false) { _, _ in }
        }

        private mutating func decodeEntropyCodedImage(width: Int, height: Int, allowMeta: Bool,
                                                      onRows: (UnsafePointer<UInt32>, Int) -> Void)
            throws(LosslessDefect) -> [UInt32] {
            var cacheBits = 0
            if reader.read(1) == 1 {
                cacheBits = reader.readInt(4)
                guard (1...11).contains(cacheBits) else { throw .colorCacheBits(cacheBits) }
            }
            let codes = try LosslessCodes.read(width: width, height: height, colorCacheBits: cacheBits,
                                               allowMeta: allowMeta, stream: &self)
            let count = width * height
            try reserve(count, of: 4)
            var pixels = [UInt32](repeating: 0, count: count)
            try pixels.withUnsafeMutableBufferPointer { (pixels) throws(LosslessDefect) in
                try decodePixels(into: pixels, width: width, codes: codes) { rows in
                    // Safe: pixels is non-empty (width, height >= 1) and outlives the call.
                    if let base = pixels.baseAddress { onRows(base, rows) }
                }
            }
            return pixels
        }

        /// Decodes `pixels.count` pixels `width` wide: literals, LZ77 backward
        /// references and colour cache hits (RFC 9649 §5.2), with the checks
        /// libwebp makes (a reference must stay inside the image, the data must
        /// not run out).
        private mutating func decodePixels(into pixels: UnsafeMutableBufferPointer<UInt32>, width: Int,
                                           codes: LosslessCodes, onRows: (Int) -> Void) throws(LosslessDefect) {
            let cacheBits = codes.colorCacheBits
            var cache = [UInt32](repeating: 0, count: 1 << max(cacheBits, 1))
            var local = reader
            let defect: LosslessDefect? = codes.tables.withUnsafeBufferPointer { tables in
                codes.groups.withUnsafeBufferPointer { groups in
                    codes.entropyImage.withUnsafeBufferPointer { entropy in
                        cache.withUnsafeMutableBufferPointer { cache in
                            Self.decodePixels(into: pixels, width: width, tables: tables, groups: groups,
                                              entropy: entropy, codes: codes, cache: cache, reader: &local,
                                              onRows: onRows)
                        }
                    }
                }
            }
            reader = local
            if let defect { throw defect }
            guard !reader.isPastEnd else { throw .endOfData }
        }

        // swiftlint:disable:next function_body_length
        private static func decodePixels(into pixels: UnsafeMutableBufferPointer<UInt32>, width: Int,
                                         tables: UnsafeBufferPointer<UInt32>,
                                         groups: UnsafeBufferPointer<LosslessCodeGroup>,
                                         entropy: UnsafeBufferPointer<UInt32>, codes: LosslessCodes,
                                         cache: UnsafeMutableBufferPointer<UInt32>,
                                         reader: inout LosslessBitReader,
                                         onRows: (Int) -> Void) -> LosslessDefect? {
            guard let out = pixels.baseAddress, let table = tables.baseAddress,
                  let cachePointer = cache.baseAddress else { return nil }
            let total = pixels.count
            let cacheBits = codes.colorCacheBits
            let cacheShift = UInt32(32 - max(cacheBits, 1))
            let cacheLimit = 280 + (cacheBits > 0 ? 1 << cacheBits : 0)
            let usesCache = cacheBits > 0
            let entropyBits = codes.entropyBits
            let entropyWidth = codes.entropyWidth
            let hasEntropyImage = !entropy.isEmpty
            // Without an entropy image the group never changes: test `x & mask` against
            // a mask no column reaches.
            let blockMask = hasEntropyImage ? (1 << entropyBits) - 1 : Int.max
            let rootBits = LosslessPrefixCode.rootBits

            @inline(__always) func groupAt(_ x: Int, _ y: Int) -> LosslessCodeGroup {
                guard hasEntropyImage else { return groups[0] }
                // Safe: x < width and y < height, so the block lies inside the entropy image,
                // whose values were remapped to indices below groups.count.
                return groups[Int(entropy[(y >> entropyBits) * entropyWidth + (x >> entropyBits)])]
            }
            @inline(__always) func insert(_ pixel: UInt32) {
                // Safe: the hash keeps the top cacheBits bits, below cache.count.
                cachePointer[Int((pixel &* 0x1e35_a7bd) >> cacheShift)] = pixel
            }
            /// Length and distance prefix codes → values (RFC 9649 §5.2.2).
            @inline(__always) func prefixValue(_ symbol: Int, _ reader: inout LosslessBitReader) -> Int {
                if symbol < 4 { return symbol + 1 }
                let extraBits = (symbol - 2) >> 1
                let offset = (2 + (symbol & 1)) << extraBits
                return offset + reader.readInt(extraBits) + 1
            }

            var index = 0
            var x = 0
            var y = 0
            var group = groupAt(0, 0)
            while index < total {
                if x & blockMask == 0 { group = groupAt(x, y) }
                if group.isConstant {
                    out[index] = group.literalARB
                    if usesCache { insert(group.literalARB) }
                    index &+= 1
                    x &+= 1
                    if x == width { x = 0; y &+= 1; onRows(y) }
                    continue
                }
                reader.refill()
                let green = LosslessPrefixCode.decode(table + group.green, rootBits: rootBits, &reader)
                if green < 256 {
                    let pixel: UInt32
                    if group.hasTrivialLiteral {
                        pixel = group.literalARB | UInt32(green) << 8
                    } else {
                        // 56 bits after the refill cover green and red (15 each); refill before blue.
                        let red = LosslessPrefixCode.decode(table + group.red, rootBits: rootBits, &reader)
                        reader.refill()
                        let blue = LosslessPrefixCode.decode(table + group.blue, rootBits: rootBits, &reader)
                        let alpha = LosslessPrefixCode.decode(table + group.alpha, rootBits: rootBits, &reader)
                        pixel = UInt32(alpha) << 24 | UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)
                    }
                    // Safe: index < total.
                    out[index] = pixel
                    if usesCache { insert(pixel) }
                    index &+= 1
                    x &+= 1
                    if x == width { x = 0; y &+= 1; onRows(y) }
                } else if green < 280 {
                    let length = prefixValue(green - 256, &reader)
                    reader.refill()
                    let distanceSymbol = LosslessPrefixCode.decode(table + group.distance, rootBits: rootBits, &reader)
                    reader.refill()
                    let distanceCode = prefixValue(distanceSymbol, &reader)
                    let distance = planeDistance(distanceCode, width: width)
                    if reader.isPastEnd { return .endOfData }
                    guard distance <= index, length <= total - index else {
                        return .invalidBackwardReference(distance: distance, length: length)
                    }
                    // Safe: index - distance >= 0 and index + length <= total. Copied one pixel
                    // at a time in order, so an overlapping reference repeats its pattern.
                    var source = out + (index - distance)
                    var target = out + index
                    let end = target + length
                    if usesCache {
                        while target < end {
                            let pixel = source.pointee
                            target.pointee = pixel
                            insert(pixel)
                            source += 1
                            target += 1
                        }
                    } else if distance >= length {
                        target.update(from: source, count: length)
                    } else {
                        while target < end {
                            target.pointee = source.pointee
                            source += 1
                            target += 1
                        }
                    }
                    index &+= length
                    x &+= length
                    if x >= width {
                        while x >= width { x &-= width; y &+= 1 }
                        onRows(y)
                    }
                    if index < total { group = groupAt(x, y) }
                } else if green < cacheLimit {
                    if reader.isPastEnd { return .endOfData }
                    // Safe: green - 280 < 1 << cacheBits = cache.count.
                    let pixel = cachePointer[green - 280]
                    out[index] = pixel
                    insert(pixel)
                    index &+= 1
                    x &+= 1
                    if x == width { x = 0; y &+= 1; onRows(y) }
                } else {
                    return .invalidSymbol(green)
                }
            }
            return nil
        }

        /// A distance code → a distance in pixels: codes 1...120 name nearby pixels
        /// through the distance map (RFC 9649 §5.2.2), larger codes count back by
        /// `code - 120`.
        @inline(__always)
        static func planeDistance(_ code: Int, width: Int) -> Int {
            if code > 120 { return code - 120 }
            let (dx, dy) = distanceMap[code - 1]
            return max(1, Int(dx) + Int(dy) * width)
        }

        /// The (xi, yi) offsets of distance codes 1...120 (RFC 9649 §5.2.2).
        static let distanceMap: [(Int8, Int8)] = [
            (0, 1), (1, 0), (1, 1), (-1, 1), (0, 2), (2, 0), (1, 2), (-1, 2), (2, 1), (-2, 1),
            (2, 2), (-2, 2), (0, 3), (3, 0), (1, 3), (-1, 3), (3, 1), (-3, 1), (2, 3), (-2, 3),
            (3, 2), (-3, 2), (0, 4), (4, 0), (1, 4), (-1, 4), (4, 1), (-4, 1), (3, 3), (-3, 3),
            (2, 4), (-2, 4), (4, 2), (-4, 2), (0, 5), (3, 4), (-3, 4), (4, 3), (-4, 3), (5, 0),
            (1, 5), (-1, 5), (5, 1), (-5, 1), (2, 5), (-2, 5), (5, 2), (-5, 2), (4, 4), (-4, 4),
            (3, 5), (-3, 5), (5, 3), (-5, 3), (0, 6), (6, 0), (1, 6), (-1, 6), (6, 1), (-6, 1),
            (2, 6), (-2, 6), (6, 2), (-6, 2), (4, 5), (-4, 5), (5, 4), (-5, 4), (3, 6), (-3, 6),
            (6, 3), (-6, 3), (0, 7), (7, 0), (1, 7), (-1, 7), (5, 5), (-5, 5), (7, 1), (-7, 1),
            (4, 6), (-4, 6), (6, 4), (-6, 4), (2, 7), (-2, 7), (7, 2), (-7, 2), (3, 7), (-3, 7),
            (7, 3), (-7, 3), (5, 6), (-5, 6), (6, 5), (-6, 5), (8, 0), (4, 7), (-4, 7), (7, 4),
            (-7, 4), (8, 1), (8, 2), (6, 6), (-6, 6), (8, 3), (5, 7), (-5, 7), (7, 5), (-7, 5),
            (8, 4), (6, 7), (-6, 7), (7, 6), (-7, 6), (8, 5), (7, 7), (-7, 7), (8, 6), (8, 7),
        ]
    }
}
