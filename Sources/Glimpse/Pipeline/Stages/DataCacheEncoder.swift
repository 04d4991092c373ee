/// Encodes processed images for the data tier through an ``EncoderRegistry``:
/// JPEG for opaque 8-bit images (a thumbnail of a photo is a few kilobytes,
/// and JPEG's loss at quality 80 is below what a resized preview shows),
/// PNG when any pixel is transparent (JPEG stores no alpha, ITU T.81 has no
/// alpha channel) or the samples are 16-bit (JPEG baseline is 8-bit, §B.2.2),
/// and PNG too when the registry has no JPEG encoder.
struct DataCacheEncoder: Sendable {
    var registry: EncoderRegistry
    /// 1…100, for JPEG.
    var quality: Int

    /// The encoding, or `nil` for images it does not store (animations keep
    /// their original bytes instead; encoding errors only cost a later decode).
    func encode(_ image: Image) -> ImagePipeline.EncodedImage? {
        guard image.frames.count == 1 else { return nil }
        if Self.isOpaque8Bit(image.pixels), registry.encoder(for: .jpeg) != nil {
            // 4:2:0 (libjpeg's default for colour), EXIF kept so that an image no
            // processor oriented still displays upright after a restart.
            let jpeg = JPEG.EncodingOptions(quality: min(100, max(1, quality)), subsampling: .yCbCr420,
                                            metadata: .all)
            if let bytes = try? registry.encode(image, as: .jpeg, options: EncodingOptions(jpeg: jpeg)) {
                return ImagePipeline.EncodedImage(bytes: bytes, contentType: "image/jpeg", sourceFormat: image.format)
            }
        }
        guard let bytes = try? registry.encode(image, as: .png, options: EncodingOptions(metadata: .all)) else {
            return nil
        }
        return ImagePipeline.EncodedImage(bytes: bytes, contentType: "image/png", sourceFormat: image.format)
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
