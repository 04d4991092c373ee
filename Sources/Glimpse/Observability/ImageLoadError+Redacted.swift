import Foundation

extension ImageDownloadError {
    /// The description for logs and spans: the same words, with any URL an error carries
    /// (a refused redirect's target) cut to ``GlimpseObservability/redacted(_:)`` and the
    /// transport's own message dropped (libcurl's may quote the whole URL).
    var redactedDescription: String {
        switch self {
        case .redirectNotAllowed(let target):
            "redirect not allowed (\(URL(string: target).map(GlimpseObservability.redacted) ?? "<unparseable URL>"))"
        case .transport(let code, _): "transport error \(code)"
        default: description
        }
    }

    /// The `reason` dimension of `glimpse_retries_total`: a small, fixed set of values.
    var retryReason: String {
        switch self {
        case .badStatus(let code): "status_\(code)"
        case .transport: "connection"
        case .timedOut: "timeout"
        case .tooSlow: "too_slow"
        case .deadlineExceeded: "deadline"
        default: "other"
        }
    }
}

extension ImageLoadError {
    /// ``ImageDownloadError/redactedDescription`` for download failures; the plain
    /// description otherwise (no other case carries a URL).
    var redactedDescription: String {
        switch self {
        case .download(let error): error.redactedDescription
        case .failedRecently(let reason): "failed recently (negative cache): \(reason.redactedDescription)"
        default: description
        }
    }
}
