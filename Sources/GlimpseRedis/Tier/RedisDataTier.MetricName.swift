extension RedisDataTier {
    /// The shared tier's own metric labels (Prometheus style), beside the pipeline's
    /// `glimpse_*` ones: what only the tier sees — background writes, fetch claims, and Redis
    /// failures the pipeline never waits for. Dimensions are fixed; values are listed with each.
    public enum MetricName {
        /// Counter: Redis commands that got no reply (down, slow, refusing the password, breaker
        /// open), by `operation`: `read`, `contains`, `write` (background or direct), `remove`,
        /// `claim` (taking a fetch lock or polling for the holder's entry).
        public static let errors = "glimpse_redis_errors_total"
        /// Counter: how the pipeline's fetch claims ended, by `result`: `claimed` (this process
        /// fetches), `stored` (the entry was already there), `waited_stored` (another process's
        /// fetch arrived while this one waited), `lock_released` (the holder gave up without
        /// storing: fetch yourself), `wait_expired` (``Configuration/lockWait`` ran out),
        /// `unavailable` (Redis did not answer: no coordination).
        public static let fetchClaims = "glimpse_redis_fetch_claims_total"
        /// Timer: how long a process waited for another's fetch (claims that waited only).
        public static let claimWaitDuration = "glimpse_redis_claim_wait_duration"
        /// Counter: entries not written, by `reason`: `queue_full`
        /// (``Configuration/maximumPendingWriteBytes`` queued already) or `too_large`
        /// (above ``Configuration/entrySizeLimit``; they stay local).
        public static let droppedWrites = "glimpse_redis_writes_dropped_total"
        /// Gauge: bytes queued for the background writer.
        public static let pendingWriteBytes = "glimpse_redis_pending_write_bytes"
    }
}
