extension WebP {
    /// Why a VP8L bitstream (RFC 9649) was rejected. Each case is a rule of the
    /// RFC or a check libwebp's decoder makes (`src/dec/vp8l_dec.c`,
    /// `src/utils/huffman_utils.c`), so that Glimpse rejects exactly the streams
    /// libwebp rejects.
    public enum LosslessDefect: Error, Sendable, Hashable, CustomStringConvertible {
        /// The first byte is not the VP8L signature 0x2f (RFC 9649 §3.1).
        case badSignature(UInt8)
        /// The 3-bit version field is not 0 (RFC 9649 §3.1).
        case badVersion(Int)
        /// The stream needed more bits than the data holds.
        case endOfData
        /// A transform type appeared twice (RFC 9649 §4: each at most once).
        case repeatedTransform(Int)
        /// The colour cache size is outside 1...11 bits (RFC 9649 §5.2.3).
        case colorCacheBits(Int)
        /// A prefix code has no symbol of non-zero length.
        case emptyPrefixCode
        /// A prefix code's lengths over-subscribe or do not fill the code space
        /// (only a single-symbol code may be incomplete).
        case invalidPrefixCode
        /// The code-length stream's `max_symbol` exceeds the alphabet (RFC 9649 §3.7.2.1.2).
        case maxSymbolTooLarge(Int)
        /// A repeat code (16, 17, 18) runs past the alphabet.
        case codeLengthRepeatOverflow
        /// An LZ77 backward reference points before the first pixel or past the last
        /// (RFC 9649 §5.2.2).
        case invalidBackwardReference(distance: Int, length: Int)
        /// A green symbol names neither a literal, a length nor a cache entry.
        case invalidSymbol(Int)
        /// The caller's alpha stream dimensions are not positive.
        case invalidDimensions(width: Int, height: Int)
        /// The caller's output buffer does not hold `width * height` pixels.
        case outputSize(expected: Int, actual: Int)
        /// Decoding would exceed one of the caller's ``DecodingLimits``.
        case limitExceeded(DecodingLimits.Limit)

        public var description: String {
            switch self {
            case .badSignature(let byte): "VP8L signature is 0x\(String(byte, radix: 16)), not 0x2f"
            case .badVersion(let version): "VP8L version \(version) (must be 0)"
            case .endOfData: "VP8L bitstream ends before the image does"
            case .repeatedTransform(let type): "VP8L transform \(type) appears twice"
            case .colorCacheBits(let bits): "VP8L colour cache of \(bits) bits (1...11 allowed)"
            case .emptyPrefixCode: "VP8L prefix code has no symbols"
            case .invalidPrefixCode: "VP8L prefix code is over-subscribed or incomplete"
            case .maxSymbolTooLarge(let max): "VP8L code-length max_symbol \(max) exceeds the alphabet"
            case .codeLengthRepeatOverflow: "VP8L code-length repeat runs past the alphabet"
            case .invalidBackwardReference(let distance, let length):
                "VP8L backward reference (distance \(distance), length \(length)) leaves the image"
            case .invalidSymbol(let symbol): "VP8L green symbol \(symbol) is out of range"
            case .invalidDimensions(let width, let height): "VP8L stream size \(width)x\(height)"
            case .outputSize(let expected, let actual): "VP8L output buffer of \(actual) bytes, \(expected) needed"
            case .limitExceeded(let limit): "VP8L limit exceeded: \(limit)"
            }
        }

        /// The error the decoder contract throws for this defect: running out of
        /// data is ``ImageDecodingError/truncated``, a limit keeps its kind, the rest
        /// is `.malformed(.webp(.lossless(defect)))`.
        var decodingError: ImageDecodingError {
            switch self {
            case .endOfData: .truncated
            case .limitExceeded(let limit): .limitExceeded(limit)
            default: .malformed(.webp(.lossless(self)))
            }
        }
    }
}
