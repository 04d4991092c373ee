@_exported import Foundation
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif
@_exported import GlimpseCache
@_exported import GlimpseCodec

// The pipeline: downloader, combined image cache, manager and prefetcher; the only module
// that joins codecs, caches and network. `import Glimpse` alone brings what its public API
// speaks in: `URL`, `Data` and `URLRequest` (Foundation, and FoundationNetworking on Linux),
// the caches (GlimpseCache) and images (GlimpseCodec).

/// Facts about the library. Not named `Glimpse`, so that `Glimpse.Image` and the
/// like name the module's types.
public enum GlimpseLibrary {
    /// The library version, sent in the downloader's `User-Agent`.
    public static let version = "0.1.0"
}
