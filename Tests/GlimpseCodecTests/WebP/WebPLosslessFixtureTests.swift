import Foundation
import Testing
import TestSupport
@testable import GlimpseCodec

/// Fixtures made by `Fixtures/webp-lossless/generate.py` with `cwebp -lossless -exact`:
/// predictor-heavy gradients, colour indexing at 2…256 colours (every bundling
/// width, odd widths), LZ77-heavy tiles, 1-pixel rows and columns. Lossless coding
/// keeps the source PNG's pixels, so those are the expected output.
struct WebPLosslessFixtureTests {
    static let folder = Fixtures.url("webp-lossless")

    static var files: [URL] { Fixtures.files(in: folder, extensions: [".webp"]) }

    @Test func fixturesDecodeToTheirSourcePixels() throws {
        #expect(Self.files.count >= 17)
        for url in Self.files {
            let bytes = try Fixtures.bytes(at: url)
            let chunk = try #require(WebPLosslessTestSupport.vp8lChunk(bytes), "\(url.lastPathComponent)")
            let image = try WebP.LosslessDecoder.decode(chunk.rest, limits: DecodingLimits())
            let source = try PNG.Decoder.decode(try Fixtures.bytes(at: url.deletingPathExtension().appendingPathExtension("png")))
            let expected = try #require(source.frames.first?.pixels)
            #expect(image.width == expected.width && image.height == expected.height, "\(url.lastPathComponent)")
            #expect(image.bytes == expected.bytes, "\(url.lastPathComponent) differs from its source")
        }
    }

    @Test(.enabled(if: ReferenceDecoder.executable != nil))
    func fixturesMatchLibwebp() throws {
        for url in Self.files {
            let chunk = try #require(WebPLosslessTestSupport.vp8lChunk(try Fixtures.bytes(at: url)))
            let image = try WebP.LosslessDecoder.decode(chunk.rest, limits: DecodingLimits())
            let reference = try #require(ReferenceDecoder.decode(url))
            #expect(image.bytes == reference.bytes, "\(url.lastPathComponent) differs from libwebp")
        }
    }

    @Test func headerReportsSizeAndAlphaHint() throws {
        let chunk = try #require(WebPLosslessTestSupport.vp8lChunk(
            try Fixtures.bytes(at: Self.folder.appendingPathComponent("photo-alpha-131x7-m4.webp"))))
        let header = try WebP.LosslessDecoder.readHeader(chunk.payload)
        #expect(header == WebP.LosslessDecoder.Header(width: 131, height: 7, hasAlpha: true))
        let opaque = try #require(WebPLosslessTestSupport.vp8lChunk(
            try Fixtures.bytes(at: Self.folder.appendingPathComponent("photo-67x45-z9.webp"))))
        #expect(try WebP.LosslessDecoder.readHeader(opaque.payload).hasAlpha == false)
    }

    @Test func limitsAreCheckedBeforeDecoding() throws {
        let chunk = try #require(WebPLosslessTestSupport.vp8lChunk(
            try Fixtures.bytes(at: Self.folder.appendingPathComponent("photo-67x45-z9.webp"))))
        #expect(throws: ImageDecodingError.limitExceeded(.width)) {
            try WebP.LosslessDecoder.decode(chunk.rest, limits: DecodingLimits(maxWidth: 66))
        }
        #expect(throws: ImageDecodingError.limitExceeded(.totalBytes)) {
            try WebP.LosslessDecoder.decode(chunk.rest, limits: DecodingLimits(maxTotalBytes: 67 * 45 * 4))
        }
    }

    @Test func everyTruncationIsRejected() throws {
        let bytes = try Fixtures.bytes(at: Self.folder.appendingPathComponent("photo-alpha-64x33-z6.webp"))
        let chunk = try #require(WebPLosslessTestSupport.vp8lChunk(bytes))
        let payload = Array(chunk.payload)
        // libwebp reads at least 8 bytes' worth of window; beyond that a cut stream fails.
        for length in stride(from: 0, to: payload.count - 1, by: 7) {
            #expect(throws: ImageDecodingError.self, "cut at \(length)") {
                try WebP.LosslessDecoder.decode(payload[0..<length], limits: DecodingLimits())
            }
        }
    }
}
