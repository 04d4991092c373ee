/// Recognises an image format from the leading bytes of a file.
///
/// The sniffer never guesses: when the bytes seen so far are a prefix of more
/// than one possibility, or of a signature still being read, it answers
/// ``Result/needMoreData`` unless the caller says the input has ended.
public enum FormatSniffer {
    /// The answer for a prefix of a file.
    public enum Result: Sendable, Hashable {
        /// The format is known (``ImageFormat/unknown`` when no format fits).
        case detected(SniffedFormat)
        /// More bytes are needed to tell.
        case needMoreData

        /// The detected format, or `nil` while more data is needed.
        public var format: ImageFormat? {
            if case .detected(let sniffed) = self { return sniffed.format }
            return nil
        }
    }

    /// How far an SVG's prologue (XML declaration, comments, doctype) is searched
    /// for the `<svg` root before the bytes are declared not SVG.
    public static let svgSearchLimit = 4096

    /// Sniffs the format of `bytes`, the first bytes of a file.
    ///
    /// - Parameter atEnd: `true` when `bytes` is the whole file: the sniffer then
    ///   decides with what it has instead of asking for more (a PNG whose chunks
    ///   end before any `IDAT` or `acTL` is then a PNG).
    public static func sniff(_ bytes: some Collection<UInt8>, atEnd: Bool = false) -> Result {
        let result: Result? = bytes.withContiguousStorageIfAvailable { sniff(buffer: UnsafeRawBufferPointer($0), atEnd: atEnd) }
        if let result { return result }
        return Array(bytes).withUnsafeBytes { sniff(buffer: $0, atEnd: atEnd) }
    }

    /// Sniffs from raw memory.
    public static func sniff(buffer: UnsafeRawBufferPointer, atEnd: Bool = false) -> Result {
        let input = SniffInput(bytes: buffer)
        var waiting = false
        for matcher in matchers {
            switch matcher(input) {
            case .match(let format):
                if !waiting { return .detected(format) }
                // An earlier matcher is still undecided; never guess past it.
                return atEnd ? .detected(format) : .needMoreData
            case .needMore(let fallback):
                if atEnd, let fallback { return .detected(fallback) }
                if !atEnd { waiting = true }
            case .noMatch:
                continue
            }
        }
        return waiting ? .needMoreData : .detected(SniffedFormat(.unknown))
    }

    /// Matchers in priority order; signatures are disjoint, so the order only
    /// matters for which one says "need more" first.
    private static let matchers: [@Sendable (SniffInput) -> MatchResult] = [
        matchPNG, matchJPEG, matchGIF, matchWebP, matchTIFF, matchBMP, matchICO,
        matchISOBMFF, matchJPEGXLCodestream, matchPDF, matchSVG,
    ]
}

/// The outcome of one format's matcher.
enum MatchResult {
    case match(SniffedFormat)
    /// Consistent so far; with the input at its end, `fallback` (if any) is the answer.
    case needMore(fallback: SniffedFormat?)
    case noMatch
}

/// Bounds-checked access to the sniffed prefix.
struct SniffInput {
    let bytes: UnsafeRawBufferPointer
    var count: Int { bytes.count }

    subscript(_ index: Int) -> UInt8 { bytes[index] }

    /// Compares `signature` with the input at `offset`: `.match` when all of it is
    /// present and equal, `.needMore` when the present part is equal but some is
    /// missing, `.noMatch` otherwise.
    func compare(_ signature: [UInt8], at offset: Int = 0) -> PrefixComparison {
        for (i, expected) in signature.enumerated() {
            let position = offset + i
            if position >= count { return .incomplete }
            if bytes[position] != expected { return .different }
        }
        return .equal
    }

    func bigEndianUInt32(at offset: Int) -> UInt32? {
        guard offset >= 0, offset + 4 <= count else { return nil }
        return UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    func littleEndianUInt32(at offset: Int) -> UInt32? {
        guard offset >= 0, offset + 4 <= count else { return nil }
        return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }
}

enum PrefixComparison {
    case equal, incomplete, different
}

extension Array where Element == UInt8 {
    /// The ASCII bytes of a four-character code or signature.
    init(ascii: StaticString) {
        self = ascii.withUTF8Buffer { Array($0) }
    }
}
