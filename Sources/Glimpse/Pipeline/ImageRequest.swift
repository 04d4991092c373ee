import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GlimpseCache

/// What to load and how: the resource (a URL, or a `URLRequest` with its own
/// header fields and timeout), the processors applied to the decoded image,
/// options, a priority and an optional cache key.
///
/// ```swift
/// let request = ImageRequest(url: url, processors: [.resize(width: 256)], priority: .high)
/// let thumbnail = try await ImagePipeline.shared.image(for: request)
/// ```
public struct ImageRequest: Sendable {
    /// The HTTP request: URL, header fields (RFC 9110 §6.3) and timeout.
    public var urlRequest: URLRequest
    /// Applied in order to the decoded image; their ``ImageTransformer/cacheKey``s
    /// are part of the cache key, so each variant is cached apart.
    public var processors: [any ImageTransformer]
    public var options: Options
    /// How soon the download starts and the decode runs relative to other loads.
    public var priority: ImageDownloadPriority
    /// Replaces the resource part of the cache key (by default the URL, or the
    /// configuration's ``ImagePipeline/Configuration/cacheKeyFilter`` of it):
    /// e.g. a stable identifier for a URL whose signature changes.
    public var cacheKey: String?
    /// Decode images larger than this many pixel bytes (first frame) at
    /// reduced size: JPEG through DCT scaling, then a resize.
    public var maximumPixelBytes: Int?
    /// Overrides the downloader's ``ImageDownloader/Configuration/retryPolicy``
    /// for this request's download (``RetryPolicy/never`` for a caller that
    /// retries on its own).
    public var retryPolicy: RetryPolicy?
    /// Encoded bytes already in hand (an upload), decoded and processed on the
    /// pipeline's executor instead of being loaded: see ``init(id:data:processors:options:priority:)``.
    public var data: [UInt8]?

    public init(url: URL, processors: [any ImageTransformer] = [], options: Options = [],
                priority: ImageDownloadPriority = .normal, cacheKey: String? = nil, maximumPixelBytes: Int? = nil) {
        var urlRequest = URLRequest(url: url)
        // URLRequest's default (60 s) would replace the downloader's idle timeout.
        urlRequest.timeoutInterval = 0
        self.init(urlRequest: urlRequest, processors: processors, options: options, priority: priority,
                  cacheKey: cacheKey, maximumPixelBytes: maximumPixelBytes)
    }

    /// A request whose header fields are sent with the download (overriding the
    /// downloader's defaults) and whose `timeoutInterval`, when positive, is the
    /// download's idle timeout instead of the downloader's.
    public init(urlRequest: URLRequest, processors: [any ImageTransformer] = [], options: Options = [],
                priority: ImageDownloadPriority = .normal, cacheKey: String? = nil, maximumPixelBytes: Int? = nil) {
        self.urlRequest = urlRequest
        self.processors = processors
        self.options = options
        self.priority = priority
        self.cacheKey = cacheKey
        self.maximumPixelBytes = maximumPixelBytes
    }

    /// Bytes already in hand — an upload a request handler received — as a
    /// resource: decoded and processed on the pipeline's executor (never the
    /// caller's thread) and cached under `id` like any other image, so a second
    /// request for the same `id` and processors is a cache hit. The bytes are
    /// not checked against what is cached: a new upload needs a new `id`.
    public init(id: String, data: [UInt8], processors: [any ImageTransformer] = [], options: Options = [],
                priority: ImageDownloadPriority = .normal) {
        let escaped = id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? ""
        // A URL of its own scheme for results and logs; the loader never sees it.
        let url = URL(string: "glimpse-data:" + escaped) ?? URL(fileURLWithPath: "/")
        self.init(url: url, processors: processors, options: options, priority: priority, cacheKey: id)
        self.data = data
    }

    /// The resource's URL (a `URLRequest` without one loads nothing and fails
    /// with ``ImageDownloadError/invalidURL``).
    public var url: URL? { urlRequest.url }

