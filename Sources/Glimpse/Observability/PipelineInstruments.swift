import Foundation
import Logging
import CoreMetrics
import GlimpseCache
import Tracing

/// The pipeline's logger, metrics and tracer, with every metric handle made once
/// (a back-end's factory call may take a lock and allocate: never per load).
///
/// Names and dimensions are listed in the Observability article; changing one is a
/// breaking change for every dashboard built on it.
final class PipelineInstruments: Sendable {
    /// The stages that have a timer and a span, in the order a load meets them.
    enum Stage: String, Sendable, CaseIterable {
        /// The data tier: the read, and the decode of a stored variant or the
        /// processing of a stored original.
        case disk
        /// The loader: from the request to the last body byte.
        case download
        /// Bytes to pixels (the decode unit, on the executor).
        case decode
        /// The request's processors (and the downloaded-image hook).
        case process
        /// Encoding a processed image for the data tier.
        case encode
        /// Writing to the data tier (awaited only with `waitForDiskStore`).
        case store

        var spanName: String { "glimpse." + rawValue }
    }

    /// How a load ended, the `outcome` dimension of `glimpse_loads_total`.
    enum Outcome: String, Sendable, CaseIterable {
        case success, failure, cancelled
    }

    let logger: Logger
    let tracer: any Tracer
    /// Every duration the pipeline measures — its timers and each load's
    /// ``ImageTask/Metrics`` — is read off this one clock (the configuration's).
    let clock: CacheClock
    /// False for the no-op tracer: a memory hit then starts no span at all.
    let traces: Bool
    /// False for the no-op metrics factory: the caches' figures are then not sampled.
    let samples: Bool

    /// Successful loads by tier, failed and cancelled ones: fields, not a dictionary, as a
    /// memory hit counts one (a string-keyed lookup would cost it a hash).
    private let successfulLoads: (memory: Counter, disk: Counter, shared: Counter, network: Counter)
    private let failedLoads: Counter
    private let cancelledLoads: Counter
    private let loadDurations: [ImageTier: CoreMetrics.Timer]
    private let stageDurations: [Stage: CoreMetrics.Timer]
    private let decodeDurations: [ImageFormat: CoreMetrics.Timer]
    private let cacheHits: [ImageTier: Counter]
    private let memoryHits: Counter
    private let memoryMisses: Counter
    private let diskMisses: Counter
    private let memoryEvictions: Counter
    private let diskEvictions: Counter
    private let cacheBytes: (memory: Gauge, disk: Gauge)
    private let cacheEntries: (memory: Gauge, disk: Gauge)
    private let processingQueueDepth: Gauge
    private let revalidations: (notModified: Counter, modified: Counter)
    private let corruptEntries: Counter
    private let dataErrors: Counter
    /// The cache's data-tier error count at the last sample.
    private let sampledErrors = Lock<Int>(0)
    /// The memory tier's eviction count at the last sample, for the counter's increments.
    private let sampledEvictions = Lock<Int>(0)
    private let sampledDiskEvictions = Lock<Int>(0)

