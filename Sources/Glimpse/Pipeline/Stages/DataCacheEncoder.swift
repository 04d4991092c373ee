/// Encodes processed images for the data tier through an ``EncoderRegistry``:
/// JPEG for opaque 8-bit images (a thumbnail of a photo is a few kilobytes,
/// and JPEG's loss at quality 80 is below what a resized preview shows),
/// PNG when any pixel is transparent (JPEG stores no alpha, ITU T.81 has no
/// alpha channel) or the samples are 16-bit (JPEG baseline is 8-bit, §B.2.2),
/// and PNG too when the registry has no JPEG encoder. The same rule picks the
/// format of ``ImagePipeline/data(for:format:)`` when none is asked for.
package struct DataCacheEncoder: Sendable {
    var registry: EncoderRegistry
    /// 1…100, for JPEG (and WebP, when asked for).
    var quality: Int

    /// The encoding, or `nil` for images it does not store (animations keep
    /// their original bytes instead; encoding errors only cost a later decode).
    func encode(_ image: Image) -> ImagePipeline.EncodedImage? {
        guard image.frames.count == 1 else { return nil }
        let format = Self.processedFormat(of: image, registry: registry)
        if let encoded = try? encode(image, as: format) { return encoded }
        // A JPEG the encoder refused may still be kept losslessly.
        return format == .png ? nil : try? encode(image, as: .png)
    }

    /// The processed-format rule: JPEG for a still, opaque 8-bit image when the registry
    /// encodes JPEG, else PNG; an animation keeps its source's format when the registry
    /// encodes it (GIF, WebP), else PNG (APNG). `glimpse thumbnail` picks its default
    /// output format by the same rule.
    package static func processedFormat(of image: Image, registry: EncoderRegistry) -> ImageFormat {
        if image.frames.count > 1 {
            return registry.encoder(for: image.format) != nil ? image.format : .png
        }
        return isOpaque8Bit(image.pixels) && registry.encoder(for: .jpeg) != nil ? .jpeg : .png
    }

    /// `image` as `format`, with its metadata: JPEG 4:2:0 (libjpeg's default for colour)
    /// at ``quality``, EXIF kept so that an image no processor oriented still displays
    /// upright after a restart.
    func encode(_ image: Image, as format: ImageFormat) throws(ImageEncodingError) -> ImagePipeline.EncodedImage {
        var options = EncodingOptions(quality: min(100, max(1, quality)), metadata: .all)
        if format == .jpeg {
            options.jpeg = JPEG.EncodingOptions(quality: options.quality, subsampling: .yCbCr420, metadata: .all)
        }
        let bytes = try registry.encode(image, as: format, options: options)
        return ImagePipeline.EncodedImage(bytes: bytes, format: format, width: image.width, height: image.height,
                                          sourceFormat: image.format)
    }

    /// Whether every alpha sample of an 8-bit buffer is 255.
    static func isOpaque8Bit(_ pixels: PixelBuffer) -> Bool {
        guard pixels.format == .rgba8 else { return false }
        return pixels.bytes.withUnsafeBufferPointer { bytes in
            // Every fourth byte from index 3 is an alpha sample of an RGBA8 pixel.
            var index = 3
            while index < bytes.count {
                if bytes[index] != 255 { return false }
                index &+= 4
            }
            return true
        }
    }
}
