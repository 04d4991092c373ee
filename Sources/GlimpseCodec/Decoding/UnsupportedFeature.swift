/// A valid feature of a format that Glimpse's decoders do not implement;
/// the payload of ``ImageDecodingError/unsupported(_:)``.
public enum UnsupportedFeature: Sendable, Hashable, CustomStringConvertible {
    /// A JPEG coding process other than baseline, extended sequential and
    /// progressive Huffman (T.81 Table B.1): lossless (SOF3), hierarchical
    /// (SOF5–7) or arithmetic coding (SOF9–15). The payload is the SOF marker's
    /// second byte (0xC3, 0xC5…).
    case jpegCodingProcess(marker: UInt8)
    /// A JPEG sample precision other than 8 bits (T.81 §B.2.2: 12 or 16).
    case jpegSamplePrecision(Int)
    /// A JPEG frame with a number of components other than 1, 3 or 4.
    case jpegComponentCount(Int)
    /// JPEG sampling factors that do not divide the frame's largest ones
    /// (libjpeg-turbo does not decode them either).
    case jpegFractionalSampling(horizontal: Int, vertical: Int, maxHorizontal: Int, maxVertical: Int)
    /// A critical PNG chunk this decoder does not know (PNG §5.4), e.g. Apple's `CgBI`.
    case pngCriticalChunk(PNG.ChunkType)
    /// zlib could not be initialised (out of memory or a library mismatch).
    case zlibInitialisation
    /// A part of AVIF this decoder does not implement (the step from AV1 planes to an image, today).
    case avif(AVIF.UnsupportedFeature)
    /// A feature named by a decoder outside GlimpseCodec.
    case other(String)

    public var description: String {
        switch self {
        case .jpegCodingProcess(let marker):
            let n = Int(marker) - 0xC0
            return switch marker {
            case 0xC3: "lossless JPEG (SOF3)"
            case 0xC5, 0xC6, 0xC7: "hierarchical JPEG (SOF\(n))"
            default: "arithmetic coding (SOF\(n))"
            }
        case .jpegSamplePrecision(let bits): return "\(bits)-bit JPEG"
        case .jpegComponentCount(let count): return "\(count) colour components"
        case .jpegFractionalSampling(let h, let v, let maxH, let maxV):
            return "fractional sampling factors \(h)x\(v) of \(maxH)x\(maxV)"
        case .pngCriticalChunk(let type): return "critical chunk \(type)"
        case .zlibInitialisation: return "zlib initialisation failed"
        case .avif(let feature): return feature.description
        case .other(let what): return what
        }
    }
}
