import Foundation

extension ImagePipeline {
    /// Stage 2: the decoded, processed image in memory, if any (under
    /// ``HTTPCachePolicy/respect``, only while its response is fresh).
    func memoryStage(_ request: LoadRequest) -> ImageResult? {
        guard request.readsCache, let image = configuration.cache.image(forKey: request.key) else { return nil }
        if configuration.httpCachePolicy == .respect, !memoryFreshness.isFresh(request.key.memoryKey, at: Date()) {
            return nil
        }
        return ImageResult(image: image, tier: .memory, url: request.url)
    }
}
