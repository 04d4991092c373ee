import Foundation
import Glimpse
import GlimpseCache
import GlimpseCodec
import InMemoryTracing
import LoopbackHTTPServer
import Logging
import MetricsTestKit
import TestSupport
import Testing
import Tracing

extension PipelineTests {
    /// Logs, metrics and spans of real loads through a pipeline and its downloader against
    /// a loopback origin, each with its own injected logger, metrics factory and tracer
    /// (nothing is bootstrapped globally).
    @Suite(.timeLimit(.minutes(1)))
    struct ImagePipelineObservabilityTests {
        /// A harness whose pipeline and downloader report to `records`, `metrics` and `tracer`.
        private static func harness(records: LogRecords, metrics: TestMetrics, tracer: InMemoryTracer,
                                    retries: RetryPolicy = .never) throws -> PipelineHarness {
            try PipelineHarness.make(downloader: { configuration in
                configuration.retryPolicy = retries
                configuration.logger = records.logger(label: "glimpse-downloader")
                configuration.metricsFactory = metrics
            }, pipeline: { configuration in
                configuration.logger = records.logger()
                configuration.metricsFactory = metrics
                configuration.tracer = tracer
            })
        }

        private static func loads(_ metrics: TestMetrics, tier: String, outcome: String = "success") -> Int64 {
            metrics.counterTotal(label: GlimpseObservability.MetricName.loads,
                                 dimensions: [("tier", tier), ("outcome", outcome)])
        }

        private static func string(_ span: FinishedInMemorySpan, _ key: String) -> String? {
            guard case .string(let value)? = span.attributes[key]?.toSpanAttribute() else { return nil }
            return value
        }

