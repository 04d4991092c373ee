extension JPEG {
    /// Damage that libjpeg-turbo decodes through with a warning (its `JWRN_*`
    /// messages), and so what a lenient decode recovers from. A strict decode
    /// fails on the first one instead, which makes it accept exactly the files
    /// libjpeg-turbo decodes without a warning.
    enum Recovery: Sendable, Hashable {
        /// Bytes other than fill `0xFF`s before a marker (JWRN_EXTRANEOUS_DATA,
        /// from `next_marker`); they are skipped.
        case extraneousBytes(count: Int, marker: UInt8)
        /// The file ended before EOI (JWRN_JPEG_EOF); libjpeg's memory source
        /// supplies a fake EOI marker from there on.
        case prematureEnd
        /// The entropy decoder needed bits past the marker that ends its data
        /// (JWRN_HIT_MARKER): the bits read as zeros, and the rest of the
        /// restart interval is left as zero coefficients.
        case entropyDataEnded
        /// A code that is in no Huffman table (JWRN_HUFF_BAD_CODE): 17 bits are
        /// consumed and the symbol reads as 0.
        case huffmanCode
        /// A marker other than the expected RSTn where a restart was due
        /// (JWRN_MUST_RESYNC); `jpeg_resync_to_restart` decides what to skip.
        case restartMarker(found: UInt8, expected: Int)
        /// A progressive scan out of sequence for a coefficient (JWRN_BOGUS_PROGRESSION).
        case progressionSequence(component: Int, coefficient: Int)
        /// A JFIF APP0 with a major version other than 1 (JWRN_JFIF_MAJOR).
        case jfifVersion(major: UInt8, minor: UInt8)
        /// An Adobe APP14 colour transform libjpeg does not know (JWRN_ADOBE_XFORM).
        case adobeTransform(UInt8)

        /// The error a strict decode throws instead.
        var strictError: ImageDecodingError {
            switch self {
            case .prematureEnd: .truncated
            default: .malformed(description)
            }
        }

        var description: String {
            switch self {
            case .extraneousBytes(let count, let marker):
                "\(count) extraneous bytes before marker 0x\(String(marker, radix: 16))"
            case .prematureEnd: "premature end of data"
            case .entropyDataEnded: "entropy-coded data ended before the scan"
            case .huffmanCode: "bad Huffman code"
            case .restartMarker(let found, let expected):
                "marker 0x\(String(found, radix: 16)) where RST\(expected) was expected"
            case .progressionSequence(let component, let coefficient):
                "inconsistent progression sequence for component \(component) coefficient \(coefficient)"
            case .jfifVersion(let major, let minor): "unknown JFIF revision \(major).\(minor)"
            case .adobeTransform(let transform): "unknown Adobe colour transform \(transform)"
            }
        }
    }
}
