/// Why a download failed. Every caller's completion receives exactly one
/// result: the download or one of these.
public enum ImageDownloadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The URL is malformed, has no host, or uses a scheme the configuration
    /// does not allow.
    case invalidURL
    /// The server answered with a status outside the acceptable range
    /// (RFC 9110 §15).
    case badStatus(Int)
    /// The server answered 304 Not Modified to a conditional request
    /// (RFC 9110 §15.4.5): the caller's cached copy is still valid. Carries the
    /// 304's head, whose fields update the stored response's (RFC 9111 §4.3.4).
    case notModified(ImageDownloadResponse)
    /// The response's media type (RFC 9110 §8.3) is not acceptable; carries it.
    case invalidContentType(String?)
    /// The response was acceptable but carried no bytes.
    case emptyBody
    /// The response is larger than ``ImageDownloader/Configuration/maximumResponseSize``;
    /// the transfer was cancelled early.
    case tooLarge
    /// No data arrived within the request timeout.
    case timedOut
    /// The caller cancelled, the request modifier dropped the request, or the
    /// downloader was invalidated.
    case cancelled
    /// The configured data transform rejected the body; carries its reason.
    case transformFailed(String)
    /// Allowing invalid TLS certificates was asked for, but swift-corelibs-foundation's
    /// URLSession on Linux never asks its delegate about server trust (libcurl
    /// verifies peers itself), so the request is refused rather than silently
    /// verified anyway.
    case invalidCertificatesNotSupported
    /// The connection failed: `code` is the `URLError` code, `message` its text.
    case transport(code: Int, message: String)
    /// The ``AddressPolicy`` refused the host or one of its addresses (of the
    /// request or of a redirect), before any connection to it; carries it.
    case addressNotAllowed(String)
    /// More redirects than ``ImageDownloader/Configuration/maximumRedirects``.
    case tooManyRedirects(Int)
    /// A redirect to a scheme outside ``ImageDownloader/Configuration/allowedSchemes``,
    /// or from `https` to `http` under a policy other than ``AddressPolicy/Base/any``; carries the target.
    case redirectNotAllowed(String)
    /// The attempt ran past ``ImageDownloader/Configuration/transferDeadline``.
    case deadlineExceeded
    /// The body arrived slower than ``ImageDownloader/Configuration/minimumTransferRate``.
    case tooSlow

    /// Whether asking again will fail the same way, so that a caller (the
    /// pipeline's failed-URL cache) may remember it: an invalid URL, a client
    /// error status other than 408 and 429 (RFC 9110 §15.5), an unacceptable or
    /// undecodable body. Timeouts, cancellation, connection failures, server
    /// errors and `notModified` are not permanent.
    public var isPermanent: Bool {
        switch self {
        case .invalidURL, .invalidContentType, .emptyBody, .tooLarge, .transformFailed,
             .invalidCertificatesNotSupported, .addressNotAllowed, .tooManyRedirects, .redirectNotAllowed:
            true
        case .badStatus(let code):
            (400..<500).contains(code) && code != 408 && code != 429
        case .notModified, .timedOut, .cancelled, .transport, .deadlineExceeded, .tooSlow:
            false
        }
    }

    public var description: String {
        switch self {
        case .invalidURL: "invalid URL"
        case .badStatus(let code): "bad HTTP status \(code)"
        case .notModified: "not modified (304)"
        case .invalidContentType(let type): "invalid content type \(type ?? "(none)")"
        case .emptyBody: "empty body"
        case .tooLarge: "response too large"
        case .timedOut: "timed out"
        case .cancelled: "cancelled"
        case .transformFailed(let reason): "data transform failed: \(reason)"
        case .invalidCertificatesNotSupported:
            "allowing invalid TLS certificates is not supported by URLSession on this platform"
        case .transport(let code, let message): "transport error \(code): \(message)"
        case .addressNotAllowed(let address): "address not allowed (\(address))"
        case .tooManyRedirects(let limit): "more than \(limit) redirects"
        case .redirectNotAllowed(let target): "redirect not allowed (\(target))"
        case .deadlineExceeded: "transfer deadline exceeded"
        case .tooSlow: "transfer too slow"
        }
    }
}
