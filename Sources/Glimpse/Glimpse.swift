@_exported import GlimpseCodec

/// The Glimpse pipeline: downloader, combined image cache, manager and
/// prefetcher. The only module that joins codecs, caches and network.
public enum Glimpse {
    /// The library version, sent in the downloader's `User-Agent`.
    public static let version = "0.1.0"
}
