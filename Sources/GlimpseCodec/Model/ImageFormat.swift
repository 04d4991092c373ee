/// The container or codec an image's bytes are in, as told by ``FormatSniffer``.
///
/// A closed set: everything the sniffer can recognise, whether or not Glimpse
/// decodes it. ``DecoderRegistry`` says which ones can be decoded.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case png
    /// PNG with an `acTL` chunk before the first `IDAT` (APNG specification §2).
    case apng
    case jpeg
    case gif
    case webp
    case tiff
    case bmp
    case ico
    case cur
    case heic
    case heif
    case avif
    case jpegXL = "jxl"
    case svg
    case pdf
    case unknown

    /// The lowercase identifier the CLI prints (`png`, `jpeg`, `jxl`, …), the same
    /// token `refdecode` prints for the formats both know.
    public var description: String { rawValue }

    /// The formats this module decodes today. The registry is the authority at
    /// run time; this is a convenience for documentation and tools.
    public var isAnimatable: Bool {
        switch self {
        case .apng, .gif, .webp, .avif, .jpegXL, .heic, .heif: true
        default: false
        }
    }
}
