extension WebP {
    /// LZ77 for VP8L (RFC 9649 §5.2.2): the pixels as literals and backward
    /// references (found by ``WebP/MatchFinder``), and the colour cache.
    enum BackwardReferences {
        /// The image's pixels as literals and copies, greedily: `chainLength`
        /// hash-chain candidates are tried per position (0: only runs and the row
        /// above); `lazy` also tries the next position before committing to a copy.
        static func tokens(_ argb: [UInt32], width: Int, chainLength: Int, lazy: Bool) -> [PixelToken] {
            let count = argb.count
            var tokens: [PixelToken] = []
            tokens.reserveCapacity(count / 2)
            var finder = MatchFinder(argb, width: width, chainLength: chainLength)
            var position = 0
            while position < count {
                finder.insert(upTo: position)
                let match = finder.bestMatch(at: position)
                if lazy, match.length > 0, match.length < MatchFinder.maxLength, position + 1 < count {
                    // libwebp's lazy step: a literal now may buy a longer copy next.
                    finder.insert(upTo: position + 1)
                    let next = finder.bestMatch(at: position + 1)
                    if next.length > match.length + 1 {
                        tokens.append(.literal(argb[position]))
                        tokens.append(PixelToken(kind: .copy, length: next.length,
                                                 value: UInt32(finder.codes.code(next.distance))))
                        position += 1 + next.length
                        continue
                    }
                }
                if match.length > 0 {
                    tokens.append(PixelToken(kind: .copy, length: match.length, value: UInt32(finder.codes.code(match.distance))))
                    position += match.length
                } else {
                    tokens.append(.literal(argb[position]))
                    position += 1
                }
            }
            return tokens
        }

        /// Replaces literals by colour cache indices where the cache of `bits`
        /// (1…11) holds them, updating it as the decoder does: with every pixel,
        /// copied ones included (RFC 9649 §5.2.3).
        static func applyCache(_ tokens: [PixelToken], _ argb: [UInt32], bits: Int) -> [PixelToken] {
            guard bits > 0 else { return tokens }
            var cache = [UInt32](repeating: 0, count: 1 << bits)
            var filled = [Bool](repeating: false, count: 1 << bits)
            var result = tokens
            var position = 0
            for index in result.indices {
                let token = result[index]
                if token.kind == .literal {
                    let key = LosslessHistogram.cacheKey(token.value, bits: bits)
                    if filled[key], cache[key] == token.value {
                        result[index] = PixelToken(kind: .cacheIndex, length: 1, value: UInt32(key))
                    }
                    cache[key] = token.value
                    filled[key] = true
                } else {
                    for offset in 0..<token.length {
                        let pixel = argb[position + offset]
                        let key = LosslessHistogram.cacheKey(pixel, bits: bits)
                        cache[key] = pixel
                        filled[key] = true
                    }
                }
                position += token.length
            }
            return result
        }

        /// The colour cache size (0 for none, else 1…11 bits) whose tokens have the
        /// smallest estimated entropy, every candidate in `bitsToTry` simulated in one pass.
        static func bestCacheBits(_ tokens: [PixelToken], _ argb: [UInt32], bitsToTry: [Int]) -> Int {
            guard !bitsToTry.isEmpty else { return 0 }
            var histograms = bitsToTry.map { LosslessHistogram(cacheBits: $0) }
            var caches = bitsToTry.map { [UInt32](repeating: 0, count: $0 > 0 ? 1 << $0 : 0) }
            var filled = bitsToTry.map { [Bool](repeating: false, count: $0 > 0 ? 1 << $0 : 0) }
            var position = 0
            for token in tokens {
                if token.kind == .literal {
                    for (slot, bits) in bitsToTry.enumerated() {
                        guard bits > 0 else {
                            histograms[slot].add(token)
                            continue
                        }
                        let key = LosslessHistogram.cacheKey(token.value, bits: bits)
                        if filled[slot][key], caches[slot][key] == token.value {
                            histograms[slot].add(PixelToken(kind: .cacheIndex, length: 1, value: UInt32(key)))
                        } else {
                            histograms[slot].add(token)
                            caches[slot][key] = token.value
                            filled[slot][key] = true
                        }
                    }
                } else {
                    for slot in bitsToTry.indices {
                        histograms[slot].add(token)
                        let bits = bitsToTry[slot]
                        guard bits > 0 else { continue }
                        for offset in 0..<token.length {
                            let pixel = argb[position + offset]
                            let key = LosslessHistogram.cacheKey(pixel, bits: bits)
                            caches[slot][key] = pixel
                            filled[slot][key] = true
                        }
                    }
                }
                position += token.length
            }
            var best = 0
            var bestBits = Double.infinity
            for (slot, bits) in bitsToTry.enumerated() {
                let estimate = histograms[slot].estimatedBits
                if estimate < bestBits {
                    bestBits = estimate
                    best = bits
                }
            }
            return best
        }
    }
}
