extension ImageTask {
    /// Where one load spent its time, how many bytes it read and which tier answered
    /// (after Nuke's `ImageTask.Metrics`), on every ``ImageResult`` as
    /// ``ImageResult/metrics``.
    ///
    /// Each duration is `nil` when its stage did not run — a memory hit has only
    /// ``tier`` — and the sum of every time it ran when it ran more than once (two
    /// data-tier reads: the processed variant missed, then the original). The
    /// durations are those the pipeline's stage timers record
    /// (`glimpse_stage_duration_seconds`, see the Observability article), read off
    /// ``ImagePipeline/Configuration/clock``.
    ///
    /// Loads share work: a caller that attached to a load of the same variant already
    /// under way, or whose variant shared the decode of one original with another
    /// (two thumbnail sizes at one JPEG scale), reports the shared work's timings —
    /// the same figures its other callers see — not the part it waited for.
    public struct Metrics: Sendable, Hashable, CustomStringConvertible {
        /// The tier that answered.
        public var tier: ImageTier
        /// From the load job's start to its result; `nil` for an answer without a job
        /// (a memory hit at the front door, a fail-fast error).
        public var total: Duration?
        /// Waiting rather than working: for a thread of the processing executor (before
        /// a decode, the processors or an encode) and for the executor's bound on bytes
        /// held before a download (``ImagePipeline/Configuration/maximumProcessingBytes``).
        /// The loader's own queue (``ImageDownloader/Configuration/maximumConcurrentDownloads``)
        /// counts as ``download``.
        public var queued: Duration?
        /// Reading the data tier after the memory tier missed (the disk cache's read, or
        /// a shared tier's), hit or miss, without decoding what it returned.
        public var dataLookup: Duration?
        /// The loader: from the request to the last byte of the body (a `file` URL's read).
        public var download: Duration?
        /// Bytes to pixels: the original (reduced when a thumbnail allows), or the
        /// processed variant the data tier kept. A still PNG whose long side a
        /// reducing resize limits is decoded and resized together (``ThumbnailDecoder``):
        /// the resize counts here, and `process` is `nil` when nothing else ran.
        public var decode: Duration?
        /// The request's processors (those the decode did not do) and the downloaded-image hook.
        public var process: Duration?
        /// Encoding the processed image (for the data tier, or for
        /// ``ImagePipeline/data(for:format:)``).
        public var encode: Duration?
        /// Writing to the data tier, when the load waited for it
        /// (``ImageRequest/Options/waitForDiskStore``, ``ImagePipeline/data(for:format:)``).
        public var store: Duration?
        /// The encoded bytes the load downloaded or read from the data tier; `nil` for a memory hit.
        public var bytes: Int?

        public init(tier: ImageTier, total: Duration? = nil, queued: Duration? = nil, dataLookup: Duration? = nil,
                    download: Duration? = nil, decode: Duration? = nil, process: Duration? = nil,
                    encode: Duration? = nil, store: Duration? = nil, bytes: Int? = nil) {
            self.tier = tier
            self.total = total
            self.queued = queued
            self.dataLookup = dataLookup
            self.download = download
            self.decode = decode
            self.process = process
            self.encode = encode
            self.store = store
            self.bytes = bytes
        }

        /// `tier=T queue=MS disk=MS download=MS decode=MS process=MS encode=MS store=MS bytes=N`:
        /// milliseconds with two decimals, `-` for a stage that did not run (what
        /// `glimpse fetch --timings` prints).
        public var description: String {
            func ms(_ duration: Duration?) -> String {
                guard let duration else { return "-" }
                let (seconds, attoseconds) = duration.components
                let hundredths = (Double(seconds) * 1e5 + Double(attoseconds) / 1e13).rounded()
                let text = String(Int64(hundredths))
                // Two decimals without Foundation's formatter: the digits, then the point.
                let digits = text.hasPrefix("-") ? String(text.dropFirst()) : text
                let padded = String(repeating: "0", count: max(0, 3 - digits.count)) + digits
                return (text.hasPrefix("-") ? "-" : "") + padded.dropLast(2) + "." + padded.suffix(2)
            }
            return "tier=\(tier) queue=\(ms(queued)) disk=\(ms(dataLookup)) download=\(ms(download)) "
                + "decode=\(ms(decode)) process=\(ms(process)) encode=\(ms(encode)) store=\(ms(store)) "
                + "bytes=\(bytes.map(String.init) ?? "-")"
        }
    }
}
