import Foundation
import Glimpse
import GlimpseCache
import Testing

extension PipelineTests {
    /// Progressive loads: the decoder that made the partial images makes the
    /// final image too, on the pipeline's executor; the body is decoded once.
    @Suite(.timeLimit(.minutes(1)))
    struct ImagePipelineProgressiveTests {
        private func pipeline(_ files: [String: [UInt8]], registry: DecoderRegistry) -> ImagePipeline {
            let cache = ImageCache(memory: MemoryCache(costLimit: 1 << 20), disk: nil)
            return ImagePipeline(configuration: ImagePipeline.Configuration(
                dataLoader: DictionaryLoader(files: files), cache: cache, decoderRegistry: registry))
        }

        @Test func aProgressiveLoadDecodesTheBodyOnce() async throws {
            let magic = "PRG1"
            // 24 rows of 96 bytes: the loader hands it out in 256-byte pieces.
            let file = RecordingRowsDecoder.encode(magic: magic, width: 24, height: 24)
            let pipeline = pipeline(["/p.rows": file], registry: RecordingRowsDecoder.registry(magic: magic))
            let url = try #require(URL(string: "https://images.example/p.rows"))
            let task = pipeline.imageTask(for: ImageRequest(url: url, options: .progressive))
            var previews = 0
            for await event in task.events { if case .preview = event { previews += 1 } }
            let image = try await task.image
            #expect(image.width == 24 && image.pixels.bytes == Array(file[6...]))

            let record = RecordingRowsDecoder.record(magic)
            #expect(record.started == 1, "one decoder for partial images and the final image, \(previews) previews")
            #expect(record.bytesFed == file.count, "every byte decoded once")
            #expect(record.finishThreads.count == 1)
            #expect(record.finishThreads.allSatisfy { $0.hasPrefix("glimpse.decode") },
                    "finished on the pipeline's executor: \(record.finishThreads)")
        }

        @Test func aLoadWithoutProgressDecodesOnceToo() async throws {
            let magic = "PRG2"
            let file = RecordingRowsDecoder.encode(magic: magic, width: 8, height: 8)
            let pipeline = pipeline(["/q.rows": file], registry: RecordingRowsDecoder.registry(magic: magic))
            let url = try #require(URL(string: "https://images.example/q.rows"))
            #expect(try await pipeline.image(for: url).height == 8)
            let record = RecordingRowsDecoder.record(magic)
            #expect(record.started == 1 && record.bytesFed == file.count)
            #expect(record.finishThreads.allSatisfy { $0.hasPrefix("glimpse.decode") }, "\(record.finishThreads)")
        }
    }
}
