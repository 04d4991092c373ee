import Foundation
import Glimpse
import GlimpseCache
import TestSupport
import Testing

extension PipelineTests {
    /// Decoding runs on the pipeline's own bounded executor, not on the cooperative pool:
    /// an unrelated task keeps waking on time while large images decode. The bound here is
    /// generous (debug build, shared machine); the tight figure is `bench-pipeline`'s
    /// `latency-under-load`.
    @Suite(.timeLimit(.minutes(1)))
    struct ImagePipelineExecutorTests {
        /// A large photo-like JPEG made here (so the test needs nothing outside the
        /// repository): smooth gradients under fine noise, so the entropy-coded data is
        /// dense and a debug-build decode takes a few hundred milliseconds, longer than
        /// the bound.
        static let largeJPEG: [UInt8] = {
            let (width, height) = (640, 480)
            var random = SplitMix(seed: 18)
            var bytes = [UInt8](repeating: 255, count: width * height * 4)
            for y in 0..<height {
                for x in 0..<width {
                    let offset = (y * width + x) * 4
                    let noise = Int(random.next() & 63)
                    bytes[offset] = UInt8(truncatingIfNeeded: x * 255 / width + noise)
                    bytes[offset + 1] = UInt8(truncatingIfNeeded: y * 255 / height + noise)
                    bytes[offset + 2] = UInt8(truncatingIfNeeded: (x + y) & 255 ^ noise)
                }
            }
            guard let pixels = PixelBuffer(width: width, height: height, bytes: bytes) else { return [] }
            return (try? Image(pixels: pixels, format: .jpeg).encoded(as: .jpeg, options: EncodingOptions(quality: 90))) ?? []
        }()

        @Test func anUnrelatedTaskWakesOnTimeWhileLargeImagesLoad() async throws {
            let jpeg = Self.largeJPEG
            try #require(!jpeg.isEmpty)
            // More loads than the cooperative pool has threads: were decoding on that pool,
            // every thread would be busy decoding and the sleeper would wait for decodes to
            // end (with decoding moved there, it woke once, after 2.6 s, on this 2-core machine).
            let loads = ProcessInfo.processInfo.activeProcessorCount + 2
            let files = Dictionary(uniqueKeysWithValues: (0..<loads).map { ("/\($0).jpg", jpeg) })
            let configuration = ImagePipeline.Configuration(
                dataLoader: DictionaryLoader(files: files),
                cache: ImageCache(memory: MemoryCache(costLimit: 1 << 20), disk: nil))
            let pipeline = ImagePipeline(configuration: configuration)
            // The default width is every core, at a lower priority than the pool's threads.
            #expect(pipeline.processingWidth == ImagePipeline.Configuration.defaultProcessingWidth)

            let sleeper = Task<[Duration], Never> {
                var delays: [Duration] = []
                while !Task.isCancelled {
                    let start = ContinuousClock.now
                    try? await Task.sleep(for: .milliseconds(10))
                    delays.append(ContinuousClock.now - start - .milliseconds(10))
                }
                return delays
            }
            let started = ContinuousClock.now
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<loads {
                    let url = try #require(URL(string: "https://images.example/\(index).jpg"))
                    group.addTask { try await pipeline.image(for: url).width }
                }
                for try await width in group { #expect(width == 640) }
            }
            let loading = ContinuousClock.now - started
            sleeper.cancel()
            let delays = await sleeper.value.sorted()
            // The loads took long enough for many wake-ups (a starved sleeper wakes rarely).
            #expect(delays.count >= 10, "\(delays.count) wake-ups in \(loading)")
            try #require(!delays.isEmpty)
            let p99 = delays[(delays.count * 99) / 100 - (delays.count % 100 == 0 ? 1 : 0)]
            let median = delays[delays.count / 2]
            // Decoding on the cooperative pool delays such wake-ups by a whole decode
            // (hundreds of milliseconds in a debug build).
            #expect(p99 < .milliseconds(250),
                    "p99 wake-up delay \(p99), median \(median), \(delays.count) wake-ups while \(loads) loads took \(loading)")
        }
    }
}
