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
        ///
        /// The coded pixels go to the last `codedWidth * height` words of `storage`
        /// when it is given (it must hold `width * height` words: the caller's output,
        /// so no second image-sized buffer is needed), else to a buffer of their own.
        /// `onRows(coded, rows, retired)` is called as rows complete: the first `rows`
        /// rows of `coded` are final, and no later backward reference can read the
        /// first `retired` rows (they are further back than the longest distance), so
        /// the caller may overwrite the words they occupy.
        mutating func decodeMainImage(width: Int, height: Int, storage: UnsafeMutableBufferPointer<UInt32>?,
                                      onHeader: ([LosslessTransform], Int) throws(LosslessDefect) -> Void,
                                      onRows: (UnsafePointer<UInt32>, Int, Int) -> Void) throws(LosslessDefect) {
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
            guard let storage, let end = storage.baseAddress.map({ $0 + storage.count }) else {
                _ = try decodeEntropyCodedImage(width: codedWidth, height: height, allowMeta: true) { coded, rows in
                    onRows(coded, rows, rows)
                }
                return
            }
            let count = codedWidth * height
            guard storage.count >= count else { throw .outputSize(expected: count * 4, actual: storage.count * 4) }
            let codes = try readCodes(width: codedWidth, height: height, allowMeta: true)
            // Safe: the last `count` words of storage.
            let pixels = UnsafeMutableBufferPointer(start: end - count, count: count)
            let reach = Self.longestDistance(width: codedWidth)
            try decodePixels(into: pixels, width: codedWidth, codes: codes) { rows in
                // `rows * codedWidth` pixels are decoded; a reference from any later pixel
                // reaches back at most `reach`.
                let retired = rows == height ? height : max(0, rows &* codedWidth &- reach) / codedWidth
                onRows(UnsafePointer(end - count), rows, retired)
            }
        }

        /// The longest backward reference in pixels in a stream `width` wide: the
        /// largest distance code (prefix symbol 39 with 18 extra bits, 1_048_576) less
        /// the 120 map codes, or the farthest map entry (8, 7).
        static func longestDistance(width: Int) -> Int { max(1_048_576 - 120, 7 * width + 8) }

        /// A sub-image (entropy image, predictor or colour transform data, palette):
        /// no transforms and a single prefix-code group (RFC 9649 §5.1).
        mutating func decodeSubImage(width: Int, height: Int) throws(LosslessDefect) -> [UInt32] {
            try decodeEntropyCodedImage(width: width, height: height, allowMeta: false) { _, _ in }
        }

        /// The colour cache size and the prefix codes in front of an image's pixels.
        private mutating func readCodes(width: Int, height: Int, allowMeta: Bool) throws(LosslessDefect) -> LosslessCodes {
            var cacheBits = 0
            if reader.read(1) == 1 {
                cacheBits = reader.readInt(4)
                guard (1...11).contains(cacheBits) else { throw .colorCacheBits(cacheBits) }
            }
            return try LosslessCodes.read(width: width, height: height, colorCacheBits: cacheBits,
                                          allowMeta: allowMeta, stream: &self)
        }

        private mutating func decodeEntropyCodedImage(width: Int, height: Int, allowMeta: Bool,
                                                      onRows: (UnsafePointer<UInt32>, Int) -> Void)
            throws(LosslessDefect) -> [UInt32] {
            let codes = try readCodes(width: width, height: height, allowMeta: allowMeta)
            let count = width * height
            try reserve(count, of: 4)
            var failure: LosslessDefect?
            // Not zero-filled first: the decoder writes every pixel in order and reads
            // only pixels it has written (references point back, rows are handed on once
            // complete); a failed decode's array is dropped with its count set to 0.
            let pixels = [UInt32](unsafeUninitializedCapacity: count) { pixels, initialized in
                do throws(LosslessDefect) {
                    try decodePixels(into: pixels, width: width, codes: codes) { rows in
                        // Safe: pixels is non-empty (width, height >= 1) and outlives the call.
                        if let base = pixels.baseAddress { onRows(base, rows) }
                    }
                    initialized = count
                } catch {
                    failure = error
                    initialized = 0
                }
            }
            if let failure { throw failure }
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
                // Each group with its tables as pointers: one load per code in the pixel loop.
                // Safe: the tables array is neither changed nor freed during this scope.
                guard let table = tables.baseAddress else { return nil }
                let resolved = codes.groups.map { ResolvedGroup($0, tables: table) }
                return resolved.withUnsafeBufferPointer { groups in
                    codes.entropyImage.withUnsafeBufferPointer { entropy in
                        cache.withUnsafeMutableBufferPointer { cache in
                            Self.decodePixels(into: pixels, width: width, groups: groups,
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

        /// A prefix-code group with its five tables as pointers into the tables store
        /// and its literal shortcut as one kind byte, for the pixel loop.
        private struct ResolvedGroup {
            let green: UnsafePointer<UInt16>
            let red: UnsafePointer<UInt16>
            let blue: UnsafePointer<UInt16>
            let alpha: UnsafePointer<UInt16>
            let distance: UnsafePointer<UInt16>
            let literalARB: UInt32
            /// ``normal``, ``trivialLiteral`` or ``constant``.
            let kind: UInt8

            static let normal: UInt8 = 0
            /// Red, blue and alpha read no bits: a literal is `literalARB | green << 8`.
            static let trivialLiteral: UInt8 = 1
            /// No code reads bits and green is a literal: every pixel is `literalARB`.
            static let constant: UInt8 = 2

            init(_ group: LosslessCodeGroup, tables: UnsafePointer<UInt16>) {
                // Safe: the offsets were returned by the table builder for this store.
                green = tables + group.green
                red = tables + group.red
                blue = tables + group.blue
                alpha = tables + group.alpha
                distance = tables + group.distance
                literalARB = group.literalARB
                kind = group.isConstant ? Self.constant : group.hasTrivialLiteral ? Self.trivialLiteral : Self.normal
            }
        }

        // swiftlint:disable:next function_body_length
        private static func decodePixels(into pixels: UnsafeMutableBufferPointer<UInt32>, width: Int,
                                         groups: UnsafeBufferPointer<ResolvedGroup>,
                                         entropy: UnsafeBufferPointer<UInt32>, codes: LosslessCodes,
                                         cache: UnsafeMutableBufferPointer<UInt32>,
                                         reader: inout LosslessBitReader,
                                         onRows: (Int) -> Void) -> LosslessDefect? {
            guard let out = pixels.baseAddress, let cachePointer = cache.baseAddress,
                  let firstGroup = groups.baseAddress else { return nil }
            // The next pixel to write, and the end of the image.
            var dst = out
            let end = out + pixels.count
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

            @inline(__always) func groupAt(_ x: Int, _ y: Int) -> UnsafePointer<ResolvedGroup> {
                guard hasEntropyImage else { return firstGroup }
                // Safe: x < width and y < height, so the block lies inside the entropy image,
                // whose values were remapped to indices below groups.count.
                return firstGroup + Int(entropy[(y >> entropyBits) &* entropyWidth &+ (x >> entropyBits)])
            }
            /// Length and distance prefix codes → values (RFC 9649 §5.2.2).
            @inline(__always) func prefixValue(_ symbol: Int, _ reader: inout LosslessBitReader) -> Int {
                if symbol < 4 { return symbol + 1 }
                let extraBits = (symbol - 2) >> 1
                let offset = (2 + (symbol & 1)) << extraBits
                return offset + reader.readInt(extraBits) + 1
            }

            // The reader lives in registers for the loop and goes back to the caller at the end.
            var bits = reader
            defer { reader = bits }
            var x = 0
            var y = 0
            // Pixels before `cached` are in the colour cache. Like libwebp, pixels are
            // added in order at the end of each row and before each cache lookup,
            // which gives the same cache as adding each pixel as it is decoded.
            var cached = out
            @inline(__always) func fillCache() {
                guard usesCache, cached < dst else { return }
                var next = cached
                // Safe: next (and next + 1 in the pair loop) < dst, decoded pixels; the hash
                // keeps the top cacheBits bits, below cache.count. Pairs are stored in order, so
                // the later pixel wins a shared slot as it would one at a time.
                while dst - next >= 2 {
                    let first = next[0]
                    let second = next[1]
                    cachePointer[Int((first &* 0x1e35_a7bd) >> cacheShift)] = first
                    cachePointer[Int((second &* 0x1e35_a7bd) >> cacheShift)] = second
                    next += 2
                }
                if next < dst {
                    let pixel = next.pointee
                    cachePointer[Int((pixel &* 0x1e35_a7bd) >> cacheShift)] = pixel
                    next += 1
                }
                cached = next
            }

            // The current group, read through one pointer (as libwebp does) to keep
            // registers for the bit reader.
            var group = groupAt(0, 0)
            @inline(__always) func finishRows() {
                while x >= width { x &-= width; y &+= 1 }
                fillCache()
                onRows(y)
            }

            while dst < end {
                if x & blockMask == 0 { group = groupAt(x, y) }
                let kind = group.pointee.kind
                if kind == ResolvedGroup.constant {
                    // Safe: dst < end.
                    dst.pointee = group.pointee.literalARB
                    dst += 1
                    x &+= 1
                    if x == width { finishRows() }
                    continue
                }
                bits.refill()
                let code = LosslessPrefixCode.decode(group.pointee.green, rootBits: rootBits, &bits)
                if code < 256 {
                    let pixel: UInt32
                    if kind == ResolvedGroup.trivialLiteral {
                        pixel = group.pointee.literalARB | UInt32(truncatingIfNeeded: code) << 8
                    } else {
                        // 56 bits after the refill cover green and red (15 each); refill before blue.
                        let r = LosslessPrefixCode.decode(group.pointee.red, rootBits: rootBits, &bits)
                        bits.refill()
                        let b = LosslessPrefixCode.decode(group.pointee.blue, rootBits: rootBits, &bits)
                        let a = LosslessPrefixCode.decode(group.pointee.alpha, rootBits: rootBits, &bits)
                        pixel = UInt32(truncatingIfNeeded: a << 24 | r << 16 | code << 8 | b)
                    }
                    // Safe: dst < end.
                    dst.pointee = pixel
                    dst += 1
                    x &+= 1
                    if x == width { finishRows() }
                } else if code < 280 {
                    let length = prefixValue(code - 256, &bits)
                    bits.refill()
                    let distanceSymbol = LosslessPrefixCode.decode(group.pointee.distance, rootBits: rootBits, &bits)
                    bits.refill()
                    let distanceCode = prefixValue(distanceSymbol, &bits)
                    let offset = planeDistance(distanceCode, width: width)
                    if bits.isPastEnd { return .endOfData }
                    guard offset <= dst - out, length <= end - dst else {
                        return .invalidBackwardReference(distance: offset, length: length)
                    }
                    // Safe: dst - offset >= out and dst + length <= end. Copied one pixel
                    // at a time in order, so an overlapping reference repeats its pattern.
                    if offset >= length {
                        dst.update(from: dst - offset, count: length)
                    } else if offset == 1 {
                        dst.update(repeating: dst[-1], count: length)
                    } else {
                        var source = dst - offset
                        var to = dst
                        let stop = dst + length
                        while to < stop {
                            to.pointee = source.pointee
                            source += 1
                            to += 1
                        }
                    }
                    dst += length
                    x &+= length
                    if x >= width { finishRows() }
                    if dst < end { group = groupAt(x, y) }
                } else if code < cacheLimit {
                    if bits.isPastEnd { return .endOfData }
                    fillCache()
                    // Safe: code - 280 < 1 << cacheBits = cache.count; dst < end.
                    dst.pointee = cachePointer[code &- 280]
                    dst += 1
                    x &+= 1
                    if x == width { finishRows() }
                } else {
                    return .invalidSymbol(code)
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
