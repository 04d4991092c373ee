extension WebP.BackwardReferences {
    /// The tokens of least total cost under the symbol costs of `model` (a
    /// histogram of a first, greedy tokenisation with the same cache): a
    /// shortest path over the positions, each either a literal (or cache hit)
    /// or the start of a copy of any length up to its longest match — what
    /// libwebp's `TraceBackwards` does. The colour cache holds the same pixels
    /// whatever the path (every pixel enters it in order), so a cache hit's
    /// cost is exact.
    static func optimalTokens(_ argb: [UInt32], width: Int, chainLength: Int, cacheBits: Int,
                              model: WebP.LosslessHistogram) -> [WebP.PixelToken] {
        let count = argb.count
        guard count > 1 else { return argb.map(WebP.PixelToken.literal) }
        // Unseen symbols a little dearer than the rarest: possible, but not chosen lightly.
        let costs = model.bitCosts(unseenPenalty: 2).map { Float($0) }
        var finder = WebP.MatchFinder(argb, width: width, chainLength: chainLength)
        var best = [Float](repeating: .infinity, count: count + 1)
        var arrivingLength = [UInt16](repeating: 1, count: count + 1)
        var arrivingDistance = [Int32](repeating: 0, count: count + 1)
        best[0] = 0
        var cache = [UInt32](repeating: 0, count: cacheBits > 0 ? 1 << cacheBits : 0)
        var filled = [Bool](repeating: false, count: cache.count)
        let starts = model.starts
        let shortLengths = 16
        var previous = (length: 0, distance: 0)
        for position in 0..<count {
            let pixel = argb[position]
            var literal = costs[Int((pixel >> 8) & 0xff)] + costs[starts[1] + Int((pixel >> 16) & 0xff)]
                + costs[starts[2] + Int(pixel & 0xff)] + costs[starts[3] + Int(pixel >> 24)]
            if cacheBits > 0 {
                let key = WebP.LosslessHistogram.cacheKey(pixel, bits: cacheBits)
                if filled[key], cache[key] == pixel { literal = min(literal, costs[256 + 24 + key]) }
                cache[key] = pixel
                filled[key] = true
            }
            if best[position] + literal < best[position + 1] {
                best[position + 1] = best[position] + literal
                arrivingLength[position + 1] = 1
            }
            // A long match found one position back continues here; searching again would find it again.
            var match: (length: Int, distance: Int)
            if previous.length > 32 {
                match = (previous.length - 1, previous.distance)
            } else {
                finder.insert(upTo: position)
                match = finder.bestMatch(at: position)
            }
            previous = match
            guard match.length >= 2 else { continue }
            let code = WebP.PrefixValue(finder.codes.code(match.distance))
            let distanceCost = best[position] + costs[starts[4] + code.prefix] + Float(code.extraBits)
            for length in 2...match.length where length <= shortLengths || length == match.length {
                let value = WebP.PrefixValue(length)
                let total = distanceCost + costs[256 + value.prefix] + Float(value.extraBits)
                if total < best[position + length] {
                    best[position + length] = total
                    arrivingLength[position + length] = UInt16(length)
                    arrivingDistance[position + length] = Int32(match.distance)
                }
            }
        }
        var tokens: [WebP.PixelToken] = []
        var end = count
        while end > 0 {
            let length = Int(arrivingLength[end])
            if length == 1 {
                tokens.append(.literal(argb[end - 1]))
            } else {
                tokens.append(WebP.PixelToken(kind: .copy, length: length,
                                              value: UInt32(finder.codes.code(Int(arrivingDistance[end])))))
            }
            end -= length
        }
        tokens.reverse()
        return tokens
    }
}
