import GlimpseCache

/// The memory tier: decoded images by key, charged by their pixel bytes.
///
/// ``MemoryCache`` (a sharded LRU) is the default. A conformance must be safe
/// to call from any thread and should answer quickly: ``ImagePipeline`` asks it
/// on the caller's thread before anything else.
public protocol ImageMemoryCaching: Sendable {
    /// The image stored under `key`, if any.
    func image(forKey key: String) -> Image?
    /// Stores `image` under `key` at `cost` (its pixel bytes); the tier may
    /// refuse it (too large) or evict others to make room.
    func store(_ image: Image, forKey key: String, cost: Int)
    /// Removes the image under `key`.
    func removeImage(forKey key: String)
    /// Removes every image.
    func removeAllImages()
    /// Images held now.
    var imageCount: Int { get }
    /// The cost of the images held now.
    var totalCost: Int { get }
}

extension MemoryCache: ImageMemoryCaching where Key == String, Value == Image {
    @inlinable
    public func image(forKey key: String) -> Image? { value(forKey: key) }

    public func store(_ image: Image, forKey key: String, cost: Int) {
        setValue(image, forKey: key, cost: cost)
    }

    public func removeImage(forKey key: String) { removeValue(forKey: key) }

    public func removeAllImages() { removeAll() }

    public var imageCount: Int { count }
}
