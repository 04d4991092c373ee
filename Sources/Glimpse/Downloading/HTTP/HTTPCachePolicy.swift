/// Whether the pipeline follows the origin's caching instructions.
public enum HTTPCachePolicy: Sendable, Hashable {
    /// Store everything that was downloaded and serve it until it is evicted;
    /// revalidate only when a request asks to refresh. What Kingfisher and
    /// SDWebImage do, and the default: image URLs rarely change content.
    case ignore
    /// Behave as a private HTTP cache (RFC 9111): `no-store` responses are
    /// not stored, a fresh entry is served without the network, a stale one
    /// is revalidated with its validators first, and `no-cache` /
    /// `must-revalidate` are honoured.
    case respect

    /// Whether a response may be stored at all under this policy.
    ///
    /// Under ``respect``: not with `no-store` (RFC 9111 §5.2.2.5), and not when
    /// it varies (`Vary`, RFC 9110 §12.5.5) on anything but `Accept` and
    /// `Accept-Encoding` — the cache keys entries by URL and the request's
    /// content negotiation, so a response chosen by, say, `Cookie` or
    /// `User-Agent` could be served to the wrong request.
    func allowsStoring(headers: [String: String]) -> Bool {
        guard self == .respect else { return true }
        if CacheControl(parsing: headers["cache-control"] ?? "").noStore { return false }
        guard let vary = headers["vary"] else { return true }
        return vary.split(separator: ",").allSatisfy { field in
            let name = field.trimmingSpaces().lowercased()
            return name == "accept" || name == "accept-encoding" || name.isEmpty
        }
    }
}
