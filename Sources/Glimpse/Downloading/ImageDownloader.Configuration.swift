import CoreMetrics
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging

extension ImageDownloader {
    /// Everything an ``ImageDownloader`` depends on, injected once.
    public struct Configuration: Sendable {
        /// The order of queued downloads of equal priority.
        public enum ExecutionOrder: Sendable, Hashable {
            /// First in, first out.
            case fifo
            /// Last in, first out (the newest request, e.g. the visible cell, first).
            case lifo
        }

        /// Credentials sent with every request.
        public enum Credentials: Sendable {
            /// HTTP Basic (RFC 7617), sent up front.
            case basic(user: String, password: String)
            /// A `URLCredential`: user and password are sent up front as Basic
            /// and also answer the server's challenges.
            case credential(URLCredential)

            /// `Authorization: Basic …` (RFC 7617 §2), what every loader sends up front;
            /// `nil` for a credential without a user or a password.
            package var basicAuthorization: String? {
                let pair: (String, String)? = switch self {
                case .basic(let user, let password): (user, password)
                case .credential(let credential): credential.user.flatMap { user in credential.password.map { (user, $0) } }
                }
                guard let (user, password) = pair else { return nil }
                return "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
            }
        }

        /// URL schemes the downloader accepts.
        public struct Schemes: OptionSet, Sendable, Hashable {
            public let rawValue: Int
            public init(rawValue: Int) { self.rawValue = rawValue }
            public static let http = Schemes(rawValue: 1 << 0)
            public static let https = Schemes(rawValue: 1 << 1)
            /// Local files; opt-in.
            public static let file = Schemes(rawValue: 1 << 2)

            package func allows(_ scheme: String?) -> Bool {
                switch scheme?.lowercased() {
                case "http": contains(.http)
                case "https": contains(.https)
                case "file": contains(.file)
                default: false
                }
            }
        }

        /// Typed hooks into the exchange.
        public struct Hooks: Sendable {
            /// Called before each transfer starts; returns the request to send, or
            /// `nil` to cancel it (its callers fail with ``ImageDownloadError/cancelled``).
            public var modifyRequest: (@Sendable (URLRequest) async -> URLRequest?)?
            /// Called with each response head after the built-in checks; may
            /// change the response the callers see, or throw to reject it.
            public var validateResponse: (@Sendable (ImageDownloadResponse) throws(ImageDownloadError) -> ImageDownloadResponse)?
            /// Applied to the complete body before decoding (e.g. decryption).
            public var transformData: (@Sendable ([UInt8], ImageDownloadResponse) async throws(ImageDownloadError) -> [UInt8])?

            public init(modifyRequest: (@Sendable (URLRequest) async -> URLRequest?)? = nil,
                        validateResponse: (@Sendable (ImageDownloadResponse) throws(ImageDownloadError) -> ImageDownloadResponse)? = nil,
                        transformData: (@Sendable ([UInt8], ImageDownloadResponse) async throws(ImageDownloadError) -> [UInt8])? = nil) {
                self.modifyRequest = modifyRequest
                self.validateResponse = validateResponse
                self.transformData = transformData
            }
        }

