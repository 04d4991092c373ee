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

    /// Where the first AC scan (Ss > 0) starts, or `nil`: segments are walked by their
    /// lengths (an EXIF thumbnail's markers are inside one), entropy data to its next marker.
    static func firstACScan(_ bytes: [UInt8]) -> Int? {
        var i = 2
        while i + 3 < bytes.count {
            guard bytes[i] == 0xFF else { i += 1; continue }
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }
            if marker == 0xD9 { return nil }
            if marker == 0x00 || marker == 0x01 || (0xD0...0xD8).contains(marker) { i += 2; continue }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            if marker == 0xDA {
                let ss = i + 5 + 2 * Int(bytes[i + 4])
                guard ss < bytes.count else { return nil }
                if bytes[ss] > 0 { return i }
                // Entropy data: up to the next marker that is not a stuffed byte or RSTn.
                var j = i + 2 + length
                while j + 1 < bytes.count && !(bytes[j] == 0xFF && bytes[j + 1] != 0 && !(0xD0...0xD7).contains(bytes[j + 1])) {
                    j += 1
                }
                i = j
                continue
            }
            i += 2 + length
        }
        return nil
    }

    /// 1/8 with `skipsUnusedScans` stores only DC for components whose blocks become single
    /// samples, when the whole file is there and ends in EOI. A file cut after its DC scans
    /// (EOI appended) takes that store with block smoothing, which then interpolates the DC
    /// values themselves; fed in pieces, the same files keep the full store. Every way must
    /// give the full store's pixels, and libjpeg-turbo's where it decodes the file cleanly.
    @Test("the DC-only store of 1/8 gives the full store's pixels: whole, DC scans only, in pieces")
    func dcOnlyStore() throws {
        var checked = 0
        for url in Self.files {
            let bytes = try Fixtures.bytes(at: url)
            // Files libjpeg-turbo decodes without a warning, as above.
            guard ReferenceDecoder.decode(url, scale: 8) != nil, let cut = Self.firstACScan(bytes) else { continue }
            let dcOnly = Array(bytes[..<cut]) + [0xFF, 0xD9]
            var skipping = DecodingOptions(scaleDenominator: 8)
            skipping.skipsUnusedScans = true
            for (input, label) in [(bytes, "whole"), (dcOnly, "DC scans only")] {
                let name = "\(url.lastPathComponent) \(label)"
                let expected = try JPEG.Decoder.decode(input, options: DecodingOptions(scaleDenominator: 8))
                let stored = try JPEG.Decoder.decode(input, options: skipping)
                #expect(stored.pixels == expected.pixels, "\(name)")
                var pieces = JPEG.Decoder(options: skipping)
                for start in stride(from: 0, to: input.count, by: 997) {
                    _ = try input[start..<min(start + 997, input.count)].withUnsafeBytes { try pieces.append($0) }
                }
                #expect(try pieces.finish().pixels == expected.pixels, "\(name), in pieces")
                if label == "DC scans only" {
                    let file = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-dc-\(UUID().uuidString).jpg")
                    try Data(input).write(to: file)
                    defer { try? FileManager.default.removeItem(at: file) }
                    if let reference = ReferenceDecoder.decode(file, scale: 8, lenient: true) {
                        #expect(stored.pixels == reference, "\(name) against libjpeg-turbo")
                    }
                }
            }
            checked += 1
        }
        #expect(checked >= 4)
    }
}
