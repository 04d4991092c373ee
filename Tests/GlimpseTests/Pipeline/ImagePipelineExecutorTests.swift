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
        @Test func anUnrelatedTaskWakesOnTimeWhileLargeImagesDecode() async throws {
            // One large image: a debug-build decode of it keeps the executor busy for a while.
            guard let bench = Fixtures.shared?.appendingPathComponent("bench/gif/still-1200x675.gif"),
                  let gif = try? Fixtures.bytes(at: bench) else { return }
            let loader = DictionaryLoader(files: ["/0.gif": gif])
            var configuration = ImagePipeline.Configuration(
                dataLoader: loader, cache: ImageCache(memory: MemoryCache(costLimit: 1 << 20), disk: nil))
            configuration.processingWidth = 1
            let pipeline = ImagePipeline(configuration: configuration)
            #expect(pipeline.processingWidth == 1)

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
                let url = try #require(URL(string: "https://bench.example/0.gif"))
                group.addTask { try await pipeline.image(for: url).width }
                for try await width in group { #expect(width == 1200) }
            }
            let loading = ContinuousClock.now - started
            sleeper.cancel()
            let delays = await sleeper.value.sorted()
            // The decodes kept the executor busy for a while; the sleeper woke many times meanwhile.
            #expect(!delays.isEmpty)
            let worst = try #require(delays.last)
            // Decoding on the cooperative pool (two threads here) delayed such wake-ups by the
            // length of a decode (hundreds of ms in debug builds).
            #expect(worst < .milliseconds(250), "worst wake-up delay \(worst) while loading for \(loading)")
        }
    }
}
