import Foundation
@testable import GlimpseCodec
import Testing
import TestSupport

/// The encoder on real images: crops of the bench PNGs and a sample of the
/// corpus PNGs, byte-compared with refencode; and the output decoded by our
/// decoder and by refdecode to the same pixels. Debug builds are slow, so
/// large images are cropped.
@Suite("JPEG encoder: corpus and bench", .enabled(if: Fixtures.shared != nil && ReferenceEncoder.executable != nil))
struct JPEGEncoderCorpusTests {
    /// The bench PNGs of at most 2.5 Mpixels (IHDR size): decoding the larger
    /// ones takes seconds in a debug build. Every bench PNG, whole, is compared
    /// in release builds with `glimpse encode` (see the JPEG README).
    static var benchPNGs: [URL] {
        guard let directory = Fixtures.shared?.appendingPathComponent("bench/png") else { return [] }
        return Fixtures.files(in: directory, extensions: [".png"]).filter { url in
            guard let bytes = try? Fixtures.bytes(at: url), bytes.count > 24 else { return false }
            let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
            return width * height <= 2_500_000
        }
    }

    /// Whether the PNG's IHDR colour type has no colour bit (refencode keeps it grey).
    static func isGreyPNG(_ bytes: [UInt8]) -> Bool { bytes.count > 25 && bytes[25] & 2 == 0 }

    @Test("crops of the bench PNGs equal refencode's bytes", arguments: benchPNGs)
    func benchCrops(_ url: URL) throws {
        let bytes = try Fixtures.bytes(at: url)
        let grey = Self.isGreyPNG(bytes)
        let image = try PNG.Decoder.decode(bytes)
        // An off-centre crop with partial MCUs on both edges.
        let pixels = JPEGEncoderFixtures.opaque(JPEGEncoderFixtures.crop(image.pixels, width: 203, height: 157))
        let settings: [(Int, JPEG.EncodingOptions.Subsampling, Bool, Bool)] = [
            (75, .yCbCr420, false, false), (90, .yCbCr444, false, true), (90, .yCbCr420, true, false), (85, .yCbCr422, false, false),
        ]
        for (quality, subsampling, progressive, optimize) in settings {
            let options = JPEG.EncodingOptions(quality: quality, subsampling: grey ? .grayscale : subsampling,
                                               optimizesHuffmanTables: optimize, isProgressive: progressive,
                                               alpha: .ignore, metadata: [])
            let reference = try #require(try ReferenceEncoder.encode(pixels, grey: grey, options: options))
            #expect(try JPEG.Encoder(options: options).encode(pixels) == reference,
                    "\(url.lastPathComponent) \(ReferenceEncoder.arguments(for: options))")
        }
    }

    /// A sample of small corpus PNGs (every colour type and depth of PngSuite).
    static var corpusPNGs: [URL] {
        guard let directory = Fixtures.corpus("png/pngsuite") else { return [] }
        let names = ["basn0g01.png", "basn0g16.png", "basn2c08.png", "basn2c16.png", "basn3p04.png", "basn4a08.png",
                     "basn6a16.png", "basi2c08.png", "s01n3p01.png", "s07n3p02.png", "s35n3p04.png", "tbwn3p08.png"]
        return names.map { directory.appendingPathComponent($0) }.filter { FileManager.default.fileExists(atPath: $0.path) }
    }

    @Test("corpus PNGs encoded from the file equal refencode's bytes", arguments: corpusPNGs)
    func corpusFiles(_ url: URL) throws {
        let bytes = try Fixtures.bytes(at: url)
        let image = try PNG.Decoder.decode(bytes, options: DecodingOptions(sampleDepth: .preserve))
        let grey = Self.isGreyPNG(bytes)
        for subsampling in [JPEG.EncodingOptions.Subsampling.yCbCr420, .yCbCr444] {
            let options = JPEG.EncodingOptions(quality: 85, subsampling: grey ? .grayscale : subsampling,
                                               optimizesHuffmanTables: subsampling == .yCbCr444, alpha: .ignore, metadata: [])
            let reference = try #require(ReferenceEncoder.encode(png: url, options: options))
            #expect(try JPEG.Encoder(options: options).encode(image.pixels) == reference, "\(url.lastPathComponent)")
        }
    }

    @Test("our decoder reads every output to refdecode's pixels", .enabled(if: ReferenceDecoder.executable != nil))
    func roundTrip() throws {
        let pixels = JPEGEncoderFixtures.image(width: 45, height: 27)
        for subsampling in JPEG.EncodingOptions.Subsampling.allCases {
            for options in JPEGEncoderFixtures.modes(quality: 80, subsampling: subsampling) {
                let encoded = try JPEG.Encoder(options: options).encode(pixels)
                let url = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-enc-\(UUID().uuidString).jpg")
                try Data(encoded).write(to: url)
                defer { try? FileManager.default.removeItem(at: url) }
                let reference = try #require(ReferenceDecoder.decode(url))
                let ours = try JPEG.Decoder.decode(encoded)
                #expect(ours.pixels == reference, "\(ReferenceEncoder.arguments(for: options))")
            }
        }
    }
}

/// The fuzz `roundtrip` target's JPEG settings on the repository's fixtures:
/// our output decodes with refdecode to the pixels our decoder gives.
@Suite("JPEG encoder: fuzz-derived settings", .enabled(if: ReferenceDecoder.executable != nil))
struct JPEGEncoderFuzzSettingsTests {
    static var fixtures: [URL] {
        ["png", "gif"].flatMap { Fixtures.files(in: Fixtures.url($0), extensions: [".png", ".gif"]) }.prefix(24).map { $0 }
    }

    @Test("a sample of fixtures through FuzzChecks.jpegOptions")
    func sample() throws {
        var checked = 0
        for url in Self.fixtures {
            let bytes = try Fixtures.bytes(at: url)
            guard let image = try? DecoderRegistry.standard.decode(bytes), image.width * image.height <= 1 << 16 else { continue }
            #expect(FuzzChecks.run(.roundtrip, bytes) == nil, "\(url.lastPathComponent)")
            let encoded = try JPEG.Encoder(options: FuzzChecks.jpegOptions(for: bytes)).encode(image)
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-fuzz-\(UUID().uuidString).jpg")
            try Data(encoded).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let reference = try #require(ReferenceDecoder.decode(file), "\(url.lastPathComponent)")
            #expect(try JPEG.Decoder.decode(encoded).pixels == reference, "\(url.lastPathComponent)")
            checked += 1
        }
        #expect(checked >= 10)
    }
}
