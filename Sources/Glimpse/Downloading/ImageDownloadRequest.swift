import Foundation

/// One caller's request for an image's bytes.
///
/// Requests that agree on ``url``, ``headers`` and ``options`` share one HTTP
/// transfer; ``priority`` is per caller. The downloader moves bytes only:
/// ``ImagePipeline`` decodes them, with its one registry, on its own executor.
public struct ImageDownloadRequest: Sendable {
    /// Per-request switches that change the HTTP exchange.
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Let the session's `URLCache` answer and store (off by default; the
        /// session configuration must also have a cache).
        public static let useURLCache = Options(rawValue: 1 << 0)
        /// Send and store cookies (RFC 6265).
        public static let handleCookies = Options(rawValue: 1 << 1)
        /// Accept invalid TLS certificates. Not supported by URLSession on Linux:
        /// such requests fail with ``ImageDownloadError/invalidCertificatesNotSupported``.
        public static let allowInvalidCertificates = Options(rawValue: 1 << 2)
    }

    /// When the partial image of a progressive download is handed out.
    public enum ProgressiveThrottle: Sendable, Hashable {
        /// At most once per interval.
        case interval(Duration)
        /// Each time another `fraction` (0...1) of the expected length has arrived;
        /// with an unknown length, once per 64 KiB per 0.1.
        case progressStep(Double)
    }

    public var url: URL
    public var priority: ImageDownloadPriority
    /// Extra header fields, e.g. `If-None-Match` for revalidation (RFC 9110 §13.1).
    /// They override the configuration's defaults.
    public var headers: [String: String]
    public var options: Options
    /// This request's idle timeout instead of the configuration's
    /// ``ImageDownloader/Configuration/timeout``.
    public var timeout: Duration?
    /// Overrides the downloader's ``ImageDownloader/Configuration/retryPolicy``.
    /// When callers share a transfer, the first caller's policy governs it.
    public var retryPolicy: RetryPolicy?
    /// Overrides the downloader's ``ImageDownloader/Configuration/addressPolicy``.
    public var addressPolicy: AddressPolicy?
    /// Overrides the downloader's ``ImageDownloader/Configuration/transferDeadline``.
    public var transferDeadline: Duration?

    public init(url: URL, priority: ImageDownloadPriority = .normal, headers: [String: String] = [:],
                options: Options = [], timeout: Duration? = nil, retryPolicy: RetryPolicy? = nil,
                addressPolicy: AddressPolicy? = nil, transferDeadline: Duration? = nil) {
        self.addressPolicy = addressPolicy
        self.transferDeadline = transferDeadline
        self.url = url
        self.priority = priority
        self.headers = headers
        self.options = options
        self.timeout = timeout
        self.retryPolicy = retryPolicy
    }

    /// This request made conditional on a stored copy (RFC 9110 §13.1.2
    /// `If-None-Match`, §13.1.3 `If-Modified-Since`): an unchanged resource then
    /// fails with ``ImageDownloadError/notModified`` instead of sending its body.
    public func revalidating(entityTag: String?, lastModified: String?) -> ImageDownloadRequest {
        var request = self
        if let entityTag { request.headers["If-None-Match"] = entityTag }
        if let lastModified { request.headers["If-Modified-Since"] = lastModified }
        return request
    }

    /// What decides whether two requests may share a transfer.
    package struct TransferKey: Hashable, Sendable {
        var url: URL
        var headers: [String: String]
        var options: Options
        var timeout: Duration?
        /// A caller must never receive bytes fetched under a looser policy than its own.
        var addressPolicy: AddressPolicy?
        var transferDeadline: Duration?
    }

    package var transferKey: TransferKey {
        TransferKey(url: url, headers: headers, options: options, timeout: timeout, addressPolicy: addressPolicy,
                    transferDeadline: transferDeadline)
    }
}
