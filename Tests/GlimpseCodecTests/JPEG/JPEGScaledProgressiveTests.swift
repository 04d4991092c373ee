import Foundation
import GlimpseCodec
import Testing
import TestSupport

/// Progressive JPEGs decoded at 1/2, 1/4 and 1/8 against libjpeg-turbo's
/// scaled output (`refdecode --scale N`, = `djpeg -scale 1/N`): the final
/// inverse DCT over the buffered coefficients is the reduced one, so the
/// pixels must be the same, and skipping the AC scans no 1×1 block uses
/// (`skipsUnusedScans`) must not change them.
@Suite("JPEG: scaled progressive decode", .enabled(if: Fixtures.corpus("jpeg") != nil))
struct JPEGScaledProgressiveTests {
    /// Small enough for a debug build (the bench files are checked in release, see the README).
    static let maxPixels = 300_000

    static func isProgressive(_ bytes: [UInt8]) -> Bool {
        var i = 2
        while i + 3 < bytes.count {
            guard bytes[i] == 0xFF else { i += 1; continue }
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }
            if marker == 0xC2 { return true }
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC { return false }
            if marker == 0xDA || marker == 0xD9 { return false }
            if marker == 0x00 || marker == 0x01 || (0xD0...0xD8).contains(marker) { i += 2; continue }
            i += 2 + (Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]))
        }
        return false
    }

    static var files: [URL] {
        var files = Fixtures.files(in: Fixtures.url("jpeg"), extensions: [".jpg"])
        if let corpus = Fixtures.corpus("jpeg") { files += Fixtures.files(in: corpus, extensions: [".jpg", ".jpeg"]) }
        return files.filter { url in
            guard let bytes = try? Fixtures.bytes(at: url) else { return false }
            let pixels = JPEGCorpusTests.pixelCount(bytes)
            return pixels > 0 && pixels <= maxPixels && isProgressive(bytes)
        }
    }

    @Test("identical to libjpeg-turbo at 1/2, 1/4 and 1/8; skipping unused scans changes nothing")
    func scaled() throws {
        var checked = 0
        for url in Self.files {
            let bytes = try Fixtures.bytes(at: url)
            for scale in [2, 4, 8] {
                // Only files libjpeg-turbo decodes without a warning serve as references.
                guard let reference = ReferenceDecoder.decode(url, scale: scale) else { continue }
                let image = try JPEG.Decoder.decode(bytes, options: DecodingOptions(scaleDenominator: scale))
                let name = "\(url.lastPathComponent) 1/\(scale)"
                #expect(image.pixels == reference, "\(name)")
                var skipping = DecodingOptions(scaleDenominator: scale)
                skipping.skipsUnusedScans = true
                #expect(try JPEG.Decoder.decode(bytes, options: skipping) == image, "\(name), skipping")
                checked += 1
            }
        }
        #expect(checked >= 12)
    }
}
