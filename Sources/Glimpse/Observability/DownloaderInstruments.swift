import CoreMetrics
import Foundation
import Logging
import GlimpseCache

/// The downloader's logger and metrics, fed from the one place every transfer event
/// passes (``ImageDownloader/emit(_:)``) and from the queue's slot changes.
package final class DownloaderInstruments: Sendable {
    package let logger: Logger
    /// False for the no-op metrics factory: the queue's figures are then not read (a lock each).
    package let reportsQueue: Bool
    private let factory: any MetricsFactory
    private let downloadedBytes: Counter
    private let inFlight: Gauge
    private let queued: Gauge
    private let resumptions: Counter
    private let refusals: Counter
    /// One counter per retry reason, made on first use (the reasons are a small fixed
    /// set, but which retried statuses occur depends on the origins).
    private let retries = Lock<[String: Counter]>([:])

    package init(logger: Logger, metrics factory: any MetricsFactory) {
        self.logger = logger
        self.factory = factory
        reportsQueue = !(factory is NOOPMetricsHandler)
        downloadedBytes = Counter(label: GlimpseObservability.MetricName.downloadedBytes, factory: factory)
        inFlight = Gauge(label: GlimpseObservability.MetricName.downloadsInFlight, factory: factory)
        queued = Gauge(label: GlimpseObservability.MetricName.downloadsQueued, factory: factory)
        resumptions = Counter(label: GlimpseObservability.MetricName.resumptions, factory: factory)
        refusals = Counter(label: GlimpseObservability.MetricName.refusals, factory: factory)
    }

    private func retryCounter(_ reason: String) -> Counter {
        retries.withLock { counters in
            if let counter = counters[reason] { return counter }
            let counter = Counter(label: GlimpseObservability.MetricName.retries, dimensions: [("reason", reason)],
                                  factory: factory)
            counters[reason] = counter
            return counter
        }
    }

    /// The queue after a change: transfers holding a slot, and those waiting for one.
    package func queue(running: Int, pending: Int) {
        inFlight.record(running)
        queued.record(pending)
    }

    /// Logs and counts what an event says about the transfer.
    package func observe(_ event: ImageDownloadEvent) {
        typealias Key = GlimpseObservability.MetadataKey
        switch event {
        case .started(let url):
            logger.trace("transfer started", metadata: [Key.url: "\(GlimpseObservability.redacted(url))"])
        case .receivedResponse(let url, let status):
            logger.trace("response head", metadata: [
                Key.url: "\(GlimpseObservability.redacted(url))", Key.status: "\(status)",
            ])
        case .retrying(let url, let attempt, let delay, let error):
            let reason = error.retryReason
            retryCounter(reason).increment()
            logger.debug("retrying transfer", metadata: [
                Key.url: "\(GlimpseObservability.redacted(url))",
                Key.attempt: "\(attempt)",
                Key.reason: "\(reason)",
                Key.delay: "\(PipelineInstruments.nanoseconds(delay) / 1_000_000)",
                Key.error: "\(error.redactedDescription)",
            ])
        case .redirected(let url, let target, let status, let hop):
            logger.trace("following redirect", metadata: [
                Key.url: "\(GlimpseObservability.redacted(url))",
                Key.target: "\(GlimpseObservability.redacted(target))",
                Key.status: "\(status)", Key.hop: "\(hop)",
            ])
        case .stopped(let url, let error):
            logger.trace("transfer stopped", metadata: [
                Key.url: "\(GlimpseObservability.redacted(url))",
                Key.error: "\(error?.redactedDescription ?? "none")",
            ])
        case .finished:
            break
        }
    }

    /// A body delivered to callers: its bytes count as downloaded.
    package func delivered(_ url: URL, bytes: Int) {
        downloadedBytes.increment(by: Int64(bytes))
        logger.trace("transfer finished", metadata: [
            GlimpseObservability.MetadataKey.url: "\(GlimpseObservability.redacted(url))",
            GlimpseObservability.MetadataKey.bytes: "\(bytes)",
        ])
    }

    /// An attempt that asks for the rest of a partial body (RFC 9110 §14.2, §13.1.5).
    package func resuming(_ url: URL, range: String) {
        resumptions.increment()
        logger.debug("resuming transfer", metadata: [
            GlimpseObservability.MetadataKey.url: "\(GlimpseObservability.redacted(url))",
            GlimpseObservability.MetadataKey.range: "\(range)",
        ])
    }

    /// A request or redirect the address policy or the redirect checks refused.
    package func refused(_ url: URL, redirect: Bool, _ error: ImageDownloadError) {
        refusals.increment()
        logger.debug(redirect ? "redirect refused" : "request refused", metadata: [
            GlimpseObservability.MetadataKey.url: "\(GlimpseObservability.redacted(url))",
            GlimpseObservability.MetadataKey.error: "\(error.redactedDescription)",
        ])
    }
}
