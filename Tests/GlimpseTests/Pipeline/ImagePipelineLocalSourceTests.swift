import Foundation
import Glimpse
import TestSupport
import Testing

extension PipelineTests {
    /// The calls a newcomer tries first: a `file` URL, bytes already in hand.
    @Suite(.timeLimit(.minutes(1)))
    struct ImagePipelineLocalSourceTests {
        private func pipeline() -> (ImagePipeline, DictionaryLoader, DictionaryDataTier) {
            let loader = DictionaryLoader(files: [:])
            let data = DictionaryDataTier()
            let cache = ImageCache(memory: DictionaryMemoryTier(), data: data)
            return (ImagePipeline(configuration: ImagePipeline.Configuration(dataLoader: loader, cache: cache)), loader, data)
        }

        @Test func aFileURLLoadsWithoutTheLoaderAndIsCached() async throws {
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-file-\(UUID().uuidString).png")
            try Data(png).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let (pipeline, loader, data) = pipeline()
            let first = try await pipeline.load(ImageRequest(url: file, options: .waitForDiskStore))
            #expect(first.tier == .network && first.image.width == 33 && loader.requestCount == 0)
            #expect(data.keys == [file.absoluteString])
            await pipeline.cache.clear(.memory)
            #expect(try await pipeline.load(file).tier == .disk)

            // A missing file fails for good, as a 404 would.
            let missing = file.deletingLastPathComponent().appendingPathComponent("absent-\(UUID().uuidString).png")
            do {
                _ = try await pipeline.image(for: missing)
                Issue.record("a missing file loaded")
            } catch {
                #expect(error == .download(.badStatus(404)) && error.isPermanent)
            }
        }

        @Test func bytesInHandAreDecodedProcessedAndCachedUnderTheirID() async throws {
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            let (pipeline, loader, data) = pipeline()
            let request = ImageRequest(id: "upload-1", data: png, processors: [.resize(width: 11)],
                                       options: .waitForDiskStore)
            let result = try await pipeline.load(request)
            #expect(result.image.width == 11 && result.image.format == .png && loader.requestCount == 0)
            let key = pipeline.cacheKey(for: request)
            #expect(key.base == "upload-1" && data.keys == [key.memoryKey])
            // The same id and processors again: the memory tier answers, the bytes are not decoded again.
            let again = ImageRequest(id: "upload-1", data: [], processors: [.resize(width: 11)])
            #expect(try await pipeline.load(again).tier == .memory)
            await pipeline.cache.clear(.memory)
            let restored = try await pipeline.load(again)
            #expect(restored.tier == .disk && restored.image.format == .png, "the thumbnail keeps its source's format")
        }
    }
}
