extension WebP {
    /// What each effort level 0…9 spends its time on (as `cwebp -z`: 0 fastest,
    /// 9 smallest). The search widths grow with effort; the transforms and
    /// codes tried are added step by step.
    struct LosslessEffort: Sendable {
        /// Hash-chain candidates per position (LZ77).
        var chainLength: Int
        /// Also try a copy from the next position before committing.
        var lazyMatching: Bool
        /// Re-tokenise by least cost under the greedy pass's statistics.
        var optimalParsing: Bool
        /// Predictor modes tried per tile.
        var predictorModes: [Int]
        /// log2 of the predictor and colour transform tile size.
        var transformBits: Int
        var crossColor: Bool
        /// Colour cache sizes (bits, 0 for none) compared.
        var cacheBits: [Int]
        /// log2 of the entropy image's tile size, or `nil` for one prefix-code group.
        var entropyBits: Int?
        /// Largest number of prefix-code groups clustering may keep.
        var maxGroups: Int
        /// With at most 256 colours, also encode without a palette and keep the smaller.
        var triesWithoutPalette: Bool

        init(level: Int) {
            let level = min(max(level, 0), 9)
            chainLength = [0, 8, 16, 24, 32, 48, 64, 128, 256, 512][level]
            lazyMatching = level >= 3
            optimalParsing = level >= 5
            predictorModes = level == 0 ? [11] : level == 1 ? [1, 2, 11, 12] : Array(0...13)
            transformBits = level <= 2 ? 5 : 4
            crossColor = level >= 2
            cacheBits = level == 0 ? [0] : level <= 2 ? [0, 4, 8, 10] : Array(0...10)
            entropyBits = level >= 4 ? (level >= 6 ? 4 : 5) : nil
            maxGroups = level >= 8 ? 256 : level >= 6 ? 64 : 24
            triesWithoutPalette = level >= 8
        }
    }
}
