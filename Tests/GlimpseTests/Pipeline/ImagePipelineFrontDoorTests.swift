import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Glimpse
import GlimpseCache
import LoopbackHTTPServer
import TestSupport
import Testing

extension PipelineTests {
    /// The front door (requests, tasks, the shared configuration) and the tier protocols.
    @Suite(.timeLimit(.minutes(1)))
    struct ImagePipelineFrontDoorTests {
        private static let base = "https://images.example/"

        private func inMemoryPipeline(_ files: [String: [UInt8]], memory: DictionaryMemoryTier = DictionaryMemoryTier(),
                                      data: DictionaryDataTier = DictionaryDataTier())
            -> (ImagePipeline, DictionaryLoader, DictionaryDataTier) {
            let loader = DictionaryLoader(files: files)
            let configuration = ImagePipeline.Configuration(dataLoader: loader, cache: ImageCache(memory: memory, data: data))
            return (ImagePipeline(configuration: configuration), loader, data)
        }

        private func url(_ path: String) throws -> URL { try #require(URL(string: Self.base + path)) }

        @Test func smallInMemoryTiersRunThePipeline() async throws {
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            let data = DictionaryDataTier()
            let (pipeline, loader, _) = inMemoryPipeline(["/a.png": png], data: data)
            let url = try url("a.png")
            let request = ImageRequest(url: url, options: .waitForDiskStore)
            #expect(try await pipeline.load(request).tier == .network)
            #expect(try await pipeline.load(request).tier == .memory)
            await pipeline.cache.clear(.memory)
            let fromData = try await pipeline.load(request)
            #expect(fromData.tier == .disk && fromData.image.width == 33)

            // A processed variant: decoded from the stored original, then kept encoded under its own key.
            let thumbnail = ImageRequest(url: url, processors: [.resize(width: 11)], options: .waitForDiskStore)
            let small = try await pipeline.load(thumbnail)
            #expect(small.tier == .disk && small.image.width == 11)
            let key = pipeline.cacheKey(for: thumbnail)
            #expect(data.keys == [key.base, key.memoryKey])

            // A new pipeline on the same data tier (a restart) reads the small file, not the original.
            let (restarted, restartedLoader, _) = inMemoryPipeline([:], data: data)
            let again = try await restarted.load(thumbnail)
            #expect(again.tier == .disk && again.image == small.image)
            #expect(again.data != png)
            #expect(loader.requestCount == 1 && restartedLoader.requestCount == 0)
        }

        @Test func imageTasksStreamProgressPreviewsAndTheResult() async throws {
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            let (pipeline, _, _) = inMemoryPipeline(["/p.png": png])
            let task = pipeline.imageTask(for: ImageRequest(url: try url("p.png"), options: .progressive, priority: .low))
            task.priority = .high
            #expect(task.priority == .high)
            var progress: [Int64] = []
            var finished: Result<ImageResult, ImageLoadError>?
            for await event in task.events {
                switch event {
                case .progress(let received, let expected):
                    #expect(expected == Int64(png.count))
                    progress.append(received)
                case .preview(let image):
                    #expect(finished == nil && image.width == 33)
                case .finished(let result):
                    finished = result
                }
            }
            #expect(progress.last == Int64(png.count) && progress == progress.sorted())
            #expect(try finished?.get().image.width == 33)
            #expect(task.isFinished)
            #expect(try await task.image.height == 7)
            #expect(try await pipeline.image(for: try url("p.png")).width == 33)
        }

        @Test func cancelAllCancelsEveryCaller() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            harness.server.setFallback(.fixed(LoopbackHTTPServer.Response(
                status: 200, headers: [("Content-Type", "image/png")], body: .stall(declaredLength: 1000, limit: .seconds(3)))))
            let tasks = (0..<3).map { harness.pipeline.imageTask(for: harness.url("/stall\($0).png")) }
            #expect(await harness.server.waitUntil { $0.requests.count == 3 })
            harness.pipeline.cancelAll()
            for task in tasks {
                await #expect(throws: ImageLoadError.cancelled) { try await task.result }
            }
            #expect(await eventually { harness.downloader.waitingCallerCount == 0 })
        }

