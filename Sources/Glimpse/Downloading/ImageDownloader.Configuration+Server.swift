extension ImageDownloader.Configuration {
    /// For servers that fetch URLs their users supply (avatars, link previews,
    /// "import from URL"), as imgproxy and imagor users expect of a fetcher
    /// exposed to the internet:
    /// - ``AddressPolicy/public`` addresses only, checked on every hop;
    /// - at most 5 redirects, never from `https` to `http`;
    /// - a 30 s deadline per attempt and at least 8 KiB/s after 5 s, besides the
    ///   15 s idle timeout, so a trickling origin frees its slot on time;
    /// - responses of at most 32 MiB;
    /// - bodies declared as text, scripts, documents, audio or video
    ///   (`text/html`, `application/json`…) refused from the response head.
    ///
    /// Hosts of one's own (a CDN origin on a private network) go in
    /// ``AddressPolicy/allowed``.
    public static var server: Self {
        var configuration = Self()
        configuration.addressPolicy = .public
        configuration.maximumRedirects = 5
        configuration.transferDeadline = .seconds(30)
        configuration.minimumTransferRate = MinimumTransferRate(bytesPerSecond: 8 << 10, grace: .seconds(5))
        configuration.maximumResponseSize = 32 << 20
        configuration.rejectedContentTypes = [
            "text/*", "application/json", "application/javascript", "application/xml", "application/xhtml+xml",
            "application/pdf", "application/zip", "audio/*", "video/*", "font/*", "multipart/*",
        ]
        return configuration
    }
}
