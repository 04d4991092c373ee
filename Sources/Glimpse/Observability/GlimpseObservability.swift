import Foundation
import Logging

/// The names Glimpse reports under: its log metadata keys, metric labels and span
/// names, and the one rule that keeps secrets out of them (``redacted(_:)``).
///
/// Glimpse depends on the API packages only — swift-log, swift-metrics and
/// swift-distributed-tracing — and never bootstraps a back-end: the `Logger`,
/// `MetricsFactory` and `Tracer` enter through ``ImagePipeline/Configuration`` and
/// ``ImageDownloader/Configuration``. See the Observability article for what each
/// line, metric and span means.
public enum GlimpseObservability {
    /// The logger a configuration starts with: labelled `glimpse`, discarding every
    /// record (a library says nothing until its host hands it a logger).
    public static var noOpLogger: Logger {
        Logger(label: "glimpse", factory: { _ in SwiftLogNoOpLogHandler() })
    }

    /// `url` as it may appear in a log line, a metric or a span attribute:
    /// `scheme://host[:port]/path`, without the user information (RFC 3986 §3.2.1),
    /// the query (§3.4) or the fragment (§3.5), where signatures, tokens and
    /// passwords travel. A URL without a host (a `file` URL) keeps its path.
    public static func redacted(_ url: URL) -> String {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return "<unparseable URL>"
        }
        var text = ""
        if let scheme = components.scheme { text += scheme.lowercased() + ":" }
        if let host = components.percentEncodedHost {
            text += "//" + host.lowercased()
            if let port = components.port { text += ":\(port)" }
        } else if text.hasSuffix(":"), url.isFileURL {
            text += "//"
        }
        text += components.percentEncodedPath
        return text
    }

    /// Log metadata keys, also the attribute names of spans: stable, so that operators can
    /// filter and index on them.
    public enum MetadataKey {
        /// The URL of a load or transfer, always ``GlimpseObservability/redacted(_:)``.
        public static let url = "glimpse.url"
        /// The tier that answered: `memory`, `disk`, `shared` or `network`.
        public static let tier = "glimpse.tier"
        /// The attempt to come of a retried transfer (2 for the first retry).
        public static let attempt = "glimpse.attempt"
        /// Why a transfer is retried (the `reason` dimension of `glimpse_retries_total`).
        public static let reason = "glimpse.reason"
        /// How long a retry waits, in milliseconds.
        public static let delay = "glimpse.delay_ms"
        /// The stage of a trace line (`disk`, `download`, `decode`, `process`, `encode`, `store`).
        public static let stage = "glimpse.stage"
        /// An image format (`jpeg`, `png`, `gif`, `webp`, `avif`).
        public static let format = "glimpse.format"
        /// A byte count (a body, an entry, a resumed prefix).
        public static let bytes = "glimpse.bytes"
        /// An HTTP status code.
        public static let status = "glimpse.status"
        /// An error, described without the URL.
        public static let error = "glimpse.error"
        /// A data-tier key's kind: `original` or `variant`.
        public static let entry = "glimpse.entry"
        /// A duration in milliseconds.
        public static let milliseconds = "glimpse.ms"
        /// How many decoding warnings an image recovered from damaged bytes carries.
        public static let warnings = "glimpse.warnings"
        /// The `Range` a resumed attempt asks for (`bytes=N-`).
        public static let range = "glimpse.range"
        /// A redirect's target, redacted.
        public static let target = "glimpse.target"
        /// A redirect's number within its attempt, from 1.
        public static let hop = "glimpse.hop"
        /// A data-tier call: `read` or `write`.
        public static let operation = "glimpse.operation"
        /// How a load ended: `success`, `failure` or `cancelled` (on a failed load's span).
        public static let outcome = "glimpse.outcome"
        /// How many calls a line stands for.
        public static let count = "glimpse.count"
    }
}
