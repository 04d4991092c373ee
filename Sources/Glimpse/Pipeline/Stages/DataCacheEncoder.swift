/// Encodes processed images for the data tier: PNG (lossless, keeps alpha)
/// until the encoder registry offers JPEG, which then takes opaque images at
/// the configured quality.
struct DataCacheEncoder: Sendable {
    /// 1…100, for lossy formats.
    var quality: Int

    /// The encoding, or `nil` for images it does not store (animations keep
    /// their original bytes instead; encoding errors only cost a later decode).
    func encode(_ image: Image) -> ImagePipeline.EncodedImage? {
        guard image.frames.count == 1 else { return nil }
        do {
            let bytes = try PNG.Encoder().encode(image.pixels, metadata: image.metadata)
            return ImagePipeline.EncodedImage(bytes: bytes, contentType: "image/png")
        } catch {
            return nil
        }
    }
}
