import Foundation
import Glimpse
import TestSupport
import Testing

extension PipelineTests {
    /// The pipeline's ``ImagePipeline/Configuration/decodingLimits`` reach every
    /// decode it makes, and the server profile sets the limits a server can live with.
    @Suite(.timeLimit(.minutes(1)))
    struct ImagePipelineDecodingLimitsTests {
        private func pipeline(_ limits: DecodingLimits) -> ImagePipeline {
            let cache = ImageCache(memory: DictionaryMemoryTier(), data: DictionaryDataTier())
            var configuration = ImagePipeline.Configuration(dataLoader: DictionaryLoader(files: [:]), cache: cache)
            configuration.decodingLimits = limits
            return ImagePipeline(configuration: configuration)
        }

        @Test func anImagePastThePixelLimitFailsForGoodAndOneWithinItLoads() async throws {
            let jpeg = try Fixtures.bytes("jpeg/pillow-420.jpg") // 40×30 = 1,200 pixels
            var limits = DecodingLimits()
            limits.maxPixelsPerFrame = 1_199
            do {
                _ = try await pipeline(limits).image(for: ImageRequest(id: "over", data: jpeg))
                Issue.record("a 1,200-pixel image loaded under a 1,199-pixel limit")
            } catch {
                #expect(error == .decoding(.limitExceeded(.pixelsPerFrame)) && error.isPermanent)
            }
            limits.maxPixelsPerFrame = 1_200
            let image = try await pipeline(limits).image(for: ImageRequest(id: "at", data: jpeg))
            #expect(image.width == 40 && image.height == 30)
        }

        @Test func anAnimationPastTheFrameLimitFailsUnlessOnlyItsFirstFrameIsAsked() async throws {
            let gif = try Fixtures.bytes("gif/many-frames.gif") // 300 frames
            var limits = DecodingLimits()
            limits.maxFrames = 100
            let pipeline = pipeline(limits)
            do {
                _ = try await pipeline.image(for: ImageRequest(id: "animation", data: gif))
                Issue.record("300 frames loaded under a 100-frame limit")
            } catch {
                #expect(error == .decoding(.limitExceeded(.frames)))
            }
            let first = try await pipeline.image(for: ImageRequest(id: "still", data: gif, options: .firstFrameOnly))
            #expect(first.frames.count == 1)
        }

        @Test func aByteBudgetBoundsTheDecodedPixels() async throws {
            let png = try Fixtures.bytes("png/ct6-d08-seq.png") // 33×7 RGBA, 924 bytes of pixels
            var limits = DecodingLimits()
            limits.maxTotalBytes = 900
            do {
                _ = try await pipeline(limits).image(for: ImageRequest(id: "png", data: png))
                Issue.record("924 bytes of pixels decoded under a 900-byte budget")
            } catch {
                #expect(error == .decoding(.limitExceeded(.totalBytes)))
            }
        }

        @Test func theServerProfileSetsPublicAddressesAndServerLimits() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-server-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let configuration = ImagePipeline.Configuration.server(environment: ["XDG_CACHE_HOME": folder.path])
            let downloader = try #require(configuration.downloader)
            defer { downloader.invalidate() }
            #expect(downloader.configuration.addressPolicy == .public)
            #expect(downloader.configuration.maximumRedirects == 5)
            #expect(downloader.configuration.maximumResponseSize == 32 << 20)
            #expect(configuration.decodingLimits == .server)
            #expect(DecodingLimits.server.maxPixelsPerFrame == 50_000_000)
            #expect(DecodingLimits.server.maxTotalBytes == 256 << 20)
            #expect(DecodingLimits.server.maxFrames == 1_000)
            #expect(configuration.memoryOnlyReason == nil, "the disk tier opens under XDG_CACHE_HOME")
            #expect(!configuration.readsFileURLs)

            // Hosts of one's own go into the profile's own downloader.
            var own = ImageDownloader.Configuration.server
            own.addressPolicy.allowed = [try #require(AddressPolicy.Rule(parsing: "10.0.0.0/8"))]
            let allowing = ImagePipeline.Configuration.server(environment: ["XDG_CACHE_HOME": folder.path], downloader: own)
            let allowingDownloader = try #require(allowing.downloader)
            defer { allowingDownloader.invalidate() }
            #expect(allowingDownloader.configuration.addressPolicy == own.addressPolicy)
            #expect(allowingDownloader.configuration.addressPolicy.base == .public)
            #expect(allowing.decodingLimits == .server && !allowing.readsFileURLs)
        }

        /// A server profile's pipeline never reads its own files for a `file` URL a user
        /// supplied: the downloader refuses the scheme; the standard profile reads it.
        @Test func theServerProfileRefusesFileURLs() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-server-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("private.png")
            try Data(try Fixtures.bytes("png/ct0-d01-seq.png")).write(to: file)
            let environment = ["XDG_CACHE_HOME": folder.appendingPathComponent("cache").path]

            let server = ImagePipeline(configuration: .server(environment: environment))
            defer { server.configuration.downloader?.invalidate() }
            await #expect(throws: ImageLoadError.download(.invalidURL)) { try await server.image(for: file) }

            let standard = ImagePipeline(configuration: .standard(environment: environment))
            defer { standard.configuration.downloader?.invalidate() }
            #expect(try await standard.image(for: file).width == 33)
        }
    }
}
