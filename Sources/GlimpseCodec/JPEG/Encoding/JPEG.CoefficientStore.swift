extension JPEG {
    /// Quantised coefficient blocks of each component (zig-zag order, 64
    /// `Int16` per block), for one MCU row (sequential, standard tables) or for
    /// the whole image (optimised tables and progressive scans, which read the
    /// coefficients more than once).
    struct CoefficientStore: Sendable {
        /// Every component's blocks, one after the other: component c's
        /// block rows × padded blocks per row × 64 values from `offsets[c]`.
        /// One array, so that the hot loops open one buffer for all components.
        var coefficients: [Int16]
        /// Per block (block i is coefficients 64i ..< 64i + 64): whether all
        /// its AC coefficients are zero, as the forward DCT found, so that the
        /// sequential coder writes EOB without looking at them.
        var acZero: [Bool]
        /// Where each component's blocks start in ``coefficients``.
        let offsets: [Int]
        /// Block rows held per component.
        let blockRows: [Int]

        init(layout: EncodingLayout, mcuRows: Int) {
            blockRows = layout.components.map { $0.verticalSampling &* mcuRows }
            var offsets: [Int] = []
            var total = 0
            for (component, rows) in zip(layout.components, blockRows) {
                offsets.append(total)
                total += rows * component.paddedBlocksPerRow * 64
            }
            self.offsets = offsets
            coefficients = [Int16](repeating: 0, count: total)
            acZero = [Bool](repeating: false, count: total / 64)
        }
    }
}