        /// At most this many transfers run at once (6).
        public var maximumConcurrentDownloads: Int = 6
        /// Per-request idle timeout (15 s): a transfer fails with
        /// ``ImageDownloadError/timedOut`` when nothing arrives for this long.
        /// Enforced by the downloader itself, because Linux's URLSession does not
        /// time out a server that stalls after the response head.
        public var timeout: Duration = .seconds(15)
        public var executionOrder: ExecutionOrder = .fifo
        /// Builds the session's configuration (ephemeral, without `URLCache`, by default).
        public var makeSessionConfiguration: @Sendable () -> URLSessionConfiguration = {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.urlCache = nil
            return configuration
        }
        /// Sent with every request unless the request overrides them.
        public var defaultHeaders: [String: String] = [
            // WebP named first, as browsers do: servers that negotiate formats send it only when asked by name.
            "Accept": "image/webp,image/*,*/*;q=0.8",
            "User-Agent": "Glimpse/\(GlimpseLibrary.version)",
        ]
        public var credentials: Credentials?
        /// Statuses that count as success (200..<300).
        public var acceptableStatusCodes: Range<Int> = 200..<300
        /// Acceptable media types (`image/png`, or `image/*`); any when `nil`.
        public var acceptableContentTypes: Set<String>?
        /// Larger responses are cancelled (64 MiB): from `Content-Length` when
        /// present, else as soon as the streamed body passes it.
        /// How failed transfers are tried again; a request can override it
        /// (``ImageDownloadRequest/retryPolicy``). Coalesced callers share one
        /// transfer and so its retries.
        public var retryPolicy: RetryPolicy = .standard
        /// How the first part of a failed transfer is kept for resuming it.
        public var resumption = Resumption()
        public var maximumResponseSize: Int = 64 << 20
        public var allowedSchemes: Schemes = [.http, .https]
        /// Which hosts and addresses may be connected to, checked before the
        /// request and every redirect (``AddressPolicy/any``: all but link-local).
        /// A request can override it (``ImageDownloadRequest/addressPolicy``).
        public var addressPolicy: AddressPolicy = .any
        /// Resolves names for the address check (`getaddrinfo` by default).
        public var hostResolver: HostResolver = .system
        /// Redirects followed per attempt (5); each target is checked like the request.
        public var maximumRedirects: Int = 5
        /// How long one attempt may take in all, connection and redirects
        /// included (30 s; `nil`: unbounded): fails with
        /// ``ImageDownloadError/deadlineExceeded`` and is not retried, so a slow
        /// origin holds a slot at most this long. A request can override it
        /// (``ImageDownloadRequest/transferDeadline``).
        public var transferDeadline: Duration? = .seconds(30)
        /// The slowest average rate an attempt may keep after its grace period
        /// (`nil`: none); slower fails with ``ImageDownloadError/tooSlow``.
        public var minimumTransferRate: MinimumTransferRate?
        /// Media types refused from the response head, before the body is read
        /// (`text/html`, or `text/*`): for bodies that are plainly no image.
        public var rejectedContentTypes: Set<String> = []
        public var hooks = Hooks()
        /// Where SDWebImage-style notifications are posted; none when `nil`.
        public var notificationCenter: NotificationCenter?
        /// Where the downloader logs (a no-op logger labelled `glimpse` by default):
        /// `debug` for retries (with their reason), resumptions and refused requests
        /// or redirects, `trace` for each transfer's steps; never `info` or above,
        /// and URLs only as ``GlimpseObservability/redacted(_:)`` writes them.
        public var logger: Logger = GlimpseObservability.noOpLogger
        /// Where the downloader's metrics go (bytes downloaded, transfers in flight and
        /// queued, retries by reason: see ``GlimpseObservability/MetricName``). The global
        /// `MetricsSystem.factory` as it is when the configuration is made, by
        /// swift-metrics' convention; inject one to keep a test's figures its own.
        public var metricsFactory: any MetricsFactory = MetricsSystem.factory

        /// Keeping the received part of a failed transfer so that the next
        /// attempt — a retry, or a later request for the same resource — asks
        /// only for the rest (`Range` with `If-Range`, RFC 9110 §14.2, §13.1.5).
        public struct Resumption: Sendable, Hashable {
            /// Off: every attempt starts from the first byte.
            public var isEnabled: Bool
            /// How long a failed transfer's bytes wait for a later request.
            public var lifetime: Duration
            /// The most bytes held for later requests, all resources together;
            /// the oldest go first.
            public var maximumTotalBytes: Int

            public init(isEnabled: Bool = true, lifetime: Duration = .seconds(600), maximumTotalBytes: Int = 32 << 20) {
                self.isEnabled = isEnabled
                self.lifetime = lifetime
                self.maximumTotalBytes = maximumTotalBytes
            }
        }

        /// The slowest an attempt may be: `bytesPerSecond` on average from its
        /// start, checked once `grace` has passed (connection set-up and the
        /// server's first byte take some of it).
        public struct MinimumTransferRate: Sendable, Hashable {
            public var bytesPerSecond: Int
            public var grace: Duration

            public init(bytesPerSecond: Int, grace: Duration = .seconds(5)) {
                self.bytesPerSecond = bytesPerSecond
                self.grace = grace
            }
        }

        public init() {}

        package func accepts(contentType: String?) -> Bool {
            if !rejectedContentTypes.isEmpty, let type = contentType?.lowercased() {
                if rejectedContentTypes.contains(type) { return false }
                if let slash = type.firstIndex(of: "/"), rejectedContentTypes.contains(type[..<slash] + "/*") { return false }
            }
            guard let acceptable = acceptableContentTypes else { return true }
            guard let type = contentType?.lowercased() else { return false }
            if acceptable.contains(type) { return true }
            guard let slash = type.firstIndex(of: "/") else { return false }
            return acceptable.contains(type[..<slash] + "/*") || acceptable.contains("*/*")
        }
    }
}
