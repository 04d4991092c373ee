/// What is wrong with the bytes of an image, typed by format.
///
/// One vocabulary serves both outcomes of damage: a decoder in
/// ``DecodingOptions/Mode/strict`` mode throws ``ImageDecodingError/malformed(_:)``
/// with the defect, and one in ``DecodingOptions/Mode/lenient`` mode recovers from
/// the defects its format's references recover from and reports them as
/// ``DecodingWarning``s on the decoded ``Image``.
///
/// Each format's reasons live in its own namespace (``PNG/Defect``,
/// ``JPEG/Defect``, ``GIF/Defect``, ``PAM/Defect``, ``WebP/Defect``, ``AVIF/Defect``), the way swift-png keeps one
/// error enum per decoding stage. Match cases, never the ``description`` text:
/// ```swift
/// catch .malformed(.png(.filterType(let type))) { … }
/// ```
public enum DecodingDefect: Sendable, Hashable, CustomStringConvertible {
    /// A PNG or APNG file breaks PNG §5–§11 or the APNG specification.
    case png(PNG.Defect)
    /// A JPEG file breaks ITU T.81 (or JFIF/Exif framing).
    case jpeg(JPEG.Defect)
    /// A GIF file breaks GIF89a.
    case gif(GIF.Defect)
    /// A Netpbm PAM file breaks the PAM header rules.
    case pam(PAM.Defect)
    /// A WebP file breaks RFC 9649 (container, lossless bitstream) or RFC 6386 (lossy bitstream).
    case webp(WebP.Defect)
    /// An AVIF file breaks ISO/IEC 23008-12 (HEIF), the AVIF specification or the AV1 headers.
    case avif(AVIF.Defect)
    /// Damage reported by a decoder outside GlimpseCodec (one registered in a
    /// ``DecoderRegistry`` by the application), which cannot add cases here.
    case other(String)

    public var description: String {
        switch self {
        case .png(let defect): "PNG: \(defect)"
        case .jpeg(let defect): "JPEG: \(defect)"
        case .gif(let defect): "GIF: \(defect)"
        case .pam(let defect): "PAM: \(defect)"
        case .webp(let defect): "WebP: \(defect)"
        case .avif(let defect): "AVIF: \(defect)"
        case .other(let what): what
        }
    }
}
