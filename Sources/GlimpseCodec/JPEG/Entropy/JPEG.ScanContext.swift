extension JPEG {
    /// What the entropy decoder needs for one component of the current scan,
    /// resolved to pointers once per call so the block loop does no lookups.
    struct ScanComponent {
        var index: Int
        var h: Int
        var v: Int
        var blockSize: Int
        var blocksPerLine: Int
        var scanBlocksX: Int
        var scanBlocksY: Int
        var planeStride: Int
        var ringRows: Int
        var plane: UnsafeMutablePointer<UInt8>?
        var coefficients: UnsafeMutablePointer<Int16>?
        /// Coefficients per stored block (``Layout/Component/coefficientStride``).
        var coefficientStride = 64
        var quant: UnsafePointer<Int32>
        /// The same table in 16 bits, for the 8x8 transform (sequential scans only).
        var quant16: UnsafePointer<Int16>?
        var dcTable: UnsafePointer<Int32>
        var acTable: UnsafePointer<Int32>
    }

    /// How a run of MCUs ended.
    enum ScanStep {
        /// The MCUs were decoded.
        case decoded
        /// The available input ran out (more may come): roll back to the checkpoint.
        case needMoreData
        /// A code that is not in its Huffman table.
        case badCode
        /// A progressive DC predictor left the 32-bit range (libjpeg's JERR_BAD_DCT_COEF).
        case coefficientOverflow
    }
}
