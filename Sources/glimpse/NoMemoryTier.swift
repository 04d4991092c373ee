import Glimpse
import GlimpseCodec

/// A memory tier that keeps nothing, so that every load reaches the data tier.
struct NoMemoryTier: ImageMemoryCaching {
    func image(forKey key: String) -> Image? { nil }
    func store(_ image: Image, forKey key: String, cost: Int) {}
    func removeImage(forKey key: String) {}
    func removeAllImages() {}
    var imageCount: Int { 0 }
    var totalCost: Int { 0 }
}
