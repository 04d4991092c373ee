extension WebP {
    /// The container's view of the lossless (VP8L) decoder in `Lossless/`.
    enum LosslessBridge {
        /// Decodes a `VP8L` chunk payload into straight RGBA8, `width * height * 4` bytes.
        static func decode(_ payload: UnsafeRawBufferPointer, info: BitstreamInfo,
                           options: DecodingOptions) throws(ImageDecodingError) -> [UInt8] {
            throw .unsupported(.other("WebP lossless (VP8L) bitstream"))
        }

        /// Decodes the headerless image stream of an `ALPH` chunk (RFC 9649 §2.7.1.4, method 1)
        /// into `width * height` values: the green channel of each pixel, still filtered.
        static func decodeAlphaStream(_ data: UnsafeRawBufferPointer, width: Int, height: Int,
                                      limits: DecodingLimits) throws(ImageDecodingError) -> [UInt8] {
            throw .unsupported(.other("WebP lossless-compressed alpha"))
        }
    }

    /// The container's view of the lossy (VP8) decoder in `Lossy/`.
    enum LossyBridge {
        /// Decodes a `VP8 ` chunk payload into `rgba` (straight RGBA8, alpha 255, rows of
        /// `width * 4` bytes), calling `rowsDone` with the number of finished rows as they complete.
        static func decode(_ payload: UnsafeRawBufferPointer, info: BitstreamInfo, into rgba: inout [UInt8],
                           options: DecodingOptions) throws(ImageDecodingError) {
            throw .unsupported(.other("WebP lossy (VP8) bitstream"))
        }
    }
}
