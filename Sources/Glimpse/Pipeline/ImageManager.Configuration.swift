import Foundation
import GlimpseCache

extension ImageManager {
    /// Everything an ``ImageManager`` depends on, injected once.
    public struct Configuration: Sendable {
        /// Hooks into the flow.
        public struct Hooks: Sendable {
            /// Asked before each download; `false` fails the load with
            /// ``ImageLoadError/downloadRefused`` (cache hits are unaffected).
            public var shouldDownload: (@Sendable (URL) -> Bool)?
            /// Applied to each image decoded from downloaded (or disk-cached)
            /// bytes, before the transformer runs and before anything is cached.
            public var transformDownloadedImage: (@Sendable (Image, URL) -> Image)?

            public init(shouldDownload: (@Sendable (URL) -> Bool)? = nil,
                        transformDownloadedImage: (@Sendable (Image, URL) -> Image)? = nil) {
                self.shouldDownload = shouldDownload
                self.transformDownloadedImage = transformDownloadedImage
            }
        }

        /// The network tier.
        public var downloader: ImageDownloader
        /// The memory and disk tiers.
        public var cache: ImageCache
        /// Decodes downloaded bytes.
        public var decoderRegistry: DecoderRegistry
        /// Maps a URL to the resource part of its cache key (e.g. to drop a
        /// signature query item); the absolute string when `nil`.
        public var cacheKeyFilter: (@Sendable (URL) -> String)?
        /// How long a permanently failed URL fails fast (10 minutes).
        public var failedURLTimeToLive: Duration = .seconds(600)
        /// The clock of the failed-URL cache (monotonic by default; tests move it by hand).
        public var clock: CacheClock = .monotonic
        public var hooks = Hooks()

        /// - Parameters:
        ///   - downloader: shared by every load (its queue bounds concurrency).
        ///   - cache: the tiers consulted before the network.
        public init(downloader: ImageDownloader = ImageDownloader(), cache: ImageCache,
                    decoderRegistry: DecoderRegistry = .standard) {
            self.downloader = downloader
            self.cache = cache
            self.decoderRegistry = decoderRegistry
        }
    }
}
