import CoreMetrics
import Foundation
import Glimpse
import InMemoryTracing
import LoopbackHTTPServer
import Logging
import MetricsTestKit
import TestSupport
import Testing
import Tracing

/// The code of `Glimpse.docc/Observability.md`, word for word: a pipeline and its
/// downloader that report to a logger, a metrics factory and a tracer of the caller's.
@Suite("Documentation: the observability article")
struct ObservabilityArticleTests {
    static func makePipeline(logger: Logger, metrics: any MetricsFactory, tracer: any Tracer,
                             cache: ImageCache) -> ImagePipeline {
        var downloaderConfiguration = ImageDownloader.Configuration()
        downloaderConfiguration.logger = logger
        downloaderConfiguration.metricsFactory = metrics
        var configuration = ImagePipeline.Configuration(
            downloader: ImageDownloader(configuration: downloaderConfiguration), cache: cache)
        configuration.logger = logger
        configuration.metricsFactory = metrics
        configuration.tracer = tracer
        let pipeline = ImagePipeline(configuration: configuration)
        return pipeline
    }

    @Test func theArticleCodeRuns() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.shutdown() }
        let png = try Fixtures.bytes("png/ct6-d08-seq.png")
        server.setRoute("/a.png", .fixed(.ok(png)))
        let records = LogRecords()
        let (metrics, tracer) = (TestMetrics(), InMemoryTracer())
        let pipeline = Self.makePipeline(logger: records.logger(), metrics: metrics, tracer: tracer,
                                         cache: ImageCache(disk: nil))
        let url = server.url("/a.png")
        #expect(try await pipeline.load(url).tier == .network)
        #expect(try await pipeline.load(url).tier == .memory)
        #expect(metrics.counterTotal(label: "glimpse_loads_total", dimensions: [("tier", "network"), ("outcome", "success")]) == 1)
        #expect(metrics.counterTotal(label: "glimpse_loads_total", dimensions: [("tier", "memory"), ("outcome", "success")]) == 1)
        #expect(metrics.counterTotal(label: "glimpse_downloaded_bytes_total") == Int64(png.count))
        #expect(tracer.finishedSpans.filter { $0.operationName == "glimpse.load" }.count == 2)
        #expect(records.all.contains { $0.message == "transfer finished" })
    }
}