    /// Header fields sent with this request only.
    public var headers: [String: String] { urlRequest.allHTTPHeaderFields ?? [:] }

    /// The per-request idle timeout, when the `URLRequest` sets a positive one.
    public var timeout: Duration? {
        let interval = urlRequest.timeoutInterval
        guard interval > 0, interval.isFinite else { return nil }
        return .milliseconds(Int64((interval * 1000).rounded(.up)))
    }

    /// Request header fields that select a different response for the same URL:
    /// credentials (`Authorization`, `Cookie`) and content negotiation
    /// (`Accept`, RFC 9110 §12.5.1). Requests that differ in them never share a
    /// cache entry or a failed-URL entry, unless ``cacheKey`` maps them to one.
    static let distinguishingHeaders: Set<String> = ["authorization", "cookie", "accept"]

    /// A digest of this request's ``distinguishingHeaders`` (names lowercased,
    /// sorted), or `nil` when it sends none of its own. A digest rather than the
    /// values, so that credentials never reach a cache key or a file on disk.
    var distinguishingDigest: String? {
        let fields = headers.compactMap { name, value -> String? in
            let lowered = name.lowercased()
            return Self.distinguishingHeaders.contains(lowered) ? lowered + ":" + value : nil
        }
        guard !fields.isEmpty else { return nil }
        return String(SHA256.hexDigest(Array(fields.sorted().joined(separator: "\n").utf8)).prefix(32))
    }

    /// The decoding and processing part of the cache key.
    var variant: String {
        var parts: [String] = []
        if options.contains(.firstFrameOnly) { parts.append("first-frame") }
        if let maximumPixelBytes { parts.append("max-bytes=\(maximumPixelBytes)") }
        for processor in processors { parts.append(processor.cacheKey) }
        return parts.joined(separator: "|")
    }

    var decodingOptions: DecodingOptions { DecodingOptions(firstFrameOnly: options.contains(.firstFrameOnly)) }
}

extension ImageRequest {
    /// Switches that change how one load behaves. Loads whose options differ
    /// (other than ``progressive``) never share work.
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Try a URL again even though it failed permanently within the
        /// failed-URL time-to-live; success forgets the failure.
        public static let retryFailed = Options(rawValue: 1 << 0)
        /// Revalidate the cached bytes with the server (`If-None-Match`,
        /// `If-Modified-Since`, RFC 9110 §13.1): 304 returns the cached image,
        /// 200 replaces it.
        public static let refreshCached = Options(rawValue: 1 << 1)
        /// With ``refreshCached``: hand out the cached image at once (as a
        /// preview: ``ImageTask/Event/preview(_:)``, or the callback API's
        /// partial image), then the revalidated one as the result.
        public static let deliverCachedFirst = Options(rawValue: 1 << 2)
        /// Never download: a miss in both tiers fails with ``ImageLoadError/notCached``.
        public static let fromCacheOnly = Options(rawValue: 1 << 3)
        /// Skip both tiers when looking up (results are still stored).
        public static let fromLoaderOnly = Options(rawValue: 1 << 4)
        /// Neither read nor write the data (disk) tier.
        public static let memoryCacheOnly = Options(rawValue: 1 << 5)
        /// Return only after the bytes are in the data tier (otherwise the
        /// write finishes in the background).
        public static let waitForDiskStore = Options(rawValue: 1 << 6)
        /// Decode only the first frame of animations.
        public static let firstFrameOnly = Options(rawValue: 1 << 7)
        /// Hand out partial images while a download progresses.
        public static let progressive = Options(rawValue: 1 << 8)

        /// The options that change what a load does: part of the key under which loads are shared.
        static let behaviour: Options = [.retryFailed, .refreshCached, .deliverCachedFirst, .fromCacheOnly,
                                         .fromLoaderOnly, .memoryCacheOnly, .waitForDiskStore]
    }
}
