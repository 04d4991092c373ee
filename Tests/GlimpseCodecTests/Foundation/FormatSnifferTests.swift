import GlimpseCodec
import Testing

/// Hand-built headers for every format the sniffer knows.
struct SniffCase: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var expected: SniffedFormat
    var testDescription: String { name }
}

private func ascii(_ string: String) -> [UInt8] { Array(string.utf8) }
private func be32(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
private func le32(_ value: UInt32) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)] }

private let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
private func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] { be32(UInt32(data.count)) + ascii(type) + data + [0, 0, 0, 0] }
private let ihdr = chunk("IHDR", be32(1) + be32(1) + [8, 6, 0, 0, 0])

private func ftyp(major: String, compatible: [String]) -> [UInt8] {
    let body = ascii(major) + [0, 0, 0, 0] + compatible.flatMap(ascii)
    return be32(UInt32(8 + body.count)) + ascii("ftyp") + body
}

let sniffCases: [SniffCase] = [
    SniffCase(name: "PNG", bytes: pngSignature + ihdr + chunk("IDAT", [1, 2, 3]), expected: SniffedFormat(.png)),
    SniffCase(name: "PNG with ancillary chunks before IDAT", bytes: pngSignature + ihdr + chunk("tEXt", ascii("a\0b")) + chunk("IDAT", []), expected: SniffedFormat(.png)),
    SniffCase(name: "APNG", bytes: pngSignature + ihdr + chunk("acTL", be32(2) + be32(0)) + chunk("IDAT", []), expected: SniffedFormat(.apng)),
    SniffCase(name: "PNG with acTL after IDAT", bytes: pngSignature + ihdr + chunk("IDAT", []) + chunk("acTL", be32(2) + be32(0)), expected: SniffedFormat(.png)),
    SniffCase(name: "JPEG", bytes: [0xFF, 0xD8, 0xFF, 0xE0], expected: SniffedFormat(.jpeg)),
    SniffCase(name: "GIF87a", bytes: ascii("GIF87a"), expected: SniffedFormat(.gif)),
    SniffCase(name: "GIF89a", bytes: ascii("GIF89a"), expected: SniffedFormat(.gif)),
    SniffCase(name: "WebP lossy", bytes: ascii("RIFF") + le32(100) + ascii("WEBPVP8 "), expected: SniffedFormat(.webp, .webpLossy)),
    SniffCase(name: "WebP lossless", bytes: ascii("RIFF") + le32(100) + ascii("WEBPVP8L"), expected: SniffedFormat(.webp, .webpLossless)),
    SniffCase(name: "WebP animated", bytes: ascii("RIFF") + le32(100) + ascii("WEBPVP8X") + le32(10) + [0x12], expected: SniffedFormat(.webp, .webpExtended(animated: true, alpha: true))),
    SniffCase(name: "WebP extended still", bytes: ascii("RIFF") + le32(100) + ascii("WEBPVP8X") + le32(10) + [0x00], expected: SniffedFormat(.webp, .webpExtended(animated: false, alpha: false))),
    SniffCase(name: "TIFF II", bytes: [0x49, 0x49, 0x2A, 0x00], expected: SniffedFormat(.tiff, .tiffLittleEndian(big: false))),
    SniffCase(name: "TIFF MM", bytes: [0x4D, 0x4D, 0x00, 0x2A], expected: SniffedFormat(.tiff, .tiffBigEndian(big: false))),
    SniffCase(name: "BigTIFF II", bytes: [0x49, 0x49, 0x2B, 0x00], expected: SniffedFormat(.tiff, .tiffLittleEndian(big: true))),
    SniffCase(name: "BMP", bytes: ascii("BM") + le32(70) + [0, 0, 0, 0] + le32(54) + le32(40), expected: SniffedFormat(.bmp)),
    SniffCase(name: "ICO", bytes: [0, 0, 1, 0, 1, 0], expected: SniffedFormat(.ico)),
    SniffCase(name: "CUR", bytes: [0, 0, 2, 0, 2, 0], expected: SniffedFormat(.cur)),
    SniffCase(name: "HEIC", bytes: ftyp(major: "heic", compatible: ["mif1", "heic"]), expected: SniffedFormat(.heic)),
    SniffCase(name: "HEIF", bytes: ftyp(major: "mif1", compatible: ["mif1", "miaf"]), expected: SniffedFormat(.heif)),
    SniffCase(name: "HEIC by compatible brand", bytes: ftyp(major: "mif1", compatible: ["mif1", "heic"]), expected: SniffedFormat(.heic)),
    SniffCase(name: "AVIF", bytes: ftyp(major: "avif", compatible: ["mif1", "miaf"]), expected: SniffedFormat(.avif)),
    SniffCase(name: "AVIF sequence", bytes: ftyp(major: "avis", compatible: ["msf1"]), expected: SniffedFormat(.avif)),
    SniffCase(name: "JPEG XL codestream", bytes: [0xFF, 0x0A], expected: SniffedFormat(.jpegXL, .jpegXLCodestream)),
    SniffCase(name: "JPEG XL container", bytes: [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A], expected: SniffedFormat(.jpegXL, .jpegXLContainer)),
    SniffCase(name: "SVG", bytes: ascii("<svg xmlns=\"http://www.w3.org/2000/svg\"/>"), expected: SniffedFormat(.svg)),
    SniffCase(name: "SVG with prologue", bytes: [0xEF, 0xBB, 0xBF] + ascii("<?xml version=\"1.0\"?>\n<!-- made by hand -->\n<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\">\n<svg>"), expected: SniffedFormat(.svg)),
    SniffCase(name: "PDF", bytes: ascii("%PDF-1.7"), expected: SniffedFormat(.pdf)),
]

