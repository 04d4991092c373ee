/// The breaker in front of Redis (Nygard, "Release It!", ch. 5): after a run of failures it
/// opens, commands fail at once with ``RedisError/circuitOpen`` (the tier is skipped, loads go
/// to the origin), and a probe in the background retries with backoff until Redis answers,
/// which closes it. A value type: ``RedisClient`` holds it under its lock and runs the probe.
public struct RedisCircuitBreaker: Sendable, Equatable {
    public struct Configuration: Sendable, Equatable {
        /// Consecutive transport failures that open the breaker.
        public var failureThreshold: Int
        /// Wait before the first probe; doubled after each failed probe.
        public var initialProbeDelay: Duration
        /// Longest wait between probes.
        public var maximumProbeDelay: Duration

        public init(failureThreshold: Int = 3, initialProbeDelay: Duration = .milliseconds(100),
                    maximumProbeDelay: Duration = .seconds(2)) {
            self.failureThreshold = max(1, failureThreshold)
            self.initialProbeDelay = initialProbeDelay
            self.maximumProbeDelay = maximumProbeDelay
        }
    }

    public enum State: Sendable, Equatable {
        /// Commands go to Redis; `failures` in a row so far.
        case closed(failures: Int)
        /// Commands are refused; a probe is (or should be) running.
        case open
    }

    public let configuration: Configuration
    public private(set) var state: State = .closed(failures: 0)

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    public var isOpen: Bool { state == .open }

    /// A reply arrived (or a probe succeeded): close.
    public mutating func recordSuccess() {
        state = .closed(failures: 0)
    }

    /// A transport failure; `true` when this one opened the breaker (start a probe then).
    public mutating func recordFailure() -> Bool {
        guard case .closed(let failures) = state else { return false }
        if failures + 1 >= configuration.failureThreshold {
            state = .open
            return true
        }
        state = .closed(failures: failures + 1)
        return false
    }

    /// The wait before probe number `attempt` (0-based): doubling from the initial delay, capped.
    public func probeDelay(attempt: Int) -> Duration {
        var delay = configuration.initialProbeDelay
        for _ in 0..<min(attempt, 16) where delay < configuration.maximumProbeDelay { delay *= 2 }
        return min(delay, configuration.maximumProbeDelay)
    }
}
