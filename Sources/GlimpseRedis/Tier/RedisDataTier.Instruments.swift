import CoreMetrics
import GlimpseCache
import Logging

extension RedisDataTier {
    /// A Redis call, the `operation` dimension of ``MetricName/errors``.
    enum Operation: String, CaseIterable {
        case read, contains, write, remove, claim
    }

    /// How a fetch claim ended, the `result` dimension of ``MetricName/fetchClaims``.
    enum ClaimResult: String, CaseIterable {
        case claimed, stored
        case waitedStored = "waited_stored"
        case lockReleased = "lock_released"
        case waitExpired = "wait_expired"
        case unavailable
    }

    /// Why an entry was not written, the `reason` dimension of ``MetricName/droppedWrites``.
    enum DropReason: String, CaseIterable {
        case queueFull = "queue_full"
        case tooLarge = "too_large"
    }

    /// The tier's logger and metrics, made once (swift-metrics' handlers are meant to be kept).
    ///
    /// The log says when Redis goes away and when it comes back — a warning and a notice, once
    /// per outage, not a line per failed read (with the breaker open every read fails at once) —
    /// and the rest at debug and trace. Keys and values are never logged: a key holds a URL.
    final class Instruments: Sendable {
        let logger: Logger
        private let errors: [Operation: Counter]
        private let claims: [ClaimResult: Counter]
        private let claimWait: CoreMetrics.Timer
        private let dropped: [DropReason: Counter]
        private let pendingBytes: Gauge
        /// Whether the last call reached Redis, so that the log tells transitions only.
        private let reachable = GlimpseCache.Lock(true)

        init(logger: Logger, factory: any MetricsFactory) {
            self.logger = logger
            errors = Dictionary(uniqueKeysWithValues: Operation.allCases.map { operation in
                (operation, Counter(label: MetricName.errors, dimensions: [("operation", operation.rawValue)], factory: factory))
            })
            claims = Dictionary(uniqueKeysWithValues: ClaimResult.allCases.map { result in
                (result, Counter(label: MetricName.fetchClaims, dimensions: [("result", result.rawValue)], factory: factory))
            })
            claimWait = CoreMetrics.Timer(label: MetricName.claimWaitDuration, factory: factory)
            dropped = Dictionary(uniqueKeysWithValues: DropReason.allCases.map { reason in
                (reason, Counter(label: MetricName.droppedWrites, dimensions: [("reason", reason.rawValue)], factory: factory))
            })
            pendingBytes = Gauge(label: MetricName.pendingWriteBytes, factory: factory)
        }

        /// A command got its reply: ends an outage, if one was under way.
        func reached() {
            guard reachable.withLock({ reachable in defer { reachable = true }; return !reachable }) else { return }
            logger.notice("shared tier reachable again")
        }

        /// A command got no reply.
        func failed(_ operation: Operation, _ error: RedisError) {
            errors[operation]?.increment()
            let began = reachable.withLock { reachable in defer { reachable = false }; return reachable }
            let metadata: Logger.Metadata = ["glimpse.operation": "\(operation.rawValue)", "glimpse.error": "\(error.reason)"]
            if began {
                logger.warning("shared tier unreachable: loads go on from the local tiers and the origin", metadata: metadata)
            } else {
                logger.trace("shared tier call failed", metadata: metadata)
            }
        }

        func claimEnded(_ result: ClaimResult, waited: Duration?) {
            claims[result]?.increment()
            if let waited {
                let (seconds, attoseconds) = waited.components
                claimWait.recordNanoseconds(Int64(clamping: seconds) &* 1_000_000_000 &+ attoseconds / 1_000_000_000)
            }
            logger.trace("fetch claim", metadata: ["glimpse.outcome": "\(result.rawValue)"])
        }

        func dropped(_ reason: DropReason, bytes: Int) {
            dropped[reason]?.increment()
            logger.debug("shared tier write dropped", metadata: ["glimpse.reason": "\(reason.rawValue)", "glimpse.bytes": "\(bytes)"])
        }

        func pendingWrites(bytes: Int) {
            pendingBytes.record(bytes)
        }
    }
}
