extension ImageManager {
    /// Stage 5: bytes to pixels, scaled down when the options ask, then the
    /// configured hook for freshly decoded images.
    func decodeStage(_ bytes: [UInt8], _ request: LoadRequest) throws(ImageLoadError) -> Image {
        let stage = DecodeStage(registry: configuration.decoderRegistry, options: request.options.decoding,
                                maxPixelBytes: request.options.scaleDownLargeImages)
        do throws(ImageDecodingError) {
            return downloadedImageHook(try stage.decode(bytes), request)
        } catch {
            throw .decoding(error)
        }
    }

    func downloadedImageHook(_ image: Image, _ request: LoadRequest) -> Image {
        configuration.hooks.transformDownloadedImage?(image, request.url) ?? image
    }
}
