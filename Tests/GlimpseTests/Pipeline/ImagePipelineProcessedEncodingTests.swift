import Foundation
import Glimpse
import GlimpseCache
import Testing

extension PipelineTests {
    /// What the data tier keeps for a processed image: JPEG for opaque images, PNG
    /// when there is alpha, and either decodes in a new pipeline (a restart).
    @Suite(.timeLimit(.minutes(1)))
    struct ImagePipelineProcessedEncodingTests {
        /// A smooth RGBA gradient, PNG-encoded (so the loader serves a real file).
        static func gradientPNG(width: Int, height: Int, alpha: (Int, Int) -> UInt8 = { _, _ in 255 }) throws -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: width * height * 4)
            for y in 0..<height {
                for x in 0..<width {
                    let offset = (y * width + x) * 4
                    bytes[offset] = UInt8(x * 255 / max(1, width - 1))
                    bytes[offset + 1] = UInt8(y * 255 / max(1, height - 1))
                    bytes[offset + 2] = 128
                    bytes[offset + 3] = alpha(x, y)
                }
            }
            let pixels = try #require(PixelBuffer(width: width, height: height, bytes: bytes))
            return try Image(pixels: pixels, format: .png).encoded(as: .png)
        }

        private func pipeline(loader: DictionaryLoader, directory: URL) throws -> ImagePipeline {
            let disk = try DiskCache(configuration: DiskCache.Configuration(directory: directory))
            let cache = ImageCache(memory: MemoryCache(costLimit: 16 << 20), disk: disk)
            return ImagePipeline(configuration: ImagePipeline.Configuration(dataLoader: loader, cache: cache))
        }

        private func temporaryDirectory() -> URL {
            FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-encoding-\(UUID().uuidString)")
        }

        @Test func anOpaqueThumbnailIsStoredAsJPEGAndServedAfterARestart() async throws {
            let original = try Self.gradientPNG(width: 96, height: 64)
            let directory = temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let url = try #require(URL(string: "https://images.example/opaque.png"))
            let request = ImageRequest(url: url, processors: [.resize(width: 48)], options: .waitForDiskStore)

            let loader = DictionaryLoader(files: ["/opaque.png": original])
            let first = try pipeline(loader: loader, directory: directory)
            let thumbnail = try await first.load(request)
            #expect(thumbnail.tier == .network && thumbnail.image.width == 48 && thumbnail.image.height == 32)

            // A new pipeline on the same folder: one small JPEG read and decoded, no download.
            let restartedLoader = DictionaryLoader(files: [:])
            let restarted = try pipeline(loader: restartedLoader, directory: directory)
            let key = restarted.cacheKey(for: request)
            let entry = try #require(await restarted.cache.entry(forDataKey: key.memoryKey))
            #expect(Array(entry.data.prefix(3)) == [0xFF, 0xD8, 0xFF], "JPEG SOI then a marker (ITU T.81 §B.1.1.3)")
            #expect(entry.metadata.contentType == "image/jpeg")
            #expect(restarted.cache.disk?.contains(key.base) == false, "the automatic policy keeps the thumbnail only")

            let again = try await restarted.load(request)
            #expect(again.tier == .disk && restartedLoader.requestCount == 0)
            #expect(again.image.format == .png, "stored as JPEG, still the PNG source's thumbnail")
            #expect(again.image.width == 48 && again.image.height == 32)
            // Lossy at quality 80 on a smooth gradient: every sample close to the processed image.
            let fresh = thumbnail.image.pixels.bytes, stored = again.image.pixels.bytes
            #expect(fresh.count == stored.count)
            let worst = zip(fresh, stored).map { abs(Int($0) - Int($1)) }.max() ?? .max
            #expect(worst <= 16, "largest sample difference \(worst)")
        }

        @Test func aThumbnailWithAlphaIsStoredAsPNG() async throws {
            let original = try Self.gradientPNG(width: 40, height: 40) { x, _ in UInt8(x * 6) }
            let directory = temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let url = try #require(URL(string: "https://images.example/alpha.png"))
            let request = ImageRequest(url: url, processors: [.resize(width: 20)], options: .waitForDiskStore)
            let loader = DictionaryLoader(files: ["/alpha.png": original])
            let first = try pipeline(loader: loader, directory: directory)
            let thumbnail = try await first.load(request)

            let restarted = try pipeline(loader: DictionaryLoader(files: [:]), directory: directory)
            let entry = try #require(await restarted.cache.entry(forDataKey: restarted.cacheKey(for: request).memoryKey))
            #expect(Array(entry.data.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            #expect(entry.metadata.contentType == "image/png")
            let again = try await restarted.load(request)
            #expect(again.tier == .disk && again.image.pixels == thumbnail.image.pixels, "PNG is lossless")
        }

        @Test func theQualityIsConfigurable() async throws {
            let original = try Self.gradientPNG(width: 64, height: 64)
            var sizes: [Int] = []
            for quality in [30, 95] {
                let directory = temporaryDirectory()
                defer { try? FileManager.default.removeItem(at: directory) }
                let disk = try DiskCache(configuration: DiskCache.Configuration(directory: directory))
                var configuration = ImagePipeline.Configuration(
                    dataLoader: DictionaryLoader(files: ["/q.png": original]),
                    cache: ImageCache(memory: MemoryCache(costLimit: 1 << 20), disk: disk))
                configuration.encodingQuality = quality
                let pipeline = ImagePipeline(configuration: configuration)
                let request = ImageRequest(url: try #require(URL(string: "https://images.example/q.png")),
                                           processors: [.resize(width: 60)], options: .waitForDiskStore)
                _ = try await pipeline.load(request)
                let entry = try #require(disk.entry(forKey: pipeline.cacheKey(for: request).memoryKey))
                // The disk record carries the source format as a media type parameter.
                #expect(entry.metadata.contentType == "image/jpeg; glimpse-source=png")
                sizes.append(entry.data.count)
            }
            #expect(sizes[0] < sizes[1], "quality 30 is smaller than quality 95: \(sizes)")
        }
    }
}
