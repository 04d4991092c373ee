extension WebP {
    /// The container's view of the lossless (VP8L) decoder in `Lossless/`.
    enum LosslessBridge {
        /// Decodes a `VP8L` chunk payload into straight RGBA8, `width * height * 4` bytes.
        static func decode(_ payload: UnsafeRawBufferPointer, info: BitstreamInfo,
                           options: DecodingOptions) throws(ImageDecodingError) -> [UInt8] {
            var rgba = PixelStorage.uninitializedBytes(count: info.width &* info.height &* 4, adviseHugePages: options.adviseHugePages)
            let result: Result<Void, ImageDecodingError> = rgba.withUnsafeMutableBytes { output in
                do throws(ImageDecodingError) {
                    try LosslessDecoder.decode(payload, into: output, limits: options.limits)
                    return .success(())
                } catch { return .failure(error) }
            }
            try result.get()
            return rgba
        }

        /// Decodes the headerless image stream of an `ALPH` chunk (RFC 9649 §2.7.1.4, method 1)
        /// into `width * height` values: the green channel of each pixel, still filtered.
        static func decodeAlphaStream(_ data: UnsafeRawBufferPointer, width: Int, height: Int,
                                      limits: DecodingLimits) throws(ImageDecodingError) -> [UInt8] {
            var plane = [UInt8](repeating: 0, count: width &* height)
            let result: Result<Void, ImageDecodingError> = plane.withUnsafeMutableBytes { output in
                do throws(ImageDecodingError) {
                    try LosslessDecoder.decodeAlpha(data, width: width, height: height, into: output, limits: limits)
                    return .success(())
                } catch { return .failure(error) }
            }
            try result.get()
            return plane
        }
    }

    /// The container's view of the lossy (VP8) decoder in `Lossy/`.
    enum LossyBridge {
        /// Decodes a `VP8 ` chunk payload into `rgba` (straight RGBA8, alpha 255, rows of
        /// `width * 4` bytes).
        static func decode(_ payload: UnsafeRawBufferPointer, info: BitstreamInfo, into rgba: inout [UInt8],
                           options: DecodingOptions) throws(ImageDecodingError) {
            let result: Result<Void, ImageDecodingError> = rgba.withUnsafeMutableBytes { output in
                do throws(ImageDecodingError) {
                    try LossyDecoder.decode(payload, into: output, origin: 0, bytesPerRow: info.width &* 4, limits: options.limits)
                    return .success(())
                } catch { return .failure(error) }
            }
            try result.get()
        }
    }
}
