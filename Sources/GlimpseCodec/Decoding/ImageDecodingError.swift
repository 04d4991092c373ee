/// Why decoding failed. Errors are permanent: once a decoder has thrown one,
/// every later call on it throws the same error again.
public enum ImageDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The input ended before the image was complete.
    case truncated
    /// The bytes break the format's rules; the string names what was wrong.
    case malformed(String)
    /// The image uses a feature this decoder does not implement
    /// (e.g. JPEG arithmetic coding); the string names the feature.
    case unsupported(String)
    /// The bytes are in a format no registered decoder handles
    /// (WebP, TIFF… today), or in no known format at all (`.unknown`).
    case unsupportedFormat(ImageFormat)
    /// A checksum (PNG CRC-32 of a critical chunk, zlib Adler-32) did not match.
    case checksumMismatch
    /// The image would exceed one of the caller's ``DecodingLimits``.
    case limitExceeded(DecodingLimits.Limit)

    public var description: String {
        switch self {
        case .truncated: "truncated input"
        case .malformed(let what): "malformed data: \(what)"
        case .unsupported(let feature): "unsupported feature: \(feature)"
        case .unsupportedFormat(let format): "unsupported format \(format)"
        case .checksumMismatch: "checksum mismatch"
        case .limitExceeded(let limit): "limit exceeded: \(limit)"
        }
    }
}
