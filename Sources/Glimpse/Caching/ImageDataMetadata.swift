import Foundation
import GlimpseCache

/// What the data tier keeps beside an entry's bytes: the HTTP validators and
/// freshness of the response they came from (for revalidation, RFC 9111 §4.3),
/// their media type and provenance. A tier stores it as it likes (a header of
/// its own, a hash field) and returns it unchanged.
public struct ImageDataMetadata: Sendable, Equatable {
    /// `ETag` of the response (RFC 9110 §8.8.3).
    public var etag: String?
    /// `Last-Modified` of the response (RFC 9110 §8.8.2).
    public var lastModified: String?
    /// The bytes' media type (RFC 9110 §8.3): the response's for an original,
    /// `image/jpeg` or `image/png` for a variant the pipeline encoded.
    public var contentType: String?
    /// The URL the bytes (or the original of a variant) came from.
    public var originalURL: String?
    /// When the tier stored the entry, when it records that; ignored on store.
    public var storedDate: Date?
    /// The response's freshness (RFC 9111 §4.2) under ``HTTPCachePolicy/respect``; `nil` otherwise.
    public var freshness: HTTPFreshness?
    /// For a processed variant: the format of the original it was made from, which the
    /// decoded variant reports (a WebP's thumbnail stays `.webp`, whatever it is stored as).
    public var sourceFormat: ImageFormat?

    public init(etag: String? = nil, lastModified: String? = nil, contentType: String? = nil,
                originalURL: String? = nil, storedDate: Date? = nil, freshness: HTTPFreshness? = nil,
                sourceFormat: ImageFormat? = nil) {
        self.etag = etag
        self.lastModified = lastModified
        self.contentType = contentType
        self.originalURL = originalURL
        self.storedDate = storedDate
        self.freshness = freshness
        self.sourceFormat = sourceFormat
    }

    /// Whether a conditional request can be made from it (RFC 9110 §13.1.1–§13.1.3).
    public var hasValidators: Bool { etag != nil || lastModified != nil }
}
