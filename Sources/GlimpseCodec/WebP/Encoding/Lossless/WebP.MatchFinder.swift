extension WebP {
    /// Finds LZ77 matches for VP8L (RFC 9649 §5.2.2) through hash chains over
    /// pixel pairs, the distance 1 (a run) and the pixel above always tried.
    /// Among equally long matches the one with the smallest distance code wins.
    struct MatchFinder {
        /// Longest copy the length prefix code can express.
        static let maxLength = 4096
        /// Farthest distance a distance code can express (prefix 39 with 18 extra bits, less the 120 plane codes).
        static let maxDistance = 1_048_576 - 120
        private static let hashBits = 18
        /// A match this long ends the chain walk (zlib's `nice_length`): in flat
        /// areas every candidate matches for thousands of pixels.
        static let goodEnoughLength = 256

        let pixels: [UInt32]
        let width: Int
        let chainLength: Int
        let codes: DistanceCodes
        private var head: [Int32]
        private var chain: [Int32]
        private var inserted = 0

        init(_ pixels: [UInt32], width: Int, chainLength: Int) {
            self.pixels = pixels
            self.width = width
            self.chainLength = chainLength
            codes = DistanceCodes(width: width)
            head = [Int32](repeating: -1, count: chainLength > 0 ? 1 << Self.hashBits : 0)
            chain = [Int32](repeating: -1, count: chainLength > 0 ? pixels.count : 0)
        }

        @inline(__always)
        private func hash(_ position: Int) -> Int {
            let pair = UInt64(pixels[position]) << 32 | UInt64(pixels[position + 1])
            return Int(truncatingIfNeeded: (pair &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - Self.hashBits))
        }

        /// Adds every position before `end` to the chains.
        mutating func insert(upTo end: Int) {
            guard chainLength > 0 else { return }
            while inserted < min(end, pixels.count - 1) {
                let key = hash(inserted)
                chain[inserted] = head[key]
                head[key] = Int32(inserted)
                inserted += 1
            }
        }

        /// The best copy for `position` from the positions inserted so far, or
        /// length 0 when none pays (two pixels are worth a copy only with a
        /// short distance code).
        func bestMatch(at position: Int) -> (length: Int, distance: Int) {
            let count = pixels.count
            let limit = min(Self.maxLength, count - position)
            var bestLength = 0
            var bestDistance = 0
            var bestCode = Int.max
            pixels.withUnsafeBufferPointer { pixels in
                @inline(__always) func consider(_ distance: Int) {
                    guard distance >= 1, distance <= position, distance <= Self.maxDistance else { return }
                    // Safe below: position + length < count and position - distance ≥ 0.
                    let probe = min(bestLength, limit - 1)
                    guard pixels[position + probe] == pixels[position - distance + probe] else { return }
                    var length = 0
                    while length < limit, pixels[position + length] == pixels[position - distance + length] { length += 1 }
                    let code = length >= bestLength ? codes.code(distance) : Int.max
                    if length > bestLength || (length == bestLength && code < bestCode) {
                        bestLength = length
                        bestDistance = distance
                        bestCode = code
                    }
                }
                consider(1)
                consider(width)
                if chainLength > 0, position + 1 < count, bestLength < min(limit, Self.goodEnoughLength) {
                    var candidate = Int(head[hash(position)])
                    var tries = 0
                    while candidate >= 0, tries < chainLength, bestLength < min(limit, Self.goodEnoughLength) {
                        let distance = position - candidate
                        if distance > Self.maxDistance { break }
                        if distance != 1, distance != width { consider(distance) }
                        candidate = Int(chain[candidate])
                        tries += 1
                    }
                }
            }
            if bestLength < 2 || (bestLength == 2 && bestCode > 120) { return (0, 0) }
            return (bestLength, bestDistance)
        }
    }
}
