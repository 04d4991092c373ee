// Matchers for formats recognised by a fixed signature.

extension FormatSniffer {
    /// PNG §5.2 signature, then chunks up to the first `IDAT` or `acTL`:
    /// APNG (APNG §2) when `acTL` comes first.
    static func matchPNG(_ input: SniffInput) -> MatchResult {
        switch input.compare([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
        case .different: return .noMatch
        case .incomplete: return .needMore(fallback: nil)
        case .equal: break
        }
        var offset = 8
        while true {
            guard let length = input.bigEndianUInt32(at: offset), offset + 8 <= input.count else {
                return .needMore(fallback: SniffedFormat(.png))
            }
            let type = (input[offset + 4], input[offset + 5], input[offset + 6], input[offset + 7])
            if type == (0x49, 0x44, 0x41, 0x54) { return .match(SniffedFormat(.png)) }      // IDAT
            if type == (0x61, 0x63, 0x54, 0x4C) { return .match(SniffedFormat(.apng)) }     // acTL
            if type == (0x49, 0x45, 0x4E, 0x44) { return .match(SniffedFormat(.png)) }      // IEND
            // PNG §5.3: lengths above 2^31 - 1 are invalid; the file is a (broken) PNG.
            guard length <= 0x7FFF_FFFF else { return .match(SniffedFormat(.png)) }
            offset += 12 + Int(length)
        }
    }

    /// JPEG (ITU T.81 §B.1.1.3): the SOI marker. Only SOI, as libjpeg's `first_marker`
    /// checks: what follows may be junk that its marker search skips (a lenient decode does too).
    static func matchJPEG(_ input: SniffInput) -> MatchResult {
        switch input.compare([0xFF, 0xD8]) {
        case .equal: .match(SniffedFormat(.jpeg))
        case .incomplete: .needMore(fallback: nil)
        case .different: .noMatch
        }
    }

    /// GIF89a §17: `GIF87a` or `GIF89a`.
    static func matchGIF(_ input: SniffInput) -> MatchResult {
        switch input.compare(Array(ascii: "GIF8")) {
        case .different: return .noMatch
        case .incomplete: return .needMore(fallback: nil)
        case .equal: break
        }
        guard input.count >= 6 else {
            if input.count == 5, input[4] != 0x37, input[4] != 0x39 { return .noMatch }
            return .needMore(fallback: nil)
        }
        guard input[4] == 0x37 || input[4] == 0x39, input[5] == 0x61 else { return .noMatch }
        return .match(SniffedFormat(.gif))
    }

    /// TIFF 6.0 §2 header: `II*\0` or `MM\0*`; BigTIFF uses 43 instead of 42.
    static func matchTIFF(_ input: SniffInput) -> MatchResult {
        for (order, signatures) in [(0, [[0x49, 0x49, 0x2A, 0x00], [0x49, 0x49, 0x2B, 0x00]]),
                                    (1, [[0x4D, 0x4D, 0x00, 0x2A], [0x4D, 0x4D, 0x00, 0x2B]])] as [(Int, [[UInt8]])] {
            for (index, signature) in signatures.enumerated() {
                switch input.compare(signature) {
                case .equal:
                    let big = index == 1
                    return .match(SniffedFormat(.tiff, order == 0 ? .tiffLittleEndian(big: big) : .tiffBigEndian(big: big)))
                case .incomplete: return .needMore(fallback: nil)
                case .different: continue
                }
            }
        }
        return .noMatch
    }

    /// BMP: `BM`, then a DIB header whose size (offset 14) is one of the known
    /// header versions, which keeps text starting with "BM" from matching.
    static func matchBMP(_ input: SniffInput) -> MatchResult {
        switch input.compare(Array(ascii: "BM")) {
        case .different: return .noMatch
        case .incomplete: return .needMore(fallback: nil)
        case .equal: break
        }
        guard let headerSize = input.littleEndianUInt32(at: 14) else { return .needMore(fallback: nil) }
        return [12, 16, 40, 52, 56, 64, 108, 124].contains(headerSize) ? .match(SniffedFormat(.bmp)) : .noMatch
    }

    /// ICO / CUR: reserved 0, type 1 (icon) or 2 (cursor), and a non-zero image count.
    static func matchICO(_ input: SniffInput) -> MatchResult {
        for (type, format) in [(UInt8(1), ImageFormat.ico), (2, .cur)] {
            switch input.compare([0, 0, type, 0]) {
            case .different: continue
            case .incomplete: return .needMore(fallback: nil)
            case .equal:
                guard input.count >= 6 else { return .needMore(fallback: nil) }
                return input[4] == 0 && input[5] == 0 ? .noMatch : .match(SniffedFormat(format))
            }
        }
        return .noMatch
    }

    /// PDF: `%PDF-` (ISO 32000-1 §7.5.2).
    static func matchPDF(_ input: SniffInput) -> MatchResult {
        switch input.compare(Array(ascii: "%PDF-")) {
        case .equal: .match(SniffedFormat(.pdf))
        case .incomplete: .needMore(fallback: nil)
        case .different: .noMatch
        }
    }

    /// JPEG XL bare codestream (ISO/IEC 18181-1 §6.1): `FF 0A`.
    static func matchJPEGXLCodestream(_ input: SniffInput) -> MatchResult {
        switch input.compare([0xFF, 0x0A]) {
        case .equal: .match(SniffedFormat(.jpegXL, .jpegXLCodestream))
        case .incomplete: .needMore(fallback: nil)
        case .different: .noMatch
        }
    }
}