@Suite("Format sniffing")
struct FormatSnifferTests {
    @Test(arguments: sniffCases)
    func detectsFormat(_ testCase: SniffCase) {
        #expect(FormatSniffer.sniff(testCase.bytes) == .detected(testCase.expected))
    }

    /// Every prefix shorter than the deciding length asks for more data. For PNG
    /// the deciding length reaches the chunk type of the first IDAT or acTL.
    @Test(arguments: sniffCases)
    func everyShortPrefixNeedsMoreData(_ testCase: SniffCase) {
        let deciding = decidingLength(testCase)
        for length in 0..<deciding {
            #expect(FormatSniffer.sniff(testCase.bytes.prefix(length)) == .needMoreData, "prefix of \(length) bytes")
        }
    }

    /// The shortest prefix that decides (found by scanning, then checked to be
    /// the end of the signature the case was built to exercise).
    private func decidingLength(_ testCase: SniffCase) -> Int {
        (0...testCase.bytes.count).first { FormatSniffer.sniff(testCase.bytes.prefix($0)) != .needMoreData } ?? testCase.bytes.count
    }

    @Test func decidingLengthsAreTheSignatureLengths() {
        let expected: [String: Int] = [
            "PNG": 8 + 25 + 8, "APNG": 8 + 25 + 8, "JPEG": 2, "GIF87a": 6, "GIF89a": 6,
            "WebP lossy": 16, "WebP lossless": 16, "WebP animated": 21, "TIFF II": 4, "TIFF MM": 4,
            "BMP": 18, "ICO": 6, "CUR": 6, "JPEG XL codestream": 2, "JPEG XL container": 12, "PDF": 5,
        ]
        for testCase in sniffCases {
            guard let length = expected[testCase.name] else { continue }
            #expect(decidingLength(testCase) == length, "\(testCase.name)")
        }
    }

    @Test func emptyInputNeedsMoreData() {
        #expect(FormatSniffer.sniff([UInt8]()) == .needMoreData)
        #expect(FormatSniffer.sniff([UInt8](), atEnd: true) == .detected(SniffedFormat(.unknown)))
    }

    @Test(arguments: [
        ascii("hello world"), ascii("<html><body>"), ascii("RIFF\0\0\0\0WAVEfmt "), ascii("BMxxxxxxxxxxxxxxxxxx"),
        [0, 0, 1, 0, 0, 0], [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0B], ascii("GIF88a"), [0xFF, 0xD9],
        ascii("<?xml version=\"1.0\"?><rss>"), ftyp(major: "isom", compatible: ["mp41"]),
    ])
    func rejectsOtherBytes(_ bytes: [UInt8]) {
        #expect(FormatSniffer.sniff(bytes) == .detected(SniffedFormat(.unknown)))
    }

    @Test func truncatedPNGAtEndIsPNG() {
        let bytes = pngSignature + ihdr
        #expect(FormatSniffer.sniff(bytes) == .needMoreData)
        #expect(FormatSniffer.sniff(bytes, atEnd: true) == .detected(SniffedFormat(.png)))
    }

    @Test func svgPrologueLongerThanTheSearchLimitIsNotSVG() {
        let bytes = ascii("<!--") + [UInt8](repeating: 0x20, count: FormatSniffer.svgSearchLimit) + ascii("--><svg>")
        #expect(FormatSniffer.sniff(bytes) == .detected(SniffedFormat(.unknown)))
    }

    @Test func hugePNGChunkLengthDoesNotTrap() {
        let bytes = pngSignature + [0xFF, 0xFF, 0xFF, 0xFF] + ascii("tEXt")
        #expect(FormatSniffer.sniff(bytes) == .detected(SniffedFormat(.png)))
        let nearMax = pngSignature + [0x7F, 0xFF, 0xFF, 0xFF] + ascii("tEXt")
        #expect(FormatSniffer.sniff(nearMax) == .needMoreData)
        #expect(FormatSniffer.sniff(nearMax, atEnd: true) == .detected(SniffedFormat(.png)))
    }
}
