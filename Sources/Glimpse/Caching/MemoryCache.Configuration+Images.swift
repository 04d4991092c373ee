import Dispatch
import GlimpseCache

extension MemoryCache.Configuration where Value == Image {
    /// A memory tier for decoded images: costs in bytes, and evicted images
    /// released on a utility-priority queue. A 5120×2880 image is 59 MB, and
    /// handing that much back to the system takes milliseconds; on the thread
    /// that stored its replacement (a cooperative-pool thread, in the pipeline)
    /// that stalls every other task of the process.
    public static func images(costLimit: Int = MemoryBudget.defaultImageCostLimit()) -> Self {
        Self(costLimit: costLimit, releaseQueue: imageReleaseQueue)
    }
}

/// Serial: releases are rare and short; one thread is enough and never competes
/// with decoding for more than one core.
private let imageReleaseQueue = DispatchQueue(label: "glimpse.image-release", qos: .utility)
