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

    /// A damaged file decodes through the pipeline (the downloader moves bytes only).
    @Test func aDamagedFileDecodesWithItsWarnings() async throws {
        let harness = try DownloaderHarness.make()
        harness.server.setRoute("/cut.png", .fixed(.ok(Self.cutPNG, contentType: "image/png")))
        let pipeline = ImagePipeline(configuration: .init(downloader: harness.downloader, cache: ImageCache(disk: nil)))
        let image = try await pipeline.image(for: harness.url("/cut.png"))
        #expect(image.warnings == [DecodingWarning(.png(.imageDataEnded))])
        await harness.finish()
    }

    @Test func aTransferCutBeforeItsContentLengthIsATransportError() async throws {
        let harness = try DownloaderHarness.make()
        let declared = Self.cutPNG.count * 2
        harness.server.setRoute("/short.png", .fixed(Response(body: .lying(declaredLength: declared, bytes: Self.cutPNG))))
        do {
            let result = try await harness.downloader.download(ImageDownloadRequest(url: harness.url("/short.png")))
            Issue.record("a cut transfer gave \(result.bytes.count) bytes")
        } catch {
            guard case .transport = error else { Issue.record("expected a transport error, got \(error)"); return }
        }
        await harness.finish()
    }
}
