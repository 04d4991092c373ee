extension JPEG {
    /// Quantised coefficient blocks of each component (natural order, 64
    /// `Int16` per block), for one MCU row (sequential, standard tables) or for
    /// the whole image (optimised tables and progressive scans, which read the
    /// coefficients more than once).
    struct CoefficientStore: Sendable {
        /// Per component, block rows × padded blocks per row × 64.
        var planes: [[Int16]]
        /// Block rows held per component.
        let blockRows: [Int]

        init(layout: EncodingLayout, mcuRows: Int) {
            blockRows = layout.components.map { $0.verticalSampling &* mcuRows }
            planes = zip(layout.components, blockRows).map { component, rows in
                [Int16](repeating: 0, count: rows &* component.paddedBlocksPerRow &* 64)
            }
        }
    }
}
