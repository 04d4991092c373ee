import Foundation
import Testing
import TestSupport
@testable import GlimpseCodec

/// Every lossless still of `../shared/corpus/webp` (libwebp's test vectors)
/// decodes to libwebp's pixels (`refdecode`, i.e. `WebPDecodeRGBA`).
@Suite(.enabled(if: WebPLosslessTestSupport.corpus != nil && ReferenceDecoder.executable != nil))
struct WebPLosslessCorpusTests {
    @Test func everyLosslessStillMatchesLibwebp() throws {
        var matched = 0
        for url in WebPLosslessTestSupport.losslessCorpusFiles {
            let bytes = try Fixtures.bytes(at: url)
            let chunk = try #require(WebPLosslessTestSupport.vp8lChunk(bytes))
            let reference = ReferenceDecoder.decode(url)
            do {
                let image = try WebP.LosslessDecoder.decode(chunk.rest, limits: DecodingLimits())
                let reference = try #require(reference, "\(url.lastPathComponent): libwebp rejects it, Glimpse decodes it")
                #expect(image.width == reference.width && image.height == reference.height, "\(url.lastPathComponent)")
                #expect(image.bytes == reference.bytes, "\(url.lastPathComponent) differs from libwebp")
                if image.bytes == reference.bytes { matched += 1 }
            } catch {
                #expect(reference == nil, "\(url.lastPathComponent): \(error), libwebp decodes it")
            }
        }
        // 42 simple lossless stills in the corpus (its README); all must match.
        #expect(matched == WebPLosslessTestSupport.losslessCorpusFiles.count && matched >= 42)
    }

    /// `ALPH` with compression 1 and no filter: the stream's green channel is the
    /// alpha libwebp outputs. (Filters and the rest of alpha are the container's.)
    @Test func unfilteredCompressedAlphaMatchesLibwebp() throws {
        var checked = 0
        for url in WebPLosslessTestSupport.compressedAlphaFiles {
            let bytes = try Fixtures.bytes(at: url)
            let chunks = try #require(WebPLosslessTestSupport.chunks(bytes))
            let alpha = try #require(chunks.first { $0.fourCC == "ALPH" })
            guard let header = alpha.payload.first, (header >> 2) & 3 == 0 else { continue }
            let reference = try #require(ReferenceDecoder.decode(url))
            var plane = [UInt8](repeating: 0, count: reference.width * reference.height)
            let stream = alpha.payload.dropFirst()
            try stream.withUnsafeBytes { stream in
                try plane.withUnsafeMutableBytes { plane in
                    try WebP.LosslessDecoder.decodeAlpha(stream, width: reference.width, height: reference.height,
                                                         into: plane, limits: DecodingLimits())
                }
            }
            let expected = stride(from: 3, to: reference.bytes.count, by: 4).map { reference.bytes[$0] }
            #expect(plane == expected, "\(url.lastPathComponent) alpha differs from libwebp")
            checked += 1
        }
        #expect(checked >= 1)
    }

    @Test func headerGivesSizeAndAlpha() throws {
        let url = try #require(WebPLosslessTestSupport.corpus?.appendingPathComponent("lossless1.webp"))
        let chunk = try #require(WebPLosslessTestSupport.vp8lChunk(try Fixtures.bytes(at: url)))
        let header = try WebP.LosslessDecoder.readHeader(chunk.payload)
        let reference = try #require(ReferenceDecoder.decode(url))
        #expect(header.width == reference.width && header.height == reference.height)
    }
}
