extension GlimpseObservability {
    /// Metric labels (Prometheus style: snake case, `_total` for counters). Each one's
    /// dimensions are fixed; the Observability article lists them with their values.
    public enum MetricName {
        /// Counter: loads by `tier` (`memory`, `disk`, `shared`, `network`; `none` when
        /// no tier answered) and `outcome` (`success`, `failure`, `cancelled`).
        public static let loads = "glimpse_loads_total"
        /// Timer: a load's time from the call to its result, by `tier`, for loads the
        /// memory tier did not answer at once.
        public static let loadDuration = "glimpse_load_duration"
        /// Timer: time in one stage, by `stage` (`disk`, `download`, `decode`, `process`,
        /// `encode`, `store`).
        public static let stageDuration = "glimpse_stage_duration"
        /// Timer: decode time by `format` (`jpeg`, `png`, `gif`, `webp`, `avif`, …).
        public static let decodeDuration = "glimpse_decode_duration"
        /// Counter: cache hits by `tier` (`memory`, `disk`, `shared`).
        public static let cacheHits = "glimpse_cache_hits_total"
        /// Counter: cache misses by `tier` (`memory`, `disk`).
        public static let cacheMisses = "glimpse_cache_misses_total"
        /// Counter: entries a tier evicted to keep within its limits, by `tier`: `memory`, and
        /// `disk` (the local data tier's size, count and age limits).
        public static let cacheEvictions = "glimpse_cache_evictions_total"
        /// Gauge: bytes held, by `tier` (`memory`: decoded pixels; `disk`: the local data tier).
        public static let cacheBytes = "glimpse_cache_bytes"
        /// Gauge: entries held, by `tier` (`memory`, `disk`).
        public static let cacheEntries = "glimpse_cache_entries"
        /// Counter: data-tier entries that no longer decoded and were removed.
        public static let corruptEntries = "glimpse_cache_corrupt_entries_total"
        /// Counter: data-tier calls that failed (a shared tier unreachable, a write
        /// dropped): answered as misses, never as load failures.
        public static let dataTierErrors = "glimpse_cache_errors_total"
        /// Counter: revalidations of stored responses, by `result` (`not_modified`, `modified`).
        public static let revalidations = "glimpse_revalidations_total"
        /// Gauge: decode and processing jobs waiting for an executor thread.
        public static let processingQueueDepth = "glimpse_processing_queue_depth"
        /// Counter: body bytes received from origins (the downloader's).
        public static let downloadedBytes = "glimpse_downloaded_bytes_total"
        /// Gauge: transfers holding a connection slot (the downloader's).
        public static let downloadsInFlight = "glimpse_downloads_in_flight"
        /// Gauge: transfers waiting for a slot (the downloader's).
        public static let downloadsQueued = "glimpse_downloads_queued"
        /// Counter: retried attempts by `reason` (`status_503`, `status_429`, …,
        /// `connection`, `timeout`, `too_slow`, `deadline`, `other`).
        public static let retries = "glimpse_retries_total"
        /// Counter: attempts that resumed a partial body with `Range`/`If-Range`.
        public static let resumptions = "glimpse_resumptions_total"
        /// Counter: redirects and requests refused by the address policy or the redirect checks.
        public static let refusals = "glimpse_refused_total"
    }
}
