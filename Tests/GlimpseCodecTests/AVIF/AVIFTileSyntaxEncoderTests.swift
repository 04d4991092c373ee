import Foundation
import Testing
import TestSupport
@testable import GlimpseCodec

/// Files made at test time with `avifenc` (Debian libavif-bin, libaom) from a bench photo
/// cropped small, across its options, parsed through the whole tile syntax: every tile must
/// end where its data ends with exit_symbol's checks passing.
@Suite struct AVIFTileSyntaxEncoderTests {
    static let avifenc: String? = ["/usr/bin/avifenc", "/usr/local/bin/avifenc"].first { FileManager.default.isExecutableFile(atPath: $0) }

    static let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-avif-syntax-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// A crop of a bench PNG, written as PNG for avifenc; nil without ../shared.
    static func source(_ subpath: String, name: String, width: Int, height: Int) -> URL? {
        guard let url = Fixtures.shared?.appendingPathComponent("bench").appendingPathComponent(subpath),
              let bytes = try? Fixtures.bytes(at: url),
              let image = try? DecoderRegistry.standard.decode(bytes),
              let cropped = try? ImageTransformers.Crop(x: 0, y: 0, width: min(width, image.width),
                                                         height: min(height, image.height)).transform(image),
              let png = try? EncoderRegistry.standard.encode(cropped, as: .png) else { return nil }
        let output = directory.appendingPathComponent(name)
        guard (try? Data(png).write(to: output)) != nil else { return nil }
        return output
    }

    /// An odd-sized photo crop (edges of partially outside superblocks and 4×4 blocks).
    static let photo = source("photos-512/1001682.png", name: "photo.png", width: 203, height: 149)
    static let alphaSource = source("png/rgba8-1080x1920.png", name: "alpha.png", width: 130, height: 98)

    static let variants: [[String]] = {
        var variants: [[String]] = (0...10).map { ["-s", String($0)] }
        variants += [["--tilerowslog2", "1", "--tilecolslog2", "1"], ["-s", "8", "--tilerowslog2", "1", "--tilecolslog2", "1"]]
        for format in ["420", "422", "444", "400"] {
            for depth in ["8", "10", "12"] { variants.append(["-s", "8", "-y", format, "-d", depth]) }
        }
        variants += [["-s", "8", "-l"], ["-s", "8", "-l", "-d", "10"], ["-s", "8", "--min", "0", "--max", "0"],
                     ["-s", "8", "--min", "1", "--max", "10"], ["-s", "8", "--min", "40", "--max", "63"],
                     ["-s", "8", "--min", "63", "--max", "63"]]
        return variants
    }()

    @Test(.enabled(if: avifenc != nil && photo != nil), arguments: variants)
    func encodedFileParses(_ options: [String]) throws {
        let outcome = try encodeAndParse(try #require(Self.photo), options)
        #expect(!outcome.items.isEmpty)
        #expect(outcome.failures.isEmpty, "avifenc \(options.joined(separator: " ")): \(outcome.failures)")
    }

    @Test(.enabled(if: avifenc != nil && alphaSource != nil), arguments: [["-s", "8"], ["-s", "8", "-y", "444", "-d", "10"]])
    func encodedAlphaParses(_ options: [String]) throws {
        let outcome = try encodeAndParse(try #require(Self.alphaSource), options)
        #expect(outcome.items.count == 2, "colour and alpha items")
        #expect(outcome.failures.isEmpty, "avifenc \(options.joined(separator: " ")) with alpha: \(outcome.failures)")
    }

    private func encodeAndParse(_ source: URL, _ options: [String]) throws -> AVIFTileParsing.Outcome {
        let name = "out-" + options.joined().replacingOccurrences(of: "-", with: "_") + "-" + source.lastPathComponent + ".avif"
        let output = Self.directory.appendingPathComponent(name)
        let result = ReferenceDecoder.run(try #require(Self.avifenc), options + ["-j", "1", source.path, output.path])
        try #require(result?.status == 0, "avifenc failed: \(result?.output ?? "")")
        defer { try? FileManager.default.removeItem(at: output) }
        return AVIFTileParsing.parse(try Fixtures.bytes(at: output))
    }
}