    init(logger: Logger, metrics factory: any MetricsFactory, tracer: any Tracer, clock: CacheClock = .monotonic) {
        self.logger = logger
        self.tracer = tracer
        self.clock = clock
        traces = !(tracer is NoOpTracer)
        samples = !(factory is NOOPMetricsHandler)
        func loads(_ tier: String, _ outcome: Outcome) -> Counter {
            Counter(label: GlimpseObservability.MetricName.loads, dimensions: [("tier", tier), ("outcome", outcome.rawValue)],
                    factory: factory)
        }
        successfulLoads = (loads("memory", .success), loads("disk", .success), loads("shared", .success),
                           loads("network", .success))
        // A load that did not succeed was answered by no tier.
        failedLoads = loads("none", .failure)
        cancelledLoads = loads("none", .cancelled)
        memoryHits = Counter(label: GlimpseObservability.MetricName.cacheHits, dimensions: [("tier", "memory")],
                             factory: factory)
        loadDurations = Dictionary(uniqueKeysWithValues: ImageTier.allCases.map { tier in
            (tier, CoreMetrics.Timer(label: GlimpseObservability.MetricName.loadDuration, dimensions: [("tier", tier.rawValue)],
                                 factory: factory))
        })
        stageDurations = Dictionary(uniqueKeysWithValues: Stage.allCases.map { stage in
            (stage, CoreMetrics.Timer(label: GlimpseObservability.MetricName.stageDuration,
                                  dimensions: [("stage", stage.rawValue)], factory: factory))
        })
        decodeDurations = Dictionary(uniqueKeysWithValues: ImageFormat.allCases.map { format in
            (format, CoreMetrics.Timer(label: GlimpseObservability.MetricName.decodeDuration,
                                   dimensions: [("format", format.rawValue)], factory: factory))
        })
        cacheHits = Dictionary(uniqueKeysWithValues: [ImageTier.disk, .shared].map { tier in
            (tier, Counter(label: GlimpseObservability.MetricName.cacheHits, dimensions: [("tier", tier.rawValue)],
                           factory: factory))
        })
        memoryMisses = Counter(label: GlimpseObservability.MetricName.cacheMisses, dimensions: [("tier", "memory")],
                               factory: factory)
        diskMisses = Counter(label: GlimpseObservability.MetricName.cacheMisses, dimensions: [("tier", "disk")],
                             factory: factory)
        memoryEvictions = Counter(label: GlimpseObservability.MetricName.cacheEvictions,
                                  dimensions: [("tier", "memory")], factory: factory)
        diskEvictions = Counter(label: GlimpseObservability.MetricName.cacheEvictions,
                                dimensions: [("tier", "disk")], factory: factory)
        cacheBytes = (Gauge(label: GlimpseObservability.MetricName.cacheBytes, dimensions: [("tier", "memory")],
                            factory: factory),
                      Gauge(label: GlimpseObservability.MetricName.cacheBytes, dimensions: [("tier", "disk")],
                            factory: factory))
        cacheEntries = (Gauge(label: GlimpseObservability.MetricName.cacheEntries, dimensions: [("tier", "memory")],
                              factory: factory),
                        Gauge(label: GlimpseObservability.MetricName.cacheEntries, dimensions: [("tier", "disk")],
                              factory: factory))
        processingQueueDepth = Gauge(label: GlimpseObservability.MetricName.processingQueueDepth, factory: factory)
        revalidations = (Counter(label: GlimpseObservability.MetricName.revalidations,
                                 dimensions: [("result", "not_modified")], factory: factory),
                         Counter(label: GlimpseObservability.MetricName.revalidations,
                                 dimensions: [("result", "modified")], factory: factory))
        corruptEntries = Counter(label: GlimpseObservability.MetricName.corruptEntries, factory: factory)
        dataErrors = Counter(label: GlimpseObservability.MetricName.dataTierErrors, factory: factory)
    }

    private func successfulLoads(_ tier: ImageTier) -> Counter {
        switch tier {
        case .memory: successfulLoads.memory
        case .disk: successfulLoads.disk
        case .shared: successfulLoads.shared
        case .network: successfulLoads.network
        }
    }

    // MARK: Loads

    /// A load's span and start, from its first line to its result.
    struct LoadObservation: Sendable {
        var span: (any Span)?
        var start: Duration?
    }

    /// The instant durations are measured from (see ``clock``).
    func now() -> Duration { clock.now() }

    /// Starts a load's span (a child of the caller's `ServiceContext`), unless the
    /// tracer is the no-op one.
    func beginLoad(_ url: URL?) -> LoadObservation {
        guard traces else { return LoadObservation() }
        let span = tracer.startSpan("glimpse.load", context: ServiceContext.current ?? .topLevel, ofKind: .internal)
        if let url { span.attributes[GlimpseObservability.MetadataKey.url] = GlimpseObservability.redacted(url) }
        return LoadObservation(span: span)
    }

    /// Runs `body` with the load's span as the current context, so that the job it
    /// starts (and the job's stage spans) descend from it.
    func withLoadContext<T>(_ observation: LoadObservation, _ body: () -> T) -> T {
        guard let span = observation.span else { return body() }
        return ServiceContext.$current.withValue(span.context, operation: body)
    }

