extension ImageManager {
    /// Stage 6: the options' transformer, if any.
    func transformStage(_ image: Image, _ request: LoadRequest) throws(ImageLoadError) -> Image {
        guard let transformer = request.options.transformer else { return image }
        do throws(TransformError) {
            return try transformer.transform(image)
        } catch {
            throw .transform(error)
        }
    }
}
