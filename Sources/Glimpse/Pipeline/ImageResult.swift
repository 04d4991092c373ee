import Foundation
import GlimpseCache

/// A loaded image and where it came from.
public struct ImageResult: Sendable {
    /// The tier that supplied the image.
    public enum Tier: String, Sendable, Hashable, CustomStringConvertible {
        case memory
        case disk
        case network

        public var description: String { rawValue }
    }

    /// The decoded (and transformed) image.
    public var image: Image
    /// The original bytes, when they were at hand (disk and network loads).
    public var data: [UInt8]?
    public var tier: Tier
    /// The URL that was asked for.
    public var url: URL
    /// The HTTP response, for network loads (including a 304 revalidation).
    public var response: ImageDownloadResponse?
    /// The disk entry's metadata, for disk loads.
    public var cacheMetadata: DiskCache.Metadata?

    public init(image: Image, data: [UInt8]? = nil, tier: Tier, url: URL, response: ImageDownloadResponse? = nil,
                cacheMetadata: DiskCache.Metadata? = nil) {
        self.image = image
        self.data = data
        self.tier = tier
        self.url = url
        self.response = response
        self.cacheMetadata = cacheMetadata
    }
}
