extension RedisDataTier {
    /// What the tier stores and how long processes wait for one another.
    public struct Configuration: Sendable, Equatable {
        /// Prefix of every key the tier writes, so several caches (or other users) share one Redis.
        public var namespace: String
        /// Lifetime of an entry (Redis `PX`); 7 days by default, like the disk tier's max age.
        public var timeToLive: Duration
        /// Largest stored value (entry, metadata and header); larger entries stay local.
        public var entrySizeLimit: Int
        /// Lifetime of a fetch lock: if its holder dies, others may fetch after this.
        public var lockTimeToLive: Duration
        /// How long a process that did not get the lock waits for the holder's value before
        /// fetching itself.
        public var lockWait: Duration
        /// First interval between polls while waiting; doubled after each poll, up to
        /// ``maximumLockPollInterval``.
        public var lockPollInterval: Duration
        /// Longest interval between polls while waiting.
        public var maximumLockPollInterval: Duration
        /// Bytes the background writer may hold queued; writes beyond are dropped (they only
        /// cost a later origin request), so a slow Redis cannot grow the process.
        public var maximumPendingWriteBytes: Int

        public init(namespace: String = "glimpse:", timeToLive: Duration = .seconds(7 * 86_400),
                    entrySizeLimit: Int = 4 << 20, lockTimeToLive: Duration = .seconds(10),
                    lockWait: Duration = .seconds(3), lockPollInterval: Duration = .milliseconds(5),
                    maximumLockPollInterval: Duration = .milliseconds(100), maximumPendingWriteBytes: Int = 64 << 20) {
            self.namespace = namespace
            self.timeToLive = timeToLive
            self.entrySizeLimit = entrySizeLimit
            self.lockTimeToLive = lockTimeToLive
            self.lockWait = lockWait
            self.lockPollInterval = lockPollInterval
            self.maximumLockPollInterval = maximumLockPollInterval
            self.maximumPendingWriteBytes = maximumPendingWriteBytes
        }
    }
}

extension Duration {
    /// Whole milliseconds, at least 1 (Redis rejects `PX 0`).
    var redisMilliseconds: Int {
        let (seconds, attoseconds) = components
        return max(1, Int(clamping: seconds) &* 1000 &+ Int(attoseconds / 1_000_000_000_000_000))
    }
}
