extension JPEG {
    /// The frame a ``JPEG/Encoder`` writes: components, sampling factors and
    /// block counts, computed as libjpeg's `jcmaster.c` does
    /// (ITU T.81 §A.1.1, §A.2.4).
    struct EncodingLayout: Sendable {
        struct Component: Sendable {
            /// Component identifier in SOF and SOS (1 = Y, 2 = Cb, 3 = Cr).
            let identifier: UInt8
            let horizontalSampling: Int
            let verticalSampling: Int
            /// Quantisation and Huffman table slot (0 luma, 1 chroma).
            let table: Int
            /// Blocks covering the component's own samples (`width_in_blocks`).
            let widthInBlocks: Int
            let heightInBlocks: Int
            /// Blocks per row including the MCU padding of interleaved scans.
            let paddedBlocksPerRow: Int
            /// Whether the component has fewer samples than the image.
            var isSubsampled: Bool
        }

        let width: Int
        let height: Int
        let components: [Component]
        let maxHorizontalSampling: Int
        let maxVerticalSampling: Int
        /// MCUs per row and MCU rows of an interleaved scan (for one component,
        /// the component's blocks).
        let mcusPerRow: Int
        let mcuRows: Int

        /// Image rows per MCU row (8 × the largest vertical sampling factor).
        var mcuHeight: Int { 8 &* maxVerticalSampling }
        /// Full-resolution samples per row after padding to whole MCUs.
        var paddedWidth: Int { mcusPerRow &* 8 &* maxHorizontalSampling }

        init(width: Int, height: Int, subsampling: EncodingOptions.Subsampling) {
            self.width = width
            self.height = height
            let factors: [(Int, Int)]
            switch subsampling {
            case .grayscale: factors = [(1, 1)]
            case .yCbCr444: factors = [(1, 1), (1, 1), (1, 1)]
            case .yCbCr422: factors = [(2, 1), (1, 1), (1, 1)]
            case .yCbCr420: factors = [(2, 2), (1, 1), (1, 1)]
            }
            let maxH = factors.map(\.0).max() ?? 1, maxV = factors.map(\.1).max() ?? 1
            maxHorizontalSampling = maxH
            maxVerticalSampling = maxV
            mcusPerRow = (width + 8 * maxH - 1) / (8 * maxH)
            mcuRows = (height + 8 * maxV - 1) / (8 * maxV)
            let single = factors.count == 1
            components = factors.enumerated().map { index, factor in
                let wib = (width * factor.0 + maxH * 8 - 1) / (maxH * 8)
                let hib = (height * factor.1 + maxV * 8 - 1) / (maxV * 8)
                return Component(identifier: UInt8(index + 1), horizontalSampling: factor.0, verticalSampling: factor.1,
                                 table: index == 0 ? 0 : 1, widthInBlocks: wib, heightInBlocks: hib,
                                 paddedBlocksPerRow: single ? wib : (width + 8 * maxH - 1) / (8 * maxH) * factor.0,
                                 isSubsampled: factor.0 != maxH || factor.1 != maxV)
            }
        }
    }
}
