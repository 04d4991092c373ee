extension WebP {
    /// Writes one entropy-coded image (RFC 9649 §5): the colour cache size, for
    /// the main image the meta prefix codes (entropy image), the prefix-code
    /// groups, then the pixels as LZ77 tokens.
    enum LosslessImageWriter {
        static func write(_ argb: [UInt32], width: Int, height: Int, isMain: Bool, effort: LosslessEffort,
                          into writer: inout LosslessBitWriter) {
            var tokens = BackwardReferences.tokens(argb, width: width, chainLength: effort.chainLength,
                                                   lazy: effort.lazyMatching)
            let cacheBits = BackwardReferences.bestCacheBits(tokens, argb, bitsToTry: argb.count < 64 ? [0] : effort.cacheBits)
            tokens = BackwardReferences.applyCache(tokens, argb, bits: cacheBits)
            if effort.optimalParsing, argb.count >= 64 {
                var model = LosslessHistogram(cacheBits: cacheBits)
                for token in tokens { model.add(token) }
                let optimal = BackwardReferences.optimalTokens(argb, width: width, chainLength: effort.chainLength,
                                                               cacheBits: cacheBits, model: model)
                tokens = BackwardReferences.applyCache(optimal, argb, bits: cacheBits)
            }
            if cacheBits > 0 {
                writer.write(1, 1)
                writer.write(cacheBits, 4)
            } else {
                writer.write(0, 1)
            }

            var grouping = HistogramClustering.Grouping(single: tokens, cacheBits: cacheBits)
            if isMain, let bits = effort.entropyBits, width > 1 << bits || height > 1 << bits {
                grouping = HistogramClustering.group(tokens, width: width, height: height, bits: bits,
                                                     cacheBits: cacheBits, maxGroups: effort.maxGroups)
            }
            if isMain {
                if grouping.histograms.count > 1 {
                    writer.write(1, 1)
                    writer.write(grouping.bits - 2, 3)
                    let entropyImage = grouping.tileGroups.map { UInt32($0) << 8 }
                    write(entropyImage, width: subsampledSize(width, grouping.bits), height: subsampledSize(height, grouping.bits),
                          isMain: false, effort: effort, into: &writer)
                } else {
                    writer.write(0, 1)
                }
            }

            let codes = grouping.histograms.map { histogram in
                (0..<5).map { EncoderPrefixCode(counts: histogram.alphabet($0), limit: LosslessPrefixCode.maxCodeLength) }
            }
            for group in codes {
                for code in group { code.writeHeader(into: &writer) }
            }
            writeTokens(tokens, width: width, grouping: grouping, codes: codes, into: &writer)
        }

        private static func writeTokens(_ tokens: [PixelToken], width: Int, grouping: HistogramClustering.Grouping,
                                        codes: [[EncoderPrefixCode]], into writer: inout LosslessBitWriter) {
            var x = 0
            var y = 0
            let tilesWide = subsampledSize(width, grouping.bits)
            let single = grouping.histograms.count == 1
            for token in tokens {
                let group = single ? codes[0] : codes[Int(grouping.tileGroups[(y >> grouping.bits) * tilesWide + (x >> grouping.bits)])]
                switch token.kind {
                case .literal:
                    let argb = token.value
                    let green = Int((argb >> 8) & 0xff), red = Int((argb >> 16) & 0xff)
                    let blue = Int(argb & 0xff), alpha = Int(argb >> 24)
                    writer.write(code: group[0].codes[green], length: group[0].emittedLengths[green])
                    writer.write(code: group[1].codes[red], length: group[1].emittedLengths[red])
                    writer.write(code: group[2].codes[blue], length: group[2].emittedLengths[blue])
                    writer.write(code: group[3].codes[alpha], length: group[3].emittedLengths[alpha])
                case .cacheIndex:
                    let symbol = 256 + 24 + Int(token.value)
                    writer.write(code: group[0].codes[symbol], length: group[0].emittedLengths[symbol])
                case .copy:
                    let length = PrefixValue(token.length)
                    writer.write(code: group[0].codes[256 + length.prefix], length: group[0].emittedLengths[256 + length.prefix])
                    writer.write(length.extra, length.extraBits)
                    let distance = PrefixValue(Int(token.value))
                    writer.write(code: group[4].codes[distance.prefix], length: group[4].emittedLengths[distance.prefix])
                    writer.write(distance.extra, distance.extraBits)
                }
                x += token.length
                if x >= width {
                    y += x / width
                    x %= width
                }
            }
        }
    }
}