        @Test func aNetworkLoadThenAMemoryHitThenADiskHitAreCountedLoggedAndTraced() async throws {
            let (records, metrics, tracer) = (LogRecords(), TestMetrics(), InMemoryTracer())
            let harness = try Self.harness(records: records, metrics: metrics, tracer: tracer)
            defer { harness.finish() }
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            harness.server.setRoute("/a.png", .fixed(.ok(png)))
            let request = ImageRequest(url: harness.url("/a.png"), options: .waitForDiskStore)

            #expect(try await harness.pipeline.load(request).tier == .network)
            #expect(Self.loads(metrics, tier: "network") == 1)
            #expect(metrics.counterTotal(label: GlimpseObservability.MetricName.downloadedBytes) == Int64(png.count))
            #expect(metrics.counterTotal(label: GlimpseObservability.MetricName.cacheMisses,
                                         dimensions: [("tier", "memory")]) == 1)
            #expect(metrics.counterTotal(label: GlimpseObservability.MetricName.cacheMisses,
                                         dimensions: [("tier", "disk")]) == 1)
            for stage in ["disk", "download", "decode", "store"] {
                let timer = try metrics.expectTimer(GlimpseObservability.MetricName.stageDuration, [("stage", stage)])
                #expect(timer.values.count == 1, "\(stage)")
            }
            #expect(try metrics.expectTimer(GlimpseObservability.MetricName.decodeDuration, [("format", "png")])
                .values.count == 1)
            #expect(try metrics.expectTimer(GlimpseObservability.MetricName.loadDuration, [("tier", "network")])
                .values.count == 1)
            #expect(try metrics.expectGauge(GlimpseObservability.MetricName.downloadsInFlight).lastValue == 0)

            #expect(try await harness.pipeline.load(request).tier == .memory)
            #expect(Self.loads(metrics, tier: "memory") == 1)
            #expect(metrics.counterTotal(label: GlimpseObservability.MetricName.cacheHits,
                                         dimensions: [("tier", "memory")]) == 1)

            await harness.cache.clear(.memory)
            #expect(try await harness.pipeline.load(request).tier == .disk)
            #expect(Self.loads(metrics, tier: "disk") == 1)
            #expect(metrics.counterTotal(label: GlimpseObservability.MetricName.cacheHits,
                                         dimensions: [("tier", "disk")]) == 1)
            #expect(try metrics.expectTimer(GlimpseObservability.MetricName.decodeDuration, [("format", "png")])
                .values.count == 2)
            #expect(harness.requests("/a.png").count == 1)

            // One `glimpse.load` span per load, with the tier that answered; the stages of
            // each job are its children.
            let spans = tracer.finishedSpans
            let loadSpans = spans.filter { $0.operationName == "glimpse.load" }
            #expect(loadSpans.map { Self.string($0, "glimpse.tier") } == ["network", "memory", "disk"])
            #expect(loadSpans.allSatisfy { Self.string($0, "glimpse.url") == harness.url("/a.png").absoluteString })
            #expect(loadSpans.allSatisfy { Self.string($0, "glimpse.format") == "png" })
            let network = try #require(loadSpans.first)
            let children = spans.filter { $0.parentSpanID == network.spanID }.map(\.operationName)
            #expect(Set(children) == ["glimpse.disk", "glimpse.download", "glimpse.decode", "glimpse.process", "glimpse.store"])
            let disk = loadSpans[2]
            #expect(spans.contains { $0.parentSpanID == disk.spanID && $0.operationName == "glimpse.disk" })
            #expect(!spans.contains { $0.parentSpanID == loadSpans[1].spanID }, "a memory hit has no stages")

            // Per-stage detail at trace level; nothing at info or above for a normal load.
            let all = records.all
            #expect(all.contains { $0.level == .trace && $0.message == "stage finished" && $0.metadata["glimpse.stage"] == "download" })
            #expect(all.contains { $0.level == .trace && $0.message == "decoded" && $0.metadata["glimpse.format"] == "png" })
            #expect(all.contains { $0.message == "transfer finished" && $0.metadata["glimpse.bytes"] == "\(png.count)" })
            #expect(all.allSatisfy { $0.level <= .debug }, "\(all.filter { $0.level > .debug }.map(\.text))")
        }

        @Test func theDiskTiersEvictionsAreCounted() async throws {
            let (records, metrics, tracer) = (LogRecords(), TestMetrics(), InMemoryTracer())
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("glimpse-evictions-\(UUID().uuidString)", isDirectory: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            // Two entries at most: the third store evicts down to one (the trim ratio's 80 %).
            let disk = try DiskCache(configuration: DiskCache.Configuration(directory: directory, countLimit: 2))
            let harness = try PipelineHarness.make(downloader: { _ in }, pipeline: { configuration in
                configuration.cache = ImageCache(memory: MemoryCache(costLimit: 64 << 20), disk: disk)
                configuration.metricsFactory = metrics
                configuration.logger = records.logger()
                configuration.tracer = tracer
            })
            defer { harness.finish() }
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            for index in 0..<5 {
                harness.server.setRoute("/\(index).png", .fixed(.ok(png)))
                _ = try await harness.pipeline.load(ImageRequest(url: harness.url("/\(index).png"), options: .waitForDiskStore))
            }
            let evicted = harness.pipeline.configuration.cache.statistics.diskEvictions
            #expect(evicted >= 2 && evicted == disk.evictionCount)
            let counted = metrics.counterTotal(label: GlimpseObservability.MetricName.cacheEvictions, dimensions: [("tier", "disk")])
            #expect(counted > 0 && counted <= Int64(evicted), "sampled when loads end: \(counted) of \(evicted)")
        }

        @Test func aRetryAfterA503IsLoggedWithItsReasonAndCounted() async throws {
            let (records, metrics, tracer) = (LogRecords(), TestMetrics(), InMemoryTracer())
            let harness = try Self.harness(records: records, metrics: metrics, tracer: tracer,
                                           retries: RetryPolicy(maximumRetries: 2, baseDelay: .milliseconds(10)))
            defer { harness.finish() }
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            harness.server.setRoute("/flaky.png", .resource(png, faults: [.status(503, retryAfter: "0")]))

            let result = try await harness.pipeline.load(harness.url("/flaky.png"))
            #expect(result.tier == .network)
            #expect(harness.requests("/flaky.png").count == 2)
            #expect(metrics.counterTotal(label: GlimpseObservability.MetricName.retries,
                                         dimensions: [("reason", "status_503")]) == 1)
            #expect(Self.loads(metrics, tier: "network") == 1)
            let retries = records.all.filter { $0.message == "retrying transfer" }
            #expect(retries.count == 1)
            let retry = try #require(retries.first)
            #expect(retry.level == .debug)
            #expect(retry.metadata["glimpse.reason"] == "status_503")
            #expect(retry.metadata["glimpse.attempt"] == "2")
            #expect(retry.metadata["glimpse.url"] == harness.url("/flaky.png").absoluteString)
            #expect(records.all.allSatisfy { $0.level <= .debug })
        }

        @Test func aFailedLoadIsCountedAsAFailureAndItsSpanCarriesTheError() async throws {
            let (records, metrics, tracer) = (LogRecords(), TestMetrics(), InMemoryTracer())
            let harness = try Self.harness(records: records, metrics: metrics, tracer: tracer)
            defer { harness.finish() }
            await #expect(throws: ImageLoadError.download(.badStatus(404))) {
                try await harness.pipeline.load(harness.url("/missing.png"))
            }
            #expect(Self.loads(metrics, tier: "none", outcome: "failure") == 1)
            let span = try #require(tracer.finishedSpans.first { $0.operationName == "glimpse.load" })
            #expect(span.status?.code == .error)
            #expect(Self.string(span, "glimpse.outcome") == "failure")
        }

        @Test func aRecoveryFromADamagedFileIsLoggedAtDebug() async throws {
            let (records, metrics, tracer) = (LogRecords(), TestMetrics(), InMemoryTracer())
            let harness = try Self.harness(records: records, metrics: metrics, tracer: tracer)
            defer { harness.finish() }
            // A 64×64 PNG cut in the middle of its image data: decoded with a warning.
            var pixels = PixelBuffer(width: 64, height: 64)
            for i in pixels.bytes.indices { pixels.bytes[i] = UInt8(truncatingIfNeeded: i &* 31) }
            let file = try PNG.Encoder(options: PNG.Encoder.Options(compressionLevel: 0)).encode(pixels)
            harness.server.setRoute("/cut.png", .fixed(.ok(Array(file.prefix(file.count / 2)))))

            let result = try await harness.pipeline.load(harness.url("/cut.png"))
            #expect(!result.image.warnings.isEmpty)
            let recovered = records.all.filter { $0.message == "recovered from damaged image data" }
            #expect(recovered.count == 1)
            #expect(recovered.first?.level == .debug)
            #expect(recovered.first?.metadata["glimpse.format"] == "png")
            #expect(recovered.first?.metadata["glimpse.warnings"] == "\(result.image.warnings.count)")
        }

        @Test func aStoredOriginalThatNoLongerDecodesIsRemovedLoggedAndCounted() async throws {
            let (records, metrics, tracer) = (LogRecords(), TestMetrics(), InMemoryTracer())
            let harness = try Self.harness(records: records, metrics: metrics, tracer: tracer)
            defer { harness.finish() }
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            harness.server.setRoute("/a.png", .fixed(.ok(png)))
            let url = harness.url("/a.png")
            try harness.cache.disk?.setData(Data(repeating: 0x5A, count: 300), forKey: url.absoluteString)

            let result = try await harness.pipeline.load(ImageRequest(url: url, options: .waitForDiskStore))
            #expect(result.tier == .network)
            #expect(harness.requests("/a.png").count == 1)
            #expect(metrics.counterTotal(label: GlimpseObservability.MetricName.corruptEntries) == 1)
            let removed = records.all.filter { $0.message == "data tier entry does not decode; removed" }
            #expect(removed.count == 1)
            #expect(removed.first?.level == .debug)
            #expect(removed.first?.metadata["glimpse.entry"] == "original")
            #expect(removed.first?.metadata["glimpse.url"] == url.absoluteString)
        }

        @Test func aURLWithUserInfoAndAQueryNeverAppearsWholeInAnyRecordMetricOrSpan() async throws {
            let (records, metrics, tracer) = (LogRecords(), TestMetrics(), InMemoryTracer())
            let harness = try Self.harness(records: records, metrics: metrics, tracer: tracer,
                                           retries: RetryPolicy(maximumRetries: 1, baseDelay: .milliseconds(10)))
            defer { harness.finish() }
            let png = try Fixtures.bytes("png/ct6-d08-seq.png")
            harness.server.setRoute("/private.png", .resource(png, faults: [.status(503, retryAfter: "0")]))
            let base = harness.url("/private.png")
            var components = try #require(URLComponents(url: base, resolvingAgainstBaseURL: false))
            components.user = "alice"
            components.password = "pa55word"
            components.query = "signature=s3cr3t&token=t0ken"
            let url = try #require(components.url)

            let result = try await harness.pipeline.load(ImageRequest(url: url, options: .waitForDiskStore))
            #expect(result.tier == .network)
            await harness.cache.clear(.memory)
            #expect(try await harness.pipeline.load(ImageRequest(url: url)).tier == .disk)

            let secrets = ["alice", "pa55word", "s3cr3t", "t0ken", "signature", "?"]
            let all = records.all
            #expect(!all.isEmpty)
            #expect(all.contains { $0.metadata["glimpse.url"] == base.absoluteString })
            for record in all {
                for secret in secrets { #expect(!record.text.contains(secret), "\(record.text)") }
            }
            for span in tracer.finishedSpans {
                span.attributes.forEach { key, value in
                    for secret in secrets { #expect(!"\(key)=\(value)".contains(secret), "\(span.operationName)") }
                }
                for error in span.errors {
                    for secret in secrets { #expect(!"\(error.error)".contains(secret)) }
                }
            }
            let dimensions = metrics.counters.flatMap(\.dimensions) + metrics.timers.flatMap(\.dimensions)
            for (key, value) in dimensions {
                for secret in secrets { #expect(!"\(key)=\(value)".contains(secret)) }
            }
        }
    }
}

@Suite struct GlimpseObservabilityRedactionTests {
    @Test(arguments: [
        ("https://user:pw@Example.com:8443/a/b.jpg?sig=x#frag", "https://example.com:8443/a/b.jpg"),
        ("http://cdn.example/p%20q.png?token=abc", "http://cdn.example/p%20q.png"),
        ("http://alice@127.0.0.1/x.png", "http://127.0.0.1/x.png"),
        ("https://example.com", "https://example.com"),
        ("https://example.com/?q=1", "https://example.com/"),
        ("http://[::1]:8080/i.webp?x=y", "http://[::1]:8080/i.webp"),
        ("file:///tmp/a%20b.png", "file:///tmp/a%20b.png"),
    ])
    func redactsToSchemeHostPortAndPath(_ text: String, _ expected: String) throws {
        let url = try #require(URL(string: text))
        #expect(GlimpseObservability.redacted(url) == expected)
    }

    @Test func theDefaultLoggerIsANoOpLabelledGlimpse() {
        let logger = ImagePipeline.Configuration(dataLoader: ImageDownloader(), cache: ImageCache(disk: nil)).logger
        #expect(logger.label == "glimpse")
        #expect(logger.logLevel == .critical)
        #expect(ImageDownloader.Configuration().logger.label == "glimpse")
    }
}
