/// Why decoding failed. Errors are permanent: once a decoder has thrown one,
/// every later call on it throws the same error again.
///
/// In ``DecodingOptions/Mode/lenient`` mode (the default) decoders recover from
/// the damage their format's reference libraries recover from and report it in
/// ``Image/warnings`` instead; in ``DecodingOptions/Mode/strict`` mode every
/// damage is one of these errors.
public enum ImageDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The input ended before the image was complete.
    case truncated
    /// The bytes break the format's rules; the defect says which, typed by format.
    case malformed(DecodingDefect)
    /// The image uses a feature this decoder does not implement
    /// (e.g. JPEG arithmetic coding).
    case unsupported(UnsupportedFeature)
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
        case .malformed(let defect): "malformed data: \(defect)"
        case .unsupported(let feature): "unsupported feature: \(feature)"
        case .unsupportedFormat(let format): "unsupported format \(format)"
        case .checksumMismatch: "checksum mismatch"
        case .limitExceeded(let limit): "limit exceeded: \(limit)"
        }
    }
}
