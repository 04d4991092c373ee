extension ImagePipeline {
    /// Stage 2: the decoded, processed image in memory, if any.
    func memoryStage(_ request: LoadRequest) -> ImageResult? {
        guard request.readsCache, let image = configuration.cache.image(forKey: request.key) else { return nil }
        return ImageResult(image: image, tier: .memory, url: request.url)
    }
}
