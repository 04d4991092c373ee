extension WebP {
    /// Meta prefix codes (RFC 9649 §3.7.2.2): the image is cut into tiles, each
    /// tile's symbols counted, and the tiles gathered into a few groups that
    /// share prefix codes, where sharing costs fewer bits than describing
    /// another set of codes.
    ///
    /// Three steps, after libwebp's `histogram_enc.c` but simpler: tiles with
    /// similar literal entropies are binned together; bins are merged pairwise,
    /// the cheapest merge first, while a merge saves bits (or there are more
    /// groups than allowed); then every tile moves to the group whose codes
    /// code it in the fewest bits, twice.
    enum HistogramClustering {
        /// Prefix-code groups and which group codes each tile.
        struct Grouping {
            /// log2 of the tile size (meaningful only with more than one group).
            var bits: Int
            /// Group per tile, row after row.
            var tileGroups: [UInt16]
            var histograms: [LosslessHistogram]

            /// One group for the whole image.
            init(single tokens: [PixelToken], cacheBits: Int) {
                var histogram = LosslessHistogram(cacheBits: cacheBits)
                for token in tokens { histogram.add(token) }
                bits = 0
                tileGroups = []
                histograms = [histogram]
            }

            init(bits: Int, tileGroups: [UInt16], histograms: [LosslessHistogram]) {
                self.bits = bits
                self.tileGroups = tileGroups
                self.histograms = histograms
            }
        }

        /// At most this many tiles are counted; larger images get larger tiles.
        private static let maxTiles = 4096
        /// Bins per literal-entropy axis (green, red, blue).
        private static let binsPerAxis = 4

        static func group(_ tokens: [PixelToken], width: Int, height: Int, bits requestedBits: Int,
                          cacheBits: Int, maxGroups: Int) -> Grouping {
            var bits = requestedBits
            while bits < 9, subsampledSize(width, bits) * subsampledSize(height, bits) > maxTiles { bits += 1 }
            let tilesWide = subsampledSize(width, bits)
            let tileCount = tilesWide * subsampledSize(height, bits)
            let empty = LosslessHistogram(cacheBits: cacheBits)
            var tiles = [LosslessHistogram](repeating: empty, count: tileCount)
            var x = 0, y = 0
            for token in tokens {
                tiles[(y >> bits) * tilesWide + (x >> bits)].add(token)
                x += token.length
                if x >= width {
                    y += x / width
                    x %= width
                }
            }
            // Sparse views of the tiles: most of a tile's counts are zero.
            let sparse: [[(index: Int32, count: UInt32)]] = tiles.map { tile in
                tile.counts.indices.compactMap { tile.counts[$0] > 0 ? (Int32($0), tile.counts[$0]) : nil }
            }

            var groups = binnedGroups(tiles, sparse: sparse, empty: empty)
            mergeGreedily(&groups, maxGroups: maxGroups)
            var assignment = [UInt16](repeating: 0, count: tileCount)
            for _ in 0..<2 {
                let costs = groups.map { $0.bitCosts(unseenPenalty: 8) }
                for tile in 0..<tileCount where !sparse[tile].isEmpty {
                    var best = 0
                    var bestCost = Double.infinity
                    for (group, cost) in costs.enumerated() {
                        var bits = 0.0
                        for entry in sparse[tile] { bits += Double(entry.count) * cost[Int(entry.index)] }
                        if bits < bestCost {
                            bestCost = bits
                            best = group
                        }
                    }
                    assignment[tile] = UInt16(best)
                }
                // Rebuild the groups from their tiles, dropping groups no tile chose.
                var rebuilt = [LosslessHistogram](repeating: empty, count: groups.count)
                for tile in 0..<tileCount { rebuilt[Int(assignment[tile])].merge(tiles[tile]) }
                var renumber = [Int](repeating: -1, count: groups.count)
                groups = []
                for (old, histogram) in rebuilt.enumerated() where histogram.counts.contains(where: { $0 > 0 }) {
                    renumber[old] = groups.count
                    groups.append(histogram)
                }
                if groups.isEmpty { return Grouping(single: tokens, cacheBits: cacheBits) }
                for tile in 0..<tileCount { assignment[tile] = UInt16(max(0, renumber[Int(assignment[tile])])) }
            }
            if groups.count == 1 { return Grouping(single: tokens, cacheBits: cacheBits) }
            return Grouping(bits: bits, tileGroups: assignment, histograms: groups)
        }

        /// Tiles binned by their green, red and blue literal entropies (each
        /// quantised into ``binsPerAxis`` levels between the extremes), one group per bin.
        private static func binnedGroups(_ tiles: [LosslessHistogram], sparse: [[(index: Int32, count: UInt32)]],
                                         empty: LosslessHistogram) -> [LosslessHistogram] {
            let entropies: [[Double]] = tiles.map { tile in
                (0..<3).map { kind in
                    let slice = tile.counts[tile.starts[kind]..<tile.starts[kind + 1]]
                    let total = slice.reduce(0) { $0 + Int($1) }
                    return total == 0 ? 0 : LosslessHistogram.entropyBits(slice) / Double(total)
                }
            }
            var low = [Double](repeating: .infinity, count: 3)
            var high = [Double](repeating: -.infinity, count: 3)
            for (tile, values) in entropies.enumerated() where !sparse[tile].isEmpty {
                for axis in 0..<3 {
                    low[axis] = min(low[axis], values[axis])
                    high[axis] = max(high[axis], values[axis])
                }
            }
            var binOfKey = [Int: Int]()
            var groups: [LosslessHistogram] = []
            for (tile, values) in entropies.enumerated() where !sparse[tile].isEmpty {
                var key = 0
                for axis in 0..<3 {
                    let span = high[axis] - low[axis]
                    let level = span > 0 ? min(binsPerAxis - 1, Int((values[axis] - low[axis]) / span * Double(binsPerAxis))) : 0
                    key = key * binsPerAxis + level
                }
                if let bin = binOfKey[key] {
                    groups[bin].merge(tiles[tile])
                } else {
                    binOfKey[key] = groups.count
                    groups.append(tiles[tile])
                }
            }
            return groups.isEmpty ? [empty] : groups
        }

        /// Merges the pair of groups that saves the most bits until none saves
        /// any and at most `maxGroups` remain.
        private static func mergeGreedily(_ groups: inout [LosslessHistogram], maxGroups: Int) {
            var costs = groups.map(\.estimatedBits)
            func saving(_ a: Int, _ b: Int) -> Double {
                var merged = groups[a]
                merged.merge(groups[b])
                return costs[a] + costs[b] - merged.estimatedBits
            }
            var savings = [[Double]](repeating: [], count: groups.count)
            for a in groups.indices { savings[a] = (0..<a).map { saving(a, $0) } }
            while groups.count > 1 {
                var best = (a: 0, b: 0, saving: -Double.infinity)
                for a in groups.indices {
                    for b in 0..<a where savings[a][b] > best.saving { best = (a, b, savings[a][b]) }
                }
                guard best.saving > 0 || groups.count > maxGroups else { break }
                groups[best.b].merge(groups[best.a])
                costs[best.b] = groups[best.b].estimatedBits
                groups.remove(at: best.a)
                costs.remove(at: best.a)
                savings.remove(at: best.a)
                for a in savings.indices where a > best.a { savings[a].remove(at: best.a) }
                for a in groups.indices where a != best.b {
                    if a > best.b { savings[a][best.b] = saving(a, best.b) } else { savings[best.b][a] = saving(best.b, a) }
                }
            }
        }
    }
}
