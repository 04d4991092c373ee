import Foundation
import Glimpse
import GlimpseAsyncHTTPClient
import LoopbackHTTPServer
import MetricsTestKit
import Testing
import TestSupport

/// The loader's log records and metrics: the configuration's logger and factory, fed as
/// ``ImageDownloader`` feeds them (the same names), never a URL's query or credentials.
@Suite("GlimpseAsyncHTTPClientTests logs and metrics")
struct AsyncHTTPClientImageLoaderObservabilityTests {
    static func harness(_ records: LogRecords, _ metrics: TestMetrics,
                        _ configure: (inout ImageDownloader.Configuration) -> Void = { _ in }) throws -> LoaderHarness {
        try LoaderHarness.make { configuration in
            configuration.logger = records.logger(label: "glimpse-ahc")
            configuration.metricsFactory = metrics
            configure(&configuration)
        }
    }

    @Test func aLoadCountsItsBytesAndLogsItsStepsAtTrace() async throws {
        let (records, metrics) = (LogRecords(), TestMetrics())
        let harness = try Self.harness(records, metrics)
        let body = patternBody(5_000)
        harness.server.setRoute("/a.png", .fixed(.ok(body)))
        #expect(await harness.load(ImageDownloadRequest(url: harness.url("/a.png?token=secret"))).value?.bytes == body)
        #expect(metrics.counterTotal(label: GlimpseObservability.MetricName.downloadedBytes) == Int64(body.count))
        let messages = records.all.map(\.message)
        for step in ["transfer started", "response head", "transfer stopped", "transfer finished"] {
            #expect(messages.contains(step), "\(step)")
        }
        #expect(records.all.allSatisfy { $0.level == .trace })
        #expect(!records.all.contains { $0.text.contains("secret") }, "no query in any record")
        let inFlight = try metrics.expectGauge(GlimpseObservability.MetricName.downloadsInFlight)
        #expect(inFlight.lastValue == 0, "the slot was given back")
        await harness.finish()
    }

    @Test func retriesAreCountedByReasonAndLoggedAtDebug() async throws {
        let (records, metrics) = (LogRecords(), TestMetrics())
        let harness = try Self.harness(records, metrics) {
            $0.retryPolicy = RetryPolicy(maximumRetries: 2, baseDelay: .milliseconds(10))
        }
        harness.server.setRoute("/flaky.png", .resource(patternBody(2_000), faults: [.status(503, retryAfter: "0")]))
        #expect(await harness.load("/flaky.png").value != nil)
        #expect(metrics.counterTotal(label: GlimpseObservability.MetricName.retries,
                                     dimensions: [("reason", "status_503")]) == 1)
        let retry = try #require(records.all.first { $0.message == "retrying transfer" })
        #expect(retry.level == .debug)
        #expect(retry.metadata["glimpse.reason"] == "status_503")
        #expect(retry.metadata["glimpse.attempt"] == "2")
        await harness.finish()
    }

    @Test func refusalsAndResumptionsAreCounted() async throws {
        let (records, metrics) = (LogRecords(), TestMetrics())
        let harness = try Self.harness(records, metrics) { configuration in
            configuration.addressPolicy = AddressPolicy(.public, allowing: [.host("127.0.0.1")])
            configuration.retryPolicy = RetryPolicy(maximumRetries: 2, baseDelay: .milliseconds(10))
        }
        #expect(await harness.load(ImageDownloadRequest(url: URL(string: "http://127.0.0.2:9/x.png")!)).failure
            == .addressNotAllowed("127.0.0.2"))
        harness.server.setRoute("/away", .fixed(.redirect(302, to: "http://127.0.0.2:9/x.png")))
        #expect(await harness.load("/away").failure == .addressNotAllowed("127.0.0.2"))
        #expect(metrics.counterTotal(label: GlimpseObservability.MetricName.refusals) == 2)
        #expect(records.all.contains { $0.message == "request refused" && $0.level == .debug })
        #expect(records.all.contains { $0.message == "redirect refused" && $0.level == .debug })

        let body = patternBody(100_000)
        harness.server.setRoute("/cut.png", .resource(body, faults: [.cutAfter(40_000)]))
        #expect(await harness.load("/cut.png").value?.bytes == body)
        #expect(metrics.counterTotal(label: GlimpseObservability.MetricName.resumptions) == 1)
        let resuming = try #require(records.all.first { $0.message == "resuming transfer" })
        // From what arrived before the reset (the kernel drops what it still held).
        let range = try #require(resuming.metadata["glimpse.range"])
        #expect(range.hasPrefix("bytes=") && range.hasSuffix("-") && Int(range.dropFirst(6).dropLast()).map { $0 > 0 && $0 <= 40_000 } == true,
                "\(range)")
        await harness.finish()
    }
}
