import Foundation
import Glimpse
import LoopbackHTTPServer
import TestSupport
import Testing
extension PipelineTests {
    @Suite(.timeLimit(.minutes(1)))
    struct ImagePrefetcherTests {
        @Test func countsFinishedAndSkippedWithinTheConcurrencyLimit() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            let png = try Fixtures.bytes("png/size-9x9-seq.png")
            for index in 0..<9 {
                harness.server.setRoute("/p\(index).png", .fixed(LoopbackHTTPServer.Response(
                    status: 200, headers: [("Content-Type", "image/png")],
                    body: .drip(png, chunkSize: 100, interval: .milliseconds(10)))))
            }
            let urls = (0..<9).map { harness.url("/p\($0).png") } + [harness.url("/missing.png")]
            let progress = Collected<ImagePrefetcher.Progress>()
            let prefetcher = ImagePrefetcher(pipeline: harness.pipeline,
                                             configuration: ImagePrefetcher.Configuration(destination: .memoryAndDisk))
            let summary = await prefetcher.prefetch(urls) { progress.append($0) }
            #expect(summary.finished == 9 && summary.skipped == 1)
            #expect(summary.results[urls[9]] == .failure(.download(.badStatus(404))))
            #expect(urls.dropLast().allSatisfy { summary.results[$0] == .success(.network) })
            // Failures count in the progress too.
            #expect(progress.values.map(\.completed) == Array(1...10))
            #expect(progress.values.last?.failed == 1)
            #expect(progress.values.allSatisfy { $0.total == 10 })
            #expect(harness.server.statistics.maxActiveRequests <= 3)
            for url in urls.dropLast() {
                #expect(try await harness.pipeline.load(url).tier == .memory)
            }
            #expect(harness.server.requests.count == 10)
        }

        @Test func diskOnlyFillsTheDiskWithoutDecoding() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            let png = try Fixtures.bytes("png/size-9x9-seq.png")
            for index in 0..<4 { harness.server.setRoute("/d\(index).png", .fixed(.ok(png))) }
            let urls = (0..<4).map { harness.url("/d\($0).png") }
            // Disk only is the default.
            let prefetcher = ImagePrefetcher(pipeline: harness.pipeline)
            let summary = await prefetcher.prefetch(urls)
            #expect(summary.finished == 4 && summary.skipped == 0)
            #expect(harness.cache.memory.imageCount == 0)
            #expect(harness.cache.disk?.count == 4)
            #expect(try await harness.pipeline.load(urls[0]).tier == .disk)
            // A second disk-only pass finds everything on disk.
            let second = await prefetcher.prefetch(urls)
            #expect(second.finished == 4 && urls.allSatisfy { second.results[$0] == .success(.disk) })
            #expect(harness.server.requests.count == 4)
        }

        @Test func cancellationSkipsTheRestAndStopsTheDownloads() async throws {
            let harness = try PipelineHarness.make()
            defer { harness.finish() }
            harness.server.setFallback(.fixed(LoopbackHTTPServer.Response(
                status: 200, headers: [("Content-Type", "image/png")], body: .stall(declaredLength: 1000, limit: .seconds(3)))))
            let urls = (0..<8).map { harness.url("/stall\($0).png") }
            let prefetcher = ImagePrefetcher(pipeline: harness.pipeline)
            let done = Collected<ImagePrefetcher.Summary>()
            prefetcher.startPrefetching(urls, completion: { done.append($0) })
            #expect(await harness.server.waitUntil { $0.requests.count == 3 })
            prefetcher.cancel()
            #expect(await eventually { done.values.count == 1 })
            #expect(done.values.first?.finished == 0 && done.values.first?.skipped == 8)
            #expect(harness.server.requests.count == 3)
            #expect(await eventually { harness.downloader.waitingCallerCount == 0 })
            #expect(await harness.server.waitUntil { $0.abortedByClient.count + $0.closedConnections.count >= 3 })
        }
    }
}
