extension AVIF {
    /// The sequence header's `color_config()` (AV1 §5.5.2, semantics §6.4.2).
    public struct ColorConfig: Sendable, Hashable {
        public var bitDepth = 8
        public var isMonochrome = false
        /// H.273 code points; 2 (unspecified) when `color_description_present_flag` is 0.
        public var codePoints = CodingIndependentCodePoints(colorPrimaries: 2, transferCharacteristics: 2,
                                                            matrixCoefficients: 2, isFullRange: false)
        public var subsamplingX = true
        public var subsamplingY = true
        /// `chroma_sample_position`: 0 unknown, 1 vertical (left), 2 colocated.
        public var chromaSamplePosition = 0
        public var separateUVDeltaQ = false

        init() {}

        init(_ reader: inout BitReader, profile: Int) throws(ImageDecodingError) {
            let highBitDepth = try reader.flag()
            if profile == 2 && highBitDepth {
                bitDepth = try reader.flag() ? 12 : 10
            } else {
                bitDepth = highBitDepth ? 10 : 8
            }
            isMonochrome = profile == 1 ? false : try reader.flag()
            if try reader.flag() {
                let primaries = try reader.bits(8), transfer = try reader.bits(8), matrix = try reader.bits(8)
                codePoints = CodingIndependentCodePoints(colorPrimaries: UInt16(primaries), transferCharacteristics: UInt16(transfer),
                                                         matrixCoefficients: UInt16(matrix), isFullRange: false)
            }
            if isMonochrome {
                codePoints.isFullRange = try reader.flag()
                return
            }
            let points = codePoints
            if points.colorPrimaries == 1 && points.transferCharacteristics == 13 && points.matrixCoefficients == 0 {
                // sRGB primaries and transfer with the identity matrix: full-range 4:4:4.
                codePoints.isFullRange = true
                subsamplingX = false
                subsamplingY = false
            } else {
                codePoints.isFullRange = try reader.flag()
                switch profile {
                case 0: break
                case 1: subsamplingX = false; subsamplingY = false
                default:
                    if bitDepth == 12 {
                        subsamplingX = try reader.flag()
                        subsamplingY = subsamplingX ? try reader.flag() : false
                    } else {
                        subsamplingY = false
                    }
                }
                if subsamplingX && subsamplingY { chromaSamplePosition = try reader.bits(2) }
            }
            // §6.4.2: the identity matrix needs 4:4:4.
            if codePoints.matrixCoefficients == 0 && (subsamplingX || subsamplingY) { throw .avif(.colorConfig) }
            separateUVDeltaQ = try reader.flag()
        }
    }
}
