import Foundation
import GlimpseCodec
import Testing
import TestSupport

/// The shared conformance corpus against libjpeg-turbo (refdecode). Skipped
/// when ../shared is absent.
@Suite("JPEG corpus", .enabled(if: Fixtures.corpus("jpeg") != nil))
struct JPEGCorpusTests {
    /// Files refdecode decodes but we do not reproduce, and why.
    static let knownDifferences: [String: String] = [
        "turbo_testimgari.jpg": "arithmetic coding is unsupported",
        "jpegdec_reftest_mozilla_jpg-size-6x6.jpg": "a PNG file with a .jpg name",
    ]

    /// Debug builds decode slowly: keep the suite fast by leaving out big images
    /// (the release-build comparison of every file is in the README).
    static let maxPixels = 80_000

    /// Width × height from the frame header, found by walking the marker
    /// segments (so EXIF thumbnails are skipped), without decoding.
    static func pixelCount(_ bytes: [UInt8]) -> Int {
        var i = 2
        while i + 9 < bytes.count {
            guard bytes[i] == 0xFF else { i += 1; continue }
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                return (Int(bytes[i + 5]) << 8 | Int(bytes[i + 6])) * (Int(bytes[i + 7]) << 8 | Int(bytes[i + 8]))
            }
            if marker == 0xDA || marker == 0xD9 { return 0 }
            if marker == 0x00 || marker == 0x01 || (0xD0...0xD8).contains(marker) { i += 2; continue }
            i += 2 + (Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]))
        }
        return 0
    }

    static var files: [URL] {
        guard let directory = Fixtures.corpus("jpeg") else { return [] }
        return Fixtures.files(in: directory, extensions: [".jpg", ".jpeg", ".mpo"])
    }

    @Test("every file libjpeg-turbo decodes is identical; the others fail cleanly")
    func corpus() throws {
        var checked = 0, identical = 0, pixels = 0
        for url in Self.files {
            let name = url.lastPathComponent
            let bytes = try Fixtures.bytes(at: url)
            guard Self.pixelCount(bytes) <= Self.maxPixels else { continue }
            let result = Result { () throws(ImageDecodingError) in try JPEG.Decoder.decode(bytes) }
            guard let reference = ReferenceDecoder.decode(url), Self.knownDifferences[name] == nil else { continue }
            switch result {
            case .failure(let error):
                Issue.record("\(name): \(error)")
            case .success(let image):
                let comparison = JPEGTestSupport.compare(image.pixels, reference)
                #expect(comparison.sameSize, "\(name)")
                #expect(comparison.maxDifference <= 1, "\(name): max difference \(comparison.maxDifference)")
                #expect(comparison.identicalFraction >= 0.999, "\(name): \(comparison.identicalFraction)")
                checked += 1
                identical += comparison.identicalPixels
                pixels += comparison.pixels
            }
        }
        #expect(checked > 60)
        print("JPEG corpus: \(checked) files, \(identical)/\(pixels) pixels identical")
    }

    @Test("files the corpus marks as broken give typed errors", arguments: [
        "jpegdec_crashtest_empty.jpg", "jpegdec_crashtest_missing-sof.jpg", "jpegdec_crashtest_missing-sos.jpg",
        "jpegdec_crashtest_missing-frame-image-1410.jpg", "jpegdec_crashtest_null_height.jpg",
        "jpegdec_crashtest_invalid-dimensions.jpg", "jpegdec_crashtest_max_size.jpg",
        "jpegdec_crashtest_invalid-prediction-shift.jpg", "turbo_testorig12.jpg", "turbo_monkey12.jpg",
        "jpegdec_reftest_lossless_1_jpeg_lossless_sel1.jpg",
    ])
    func broken(_ name: String) throws {
        let url = try #require(Fixtures.corpus("jpeg/\(name)"))
        let bytes = try Fixtures.bytes(at: url)
        #expect(throws: ImageDecodingError.self) { try JPEG.Decoder.decode(bytes) }
        #expect(throws: ImageDecodingError.self) { try JPEG.Decoder.decode(bytes, options: DecodingOptions(mode: .strict)) }
    }

    @Test("truncated files are an error when strict", arguments: [
        "wuffs_peacock.default.truncated.jpeg", "wuffs_peacock.progressive.truncated.jpeg", "pillow_truncated_jpeg.jpg",
    ])
    func truncatedStrict(_ name: String) throws {
        let url = try #require(Fixtures.corpus("jpeg/\(name)"))
        let bytes = try Fixtures.bytes(at: url)
        #expect(throws: ImageDecodingError.truncated) { try JPEG.Decoder.decode(bytes, options: DecodingOptions(mode: .strict)) }
    }

    @Test("fuzzed files get the same answer whole and in pieces (an image or a typed error)")
    func fuzzedFilesDecodeTheSameInPieces() throws {
        var checked = 0
        for url in Self.files where url.lastPathComponent.contains("imagetestsuite") {
            let bytes = try Fixtures.bytes(at: url)
            guard Self.pixelCount(bytes) <= Self.maxPixels / 4 else { continue }
            #expect(FuzzChecks.run(.incremental, bytes) == nil, "\(url.lastPathComponent)")
            checked += 1
        }
        #expect(checked > 0)
    }
}
