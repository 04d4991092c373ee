import Foundation
import Glimpse
import LoopbackHTTPServer
import TestSupport
import Testing

/// The code of `Glimpse.docc/GettingStarted.md`, word for word inside these
/// functions: CI compiles and runs it (against a loopback server and a
/// temporary cache folder instead of `ImagePipeline.shared`'s), so the article
/// cannot drift from the API.
@Suite("Documentation: Glimpse getting started")
struct GlimpseGettingStartedTests {
    // MARK: - Article code

    /// "Load an image"
    static func loadImage(_ url: URL, pipeline: ImagePipeline = .shared) async throws(ImageLoadError) -> Image {
        let image = try await pipeline.image(for: url)
        print("\(image.width)×\(image.height) \(image.format)")
        return image
    }

    /// "Load a thumbnail"
    static func loadThumbnail(_ url: URL, pipeline: ImagePipeline = .shared) async throws(ImageLoadError) -> Image {
        // Upright (EXIF orientation), at most 256 pixels wide, never enlarged. The
        // disk tier keeps the thumbnail itself (JPEG, or PNG with transparency).
        let request = ImageRequest(url: url, processors: [.resize(width: 256)])
        return try await pipeline.image(for: request)
    }

    /// "Follow progress"
    static func loadWithProgress(_ url: URL, pipeline: ImagePipeline = .shared) async throws(ImageLoadError) -> Image {
        let task = pipeline.imageTask(for: ImageRequest(url: url, options: .progressive, priority: .high))
        for await event in task.events {
            switch event {
            case .progress(let received, let expected):
                print("\(received) of \(expected.map(String.init) ?? "?") bytes")
            case .preview(let partial):
                print("preview \(partial.width)×\(partial.height)")
            case .finished:
                break
            }
        }
        return try await task.image
    }

    /// "Configure your own pipeline"
    static func makePipeline(environment: [String: String] = ProcessInfo.processInfo.environment) -> ImagePipeline {
        var configuration = ImagePipeline.Configuration.standard(environment: environment)
        configuration.dataCachePolicy = .automatic  // processed images on disk, originals when unprocessed
        configuration.encodingQuality = 85          // JPEG quality of the thumbnails on disk
        configuration.processingWidth = 2           // threads that decode, off the cooperative pool
        return ImagePipeline(configuration: configuration)
    }

    /// "Handle errors"
    static func loadOrExplain(_ url: URL, pipeline: ImagePipeline = .shared) async -> String {
        do {
            let image = try await pipeline.image(for: url)
            return "\(image.width)×\(image.height)"
        } catch .download(.badStatus(let status)) {
            return "HTTP \(status)"
        } catch .decoding(let error) {
            return "not an image: \(error)"
        } catch .failedRecently(let reason) {
            return "failed recently: \(reason)"
        } catch {
            return "\(error)"
        }
    }

    // MARK: - Checks

    @Test func theArticleCodeRuns() async throws {
        let server = try LoopbackHTTPServer()
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("glimpse-docs-\(UUID().uuidString)", isDirectory: true)
        defer {
            server.shutdown()
            try? FileManager.default.removeItem(at: directory)
        }
        let png = try Fixtures.bytes("png/ct6-d08-seq.png")
        server.setRoute("/a.png", .fixed(.ok(png, contentType: "image/png")))
        server.setRoute("/b.png", .fixed(.ok(png, contentType: "image/png")))
        server.setRoute("/garbage.png", .fixed(.ok(Array(repeating: 0x20, count: 64), contentType: "image/png")))
        let pipeline = Self.makePipeline(environment: ["XDG_CACHE_HOME": directory.path])
        #expect(pipeline.processingWidth == 2 && pipeline.cache.disk != nil)

        #expect(try await Self.loadImage(server.url("/a.png"), pipeline: pipeline).width == 33)
        #expect(try await Self.loadThumbnail(server.url("/a.png"), pipeline: pipeline).width == 33, "never enlarged")
        #expect(try await Self.loadWithProgress(server.url("/b.png"), pipeline: pipeline).height == 7)
        #expect(await Self.loadOrExplain(server.url("/missing.png"), pipeline: pipeline) == "HTTP 404")
        #expect(await Self.loadOrExplain(server.url("/garbage.png"), pipeline: pipeline).hasPrefix("not an image"))
    }
}
