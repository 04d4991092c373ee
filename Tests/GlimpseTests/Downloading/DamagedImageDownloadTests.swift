import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Glimpse
import GlimpseCodec
import LoopbackHTTPServer
import Testing

/// A damaged file is decoded as browsers show it, with its warnings in the
/// result; a transfer cut before its Content-Length is a network fault and stays
/// a transport error (never a partial image).
@Suite("ImageDownloader and damaged files")
struct DamagedImageDownloadTests {
    typealias Response = LoopbackHTTPServer.Response

    /// A 64×64 PNG cut in the middle of its image data.
    static let cutPNG: [UInt8] = {
        var pixels = PixelBuffer(width: 64, height: 64)
        for i in pixels.bytes.indices { pixels.bytes[i] = UInt8(truncatingIfNeeded: i &* 31) }
        let file = (try? PNG.Encoder(options: PNG.Encoder.Options(compressionLevel: 0)).encode(pixels)) ?? []
        return Array(file.prefix(file.count / 2))
    }()

    @available(*, deprecated, message: "tests the deprecated decoding request")
    static func harness() throws -> DownloaderHarness {
        try DownloaderHarness.make { $0.decoderRegistry = .standard }
    }

    @available(*, deprecated, message: "tests the deprecated decoding request")
    @Test func aDamagedFileDecodesWithItsWarnings() async throws {
        let harness = try Self.harness()
        harness.server.setRoute("/cut.png", .fixed(.ok(Self.cutPNG, contentType: "image/png")))
        let result = try await harness.downloader.download(ImageDownloadRequest(url: harness.url("/cut.png"), decoding: .init()))
        let image = try #require(result.image)
        #expect(image.warnings == [DecodingWarning(.png(.imageDataEnded))])
        await harness.finish()
    }

    @available(*, deprecated, message: "tests the deprecated decoding request")
    @Test func aTransferCutBeforeItsContentLengthIsATransportError() async throws {
        let harness = try Self.harness()
        let declared = Self.cutPNG.count * 2
        harness.server.setRoute("/short.png", .fixed(Response(body: .lying(declaredLength: declared, bytes: Self.cutPNG))))
        do {
            let result = try await harness.downloader.download(ImageDownloadRequest(url: harness.url("/short.png"), decoding: .init()))
            Issue.record("a cut transfer gave an image: \(String(describing: result.image?.warnings))")
        } catch {
            guard case .transport = error else { Issue.record("expected a transport error, got \(error)"); return }
        }
        await harness.finish()
    }
}
