import Foundation

extension ImageManager {
    /// Stage 1: the cache key — the key filter's resource key plus the
    /// decoding options and the transformer's key.
    func makeRequest(_ url: URL, options: Options) -> LoadRequest {
        let urlKey = url.absoluteString
        let base = configuration.cacheKeyFilter?(url) ?? urlKey
        let variant = options.variant
        return LoadRequest(url: url, urlKey: urlKey, key: ImageCacheKey(base: base, variant: variant), options: options)
    }
}
