// Matchers for formats inside RIFF and ISO-BMFF containers.

extension FormatSniffer {
    /// WebP: RIFF container of form `WEBP`, whose first chunk tells the bitstream:
    /// `VP8 ` lossy, `VP8L` lossless, `VP8X` extended with feature flags.
    static func matchWebP(_ input: SniffInput) -> MatchResult {
        switch input.compare(Array(ascii: "RIFF")) {
        case .different: return .noMatch
        case .incomplete: return .needMore(fallback: nil)
        case .equal: break
        }
        switch input.compare(Array(ascii: "WEBP"), at: 8) {
        case .different: return .noMatch
        case .incomplete: return .needMore(fallback: nil)
        case .equal: break
        }
        let webp = SniffedFormat(.webp)
        if input.count < 16 { return .needMore(fallback: webp) }
        if input.compare(Array(ascii: "VP8 "), at: 12) == .equal { return .match(SniffedFormat(.webp, .webpLossy)) }
        if input.compare(Array(ascii: "VP8L"), at: 12) == .equal { return .match(SniffedFormat(.webp, .webpLossless)) }
        if input.compare(Array(ascii: "VP8X"), at: 12) == .equal {
            // VP8X payload starts at 20; its first byte holds the flags.
            guard input.count > 20 else { return .needMore(fallback: webp) }
            let flags = input[20]
            return .match(SniffedFormat(.webp, .webpExtended(animated: flags & 0x02 != 0, alpha: flags & 0x10 != 0)))
        }
        return .match(webp)
    }

    /// ISO-BMFF (ISO/IEC 14496-12 §4.3) `ftyp` box: HEIC, HEIF, AVIF and the JPEG XL
    /// container, told apart by the major and compatible brands. The JPEG XL
    /// container starts with its own 12-byte signature box instead.
    static func matchISOBMFF(_ input: SniffInput) -> MatchResult {
        switch input.compare([0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) {
        case .equal: return .match(SniffedFormat(.jpegXL, .jpegXLContainer))
        case .incomplete: return .needMore(fallback: nil)
        case .different: break
        }
        // An `ftyp` box is small: its 32-bit size must start with 00 00 and stay
        // under 4096, which rules out most bytes before "ftyp" has arrived.
        if input.count >= 1, input[0] != 0 { return .noMatch }
        if input.count >= 2, input[1] != 0 { return .noMatch }
        if input.count >= 3, input[2] > 0x10 { return .noMatch }
        switch input.compare(Array(ascii: "ftyp"), at: 4) {
        case .different: return .noMatch
        case .incomplete: return .needMore(fallback: nil)
        case .equal: break
        }
        guard let boxSize = input.bigEndianUInt32(at: 0), boxSize >= 16, boxSize <= 4096, boxSize % 4 == 0 else {
            return .noMatch
        }
        guard input.count >= Int(boxSize) else { return .needMore(fallback: nil) }
        var brands: [[UInt8]] = [Array(input.bytes[8..<12])]
        var offset = 16
        while offset + 4 <= Int(boxSize) {
            brands.append(Array(input.bytes[offset..<(offset + 4)]))
            offset += 4
        }
        func has(_ names: [StaticString]) -> Bool { names.contains { brands.contains(Array(ascii: $0)) } }
        // The major brand decides first; compatible brands break the tie for
        // generic major brands such as `mif1`.
        let major = brands[0]
        if [Array(ascii: "avif"), Array(ascii: "avis")].contains(major) { return .match(SniffedFormat(.avif)) }
        if ["heic", "heix", "heim", "heis", "hevc", "hevx"].contains(where: { Array(ascii: $0) == major }) {
            return .match(SniffedFormat(.heic))
        }
        if major == Array(ascii: "jxl ") { return .match(SniffedFormat(.jpegXL, .jpegXLContainer)) }
        if has(["avif", "avis"]) { return .match(SniffedFormat(.avif)) }
        if has(["heic", "heix", "heim", "heis", "hevc", "hevx"]) { return .match(SniffedFormat(.heic)) }
        if has(["mif1", "msf1"]) { return .match(SniffedFormat(.heif)) }
        return .noMatch
    }
}