    /// The common memory hit of ``ImagePipeline/load(_:)-(URL)``: counted, and a span when
    /// tracing, with nothing copied (wrapping the result in a `Result` to hand it to
    /// ``endLoad(_:_:)`` retained each of its references and measured a fifth of a hit).
    func memoryHit(_ url: URL, format: ImageFormat) {
        memoryHits.increment()
        successfulLoads.memory.increment()
        guard traces else { return }
        let span = tracer.startSpan("glimpse.load", context: ServiceContext.current ?? .topLevel, ofKind: .internal)
        span.attributes[GlimpseObservability.MetadataKey.url] = GlimpseObservability.redacted(url)
        span.attributes[GlimpseObservability.MetadataKey.tier] = ImageTier.memory.rawValue
        span.attributes[GlimpseObservability.MetadataKey.format] = format.rawValue
        span.end()
    }

    /// Counts a load's result, and ends its span with the tier that answered.
    func endLoad(_ observation: LoadObservation, _ result: borrowing Result<ImageResult, ImageLoadError>) {
        switch result {
        case .success(let loaded):
            successfulLoads(loaded.tier).increment()
            if let start = observation.start { loadDurations[loaded.tier]?.record(now() - start) }
            if let span = observation.span {
                span.attributes[GlimpseObservability.MetadataKey.tier] = loaded.tier.rawValue
                span.attributes[GlimpseObservability.MetadataKey.format] = loaded.image.format.rawValue
                if let data = loaded.data { span.attributes[GlimpseObservability.MetadataKey.bytes] = data.count }
                span.end()
            }
        case .failure(let error):
            let outcome: Outcome = error == .cancelled ? .cancelled : .failure
            (outcome == .cancelled ? cancelledLoads : failedLoads).increment()
            if let span = observation.span {
                span.attributes[GlimpseObservability.MetadataKey.outcome] = outcome.rawValue
                span.recordError(ObservedError(error))
                span.setStatus(SpanStatus(code: .error))
                span.end()
            }
        }
    }

    // MARK: Stages

    /// Times `body` as `stage` and wraps it in a child span of the current context.
    ///
    /// - Parameter times: false when the work inside records the stage's time itself
    ///   (on the executor thread, without the wait for it).
    func stage<T, Failure: Error>(_ stage: Stage, url: URL? = nil, times: Bool = true,
                                  _ body: () async throws(Failure) -> T) async throws(Failure) -> T {
        let start = now()
        defer {
            let elapsed = now() - start
            if times {
                stageDurations[stage]?.record(elapsed)
                LoadMetricsRecorder.current?.add(stage, elapsed)
            }
            logger.trace("stage finished", metadata: [
                GlimpseObservability.MetadataKey.stage: "\(stage.rawValue)",
                GlimpseObservability.MetadataKey.url: "\(url.map(GlimpseObservability.redacted) ?? "")",
                GlimpseObservability.MetadataKey.milliseconds: "\(Double(Self.nanoseconds(elapsed)) / 1e6)",
            ])
        }
        guard traces else { return try await body() }
        let span = tracer.startSpan(stage.spanName, context: ServiceContext.current ?? .topLevel, ofKind: .internal)
        if let url { span.attributes[GlimpseObservability.MetadataKey.url] = GlimpseObservability.redacted(url) }
        let result: Result<T, Failure> = await ServiceContext.$current.withValue(span.context) {
            do throws(Failure) {
                return .success(try await body())
            } catch {
                return .failure(error)
            }
        }
        if case .failure(let error) = result {
            let recorded: any Error = (error as? ImageLoadError).map { ObservedError($0) } ?? error
            span.recordError(recorded)
            span.setStatus(SpanStatus(code: .error))
        }
        span.end()
        return try result.get()
    }

    /// Records a stage timed by hand (work on an executor thread, outside any task)
    /// and returns its duration, for the load's ``ImageTask/Metrics``.
    @discardableResult
    func record(_ stage: Stage, since start: Duration) -> Duration {
        let elapsed = now() - start
        stageDurations[stage]?.record(elapsed)
        return elapsed
    }

