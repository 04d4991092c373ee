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

    /// A crop of a bench PNG, written as PNG for avifenc; with `alphaRamp`, its alpha set to a
    /// horizontal ramp (the bench photos are opaque, and avifenc drops an opaque alpha). Nil
    /// without ../shared.
    static func source(_ subpath: String, name: String, width: Int, height: Int, alphaRamp: Bool = false,
                       posterize: Bool = false) -> URL? {
        guard let url = Fixtures.shared?.appendingPathComponent("bench").appendingPathComponent(subpath),
              let bytes = try? Fixtures.bytes(at: url),
              let image = try? DecoderRegistry.standard.decode(bytes),
              var cropped = try? ImageTransformers.Crop(x: 0, y: 0, width: min(width, image.width),
                                                         height: min(height, image.height)).transform(image) else { return nil }
        if alphaRamp || posterize {
            var pixels = cropped.pixels
            guard pixels.format == .rgba8 else { return nil }
            for y in 0..<pixels.height {
                for x in 0..<pixels.width {
                    let index = y * pixels.bytesPerRow + x * 4
                    if alphaRamp { pixels.bytes[index + 3] = UInt8(x * 255 / max(1, pixels.width - 1)) }
                    // Two levels per channel: few colours, as screen content has (palette mode).
                    if posterize { for c in 0..<3 { pixels.bytes[index + c] = pixels.bytes[index + c] >= 128 ? 224 : 32 } }
                }
            }
            cropped = Image(pixels: pixels, format: .png)
        }
        guard let png = try? EncoderRegistry.standard.encode(cropped, as: .png) else { return nil }
        let output = directory.appendingPathComponent(name)
        guard (try? Data(png).write(to: output)) != nil else { return nil }
        return output
    }

    /// An odd-sized photo crop (edges of partially outside superblocks and 4×4 blocks).
    static let photo = source("photos-512/1001682.png", name: "photo.png", width: 203, height: 149)
    static let screen: URL? = {
        // Synthetic screen content: a white page, blue 8-pixel stripes, red boxes, black rules.
        var pixels = PixelBuffer(width: 160, height: 128)
        for y in 0..<128 {
            for x in 0..<160 {
                var rgb: (UInt8, UInt8, UInt8) = (255, 255, 255)
                if x % 16 < 8 && y < 40 { rgb = (20, 40, 200) }
                if (20..<60).contains(x) && (60..<100).contains(y) { rgb = (200, 0, 0) }
                if y % 24 == 5 || (x % 40 == 3 && y > 40) { rgb = (0, 0, 0) }
                let index = y * pixels.bytesPerRow + x * 4
                pixels.bytes[index] = rgb.0
                pixels.bytes[index + 1] = rgb.1
                pixels.bytes[index + 2] = rgb.2
                pixels.bytes[index + 3] = 255
            }
        }
        guard let png = try? EncoderRegistry.standard.encode(Image(pixels: pixels, format: .png), as: .png) else { return nil }
        let output = directory.appendingPathComponent("screen.png")
        return (try? Data(png).write(to: output)) != nil ? output : nil
    }()
    static let alphaSource = source("photos-512/1001682.png", name: "alpha.png", width: 130, height: 98, alphaRamp: true)

    static let variants: [[String]] = {
        var variants: [[String]] = (0...10).map { ["-s", String($0)] }
        variants += [["--tilerowslog2", "1", "--tilecolslog2", "1"], ["-s", "8", "--tilerowslog2", "1", "--tilecolslog2", "1"]]
        for format in ["420", "422", "444", "400"] {
            for depth in ["8", "10", "12"] { variants.append(["-s", "8", "-y", format, "-d", depth]) }
        }
        variants += [["-s", "8", "-l"], ["-s", "8", "-l", "-d", "10"], ["-s", "8", "--min", "0", "--max", "0"],
                     ["-s", "8", "--min", "1", "--max", "10"], ["-s", "8", "--min", "40", "--max", "63"],
                     ["-s", "8", "--min", "63", "--max", "63"],
                     // rav1e's choices of tools differ from libaom's.
                     ["-c", "rav1e", "-s", "6"], ["-c", "rav1e", "-s", "10"], ["-c", "rav1e", "-s", "8", "-y", "444", "-d", "10"],
                     // Segmentation (aq-mode), delta q, chroma delta q, no CDEF.
                     ["-s", "6", "-a", "aq-mode=1"], ["-s", "6", "-a", "deltaq-mode=1"],
                     ["-s", "6", "-a", "enable-chroma-deltaq=1", "-y", "444"], ["-s", "8", "-a", "enable-cdef=0"],
                     ["-s", "6", "--tilerowslog2", "2", "--tilecolslog2", "1"]]
        return variants
    }()

    @Test(.enabled(if: avifenc != nil && photo != nil), arguments: variants)
    func encodedFileParses(_ options: [String]) throws {
        let outcome = try encodeAndParse(try #require(Self.photo), options)
        #expect(!outcome.items.isEmpty)
        #expect(outcome.failures.isEmpty, "avifenc \(options.joined(separator: " ")): \(outcome.failures)")
        if options.contains("--tilecolslog2") { #expect(outcome.usedTiles, "several tiles") }
    }

    /// Screen content (libaom's `tune-content=screen` on a posterized photo): palette mode and
    /// the other screen-content tools.
    @Test(.enabled(if: avifenc != nil && screen != nil),
          arguments: [["-s", "6", "-a", "tune-content=screen", "-a", "enable-intrabc=0"],
                      ["-s", "4", "-a", "tune-content=screen", "-a", "enable-intrabc=0", "-y", "444"],
                      ["-s", "6", "-a", "tune-content=screen", "-a", "enable-intrabc=0", "-y", "420", "-d", "10"]])
    func encodedScreenContentParses(_ options: [String]) throws {
        let outcome = try encodeAndParse(try #require(Self.screen), options)
        #expect(!outcome.items.isEmpty)
        #expect(outcome.failures.isEmpty, "avifenc \(options.joined(separator: " ")): \(outcome.failures)")
        #expect(outcome.palettePositions > 0, "palette mode exercised")
    }

    /// Screen content with libaom's intra block copy left enabled. (libaom chooses not to use
    /// it on this image: `allow_intrabc` stays 0 here; the corpus's six Microsoft files are
    /// what exercises intra block copy.)
    @Test(.enabled(if: avifenc != nil && screen != nil),
          arguments: [["-s", "6", "-a", "tune-content=screen"], ["-s", "4", "-a", "tune-content=screen", "-y", "444"]])
    func encodedScreenContentWithIntraBlockCopyEnabledParses(_ options: [String]) throws {
        let outcome = try encodeAndParse(try #require(Self.screen), options)
        #expect(!outcome.items.isEmpty)
        #expect(outcome.failures.isEmpty, "avifenc \(options.joined(separator: " ")): \(outcome.failures)")
        #expect(outcome.palettePositions > 0, "palette mode exercised")
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