        @Test func requestsCarryTheirHeadersAndCacheKeys() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            let png = try Fixtures.bytes("png/size-9x9-seq.png")
            harness.server.setRoute("/h.png", .fixed(.ok(png)))
            harness.server.setRoute("/other.png", .fixed(.ok(png)))
            var urlRequest = URLRequest(url: harness.url("/h.png"))
            urlRequest.setValue("token-1", forHTTPHeaderField: "X-Token")
            urlRequest.timeoutInterval = 5
            let request = ImageRequest(urlRequest: urlRequest, cacheKey: "image-42")
            #expect(request.timeout == .seconds(5))
            #expect(try await harness.pipeline.load(request).tier == .network)
            #expect(harness.requests("/h.png").first?.header("X-Token") == "token-1")
            #expect(harness.pipeline.cacheKey(for: request) == ImageCacheKey(base: "image-42"))
            // Another URL under the same key is the same image.
            let other = ImageRequest(url: harness.url("/other.png"), cacheKey: "image-42")
            #expect(try await harness.pipeline.load(other).tier == .memory)
            #expect(harness.requests("/other.png").isEmpty)
        }

        @Test func refreshCanDeliverTheCachedImageFirst() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            let old = try Fixtures.bytes("png/size-9x9-seq.png")
            let new = try Fixtures.bytes("png/ct6-d08-seq.png")
            harness.server.setRoute("/r.png", .fixed(.ok(old)))
            let url = harness.url("/r.png")
            _ = try await harness.pipeline.load(ImageRequest(url: url, options: .waitForDiskStore))
            harness.server.setRoute("/r.png", .fixed(.ok(new)))
            let task = harness.pipeline.imageTask(for: ImageRequest(url: url, options: [.refreshCached, .deliverCachedFirst]))
            var previews: [Int] = []
            for await event in task.events { if case .preview(let image) = event { previews.append(image.width) } }
            #expect(previews == [9])
            #expect(try await task.image.width == 33)
        }

        @Test func theStandardConfigurationFallsBackToMemoryOnly() throws {
            let none = ImagePipeline.Configuration.standard(environment: [:])
            #expect(none.cache.data == nil)
            #expect(none.memoryOnlyReason?.contains("no cache folder") == true)
            #expect(none.processingWidth == ProcessInfo.processInfo.activeProcessorCount)

            let root = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-xdg-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: root) }
            let xdg = ImagePipeline.Configuration.standard(environment: ["XDG_CACHE_HOME": root.path, "HOME": "/nonexistent"])
            #expect(xdg.memoryOnlyReason == nil)
            #expect(xdg.cache.disk?.path.hasPrefix(root.appendingPathComponent("glimpse").path) == true)

            // A cache home that cannot hold a folder, even for root (permissions do not bind
            // root, so a read-only folder would not do): a regular file where the folder should be.
            let file = root.appendingPathComponent("not-a-folder")
            try Data("x".utf8).write(to: file)
            let unusable = ImagePipeline.Configuration.standard(environment: ["XDG_CACHE_HOME": file.path])
            #expect(unusable.cache.data == nil && unusable.memoryOnlyReason != nil)
        }

        @Test func processedImagesOnDiskSurviveARestart() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            let jpeg = try Fixtures.bytes("jpeg/cjpeg-q100.jpg")
            harness.server.setRoute("/big.jpg", .fixed(.ok(jpeg)))
            let request = ImageRequest(url: harness.url("/big.jpg"), processors: [.resize(width: 16)], options: .waitForDiskStore)
            let first = try await harness.pipeline.load(request)
            #expect(first.tier == .network && first.image.width == 16)

            let disk = try DiskCache(configuration: DiskCache.Configuration(directory: harness.directory))
            disk.waitUntilIndexLoaded()
            let restarted = ImagePipeline(configuration: ImagePipeline.Configuration(
                downloader: harness.downloader, cache: ImageCache(disk: disk)))
            let again = try await restarted.load(request)
            #expect(again.tier == .disk && again.image.width == 16 && again.image.height == first.image.height)
            // One small file: the thumbnail's encoding, not the original.
            #expect(try DecoderRegistry.standard.decode(again.data ?? []).width == 16)
            #expect(harness.requests("/big.jpg").count == 1)
        }
    }
}