    /// Records a decode: its stage time, its time by format, a trace line, and a
    /// debug line when the decoder recovered from damaged bytes.
    @discardableResult
    func recordDecode(_ image: Image, since start: Duration, url: URL) -> Duration {
        let elapsed = now() - start
        let nanoseconds = Self.nanoseconds(elapsed)
        stageDurations[.decode]?.recordNanoseconds(nanoseconds)
        decodeDurations[image.format]?.recordNanoseconds(nanoseconds)
        logger.trace("decoded", metadata: [
            GlimpseObservability.MetadataKey.url: "\(GlimpseObservability.redacted(url))",
            GlimpseObservability.MetadataKey.format: "\(image.format.rawValue)",
            GlimpseObservability.MetadataKey.milliseconds: "\(Double(nanoseconds) / 1e6)",
        ])
        if !image.warnings.isEmpty {
            logger.debug("recovered from damaged image data", metadata: [
                GlimpseObservability.MetadataKey.url: "\(GlimpseObservability.redacted(url))",
                GlimpseObservability.MetadataKey.format: "\(image.format.rawValue)",
                GlimpseObservability.MetadataKey.warnings: "\(image.warnings.count)",
            ])
        }
        return elapsed
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    // MARK: Caches

    func memoryLookup(hit: Bool) {
        (hit ? memoryHits : memoryMisses).increment()
    }

    /// A data-tier read: a hit counted by the tier that had it (`disk` or `shared`).
    func dataLookup(_ tier: ImageTier?) {
        guard let tier else { return diskMisses.increment() }
        cacheHits[tier]?.increment()
    }

    func revalidated(notModified: Bool) {
        (notModified ? revalidations.notModified : revalidations.modified).increment()
    }

    /// A data-tier entry that no longer decodes, removed so the next load downloads it again.
    func removedCorruptEntry(_ url: URL, kind: String) {
        corruptEntries.increment()
        logger.debug("data tier entry does not decode; removed", metadata: [
            GlimpseObservability.MetadataKey.url: "\(GlimpseObservability.redacted(url))",
            GlimpseObservability.MetadataKey.entry: "\(kind)",
        ])
    }

    /// The caches' figures and the executor's queue, sampled after a load that did
    /// work (a memory hit changes none of them).
    func sample(_ cache: ImageCache, queued: Int) {
        processingQueueDepth.record(queued)
        let statistics = cache.statistics
        cacheBytes.memory.record(statistics.memory.totalCost)
        cacheEntries.memory.record(statistics.memory.count)
        cacheBytes.disk.record(statistics.diskSize)
        cacheEntries.disk.record(statistics.diskCount)
        let newEvictions = Self.advance(sampledEvictions, to: statistics.memory.evictions)
        if newEvictions > 0 { memoryEvictions.increment(by: Int64(newEvictions)) }
        let newDiskEvictions = Self.advance(sampledDiskEvictions, to: statistics.diskEvictions)
        if newDiskEvictions > 0 { diskEvictions.increment(by: Int64(newDiskEvictions)) }
        let newErrors = Self.advance(sampledErrors, to: statistics.dataErrors)
        if newErrors > 0 {
            dataErrors.increment(by: Int64(newErrors))
            logger.debug("data tier calls failed; answered as misses or dropped", metadata: [
                GlimpseObservability.MetadataKey.count: "\(newErrors)",
            ])
        }
    }

    /// How far a cumulative count moved since the last sample (several loads may sample at once).
    private static func advance(_ sampled: borrowing Lock<Int>, to current: Int) -> Int {
        sampled.withLock { last -> Int in
            defer { last = max(last, current) }
            return max(0, current - last)
        }
    }
}

/// An ``ImageLoadError`` as a span records it: its description, never a URL.
struct ObservedError: Error, CustomStringConvertible {
    var description: String

    init(_ error: ImageLoadError) {
        description = error.redactedDescription
    }
}

extension CoreMetrics.Timer {
    func record(_ duration: Duration) {
        recordNanoseconds(PipelineInstruments.nanoseconds(duration))
    }
}
