import CoreMetrics
import Foundation
import GlimpseCache
import Logging
import Tracing

extension ImagePipeline {
    /// What the data tier keeps (Nuke's `DataCachePolicy`, SDWebImage's
    /// transformed-image cache).
    public enum DataCachePolicy: Sendable, Hashable {
        /// Processed images when the request has processors (or decodes at
        /// reduced size), originals otherwise.
        case automatic
        /// The downloaded bytes only; every variant is decoded and processed
        /// again from them.
        case originalOnly
        /// The processed image only (encoded); requests without processors
        /// store their originals.
        case processedOnly
        /// Both the original and the processed image.
        case both
    }

    /// Everything an ``ImagePipeline`` depends on, injected once: the three
    /// tiers (memory, data, loader), the one decoder registry and the executor
    /// width, then policies.
    public struct Configuration: Sendable {
        /// Hooks into the flow.
        public struct Hooks: Sendable {
            /// Asked before each download; `false` fails the load with
            /// ``ImageLoadError/downloadRefused`` (cache hits are unaffected).
            public var shouldDownload: (@Sendable (URL) -> Bool)?
            /// Applied to each image decoded from downloaded (or cached original)
            /// bytes, before the processors run and before anything is cached.
            public var transformDownloadedImage: (@Sendable (Image, URL) -> Image)?

            public init(shouldDownload: (@Sendable (URL) -> Bool)? = nil,
                        transformDownloadedImage: (@Sendable (Image, URL) -> Image)? = nil) {
                self.shouldDownload = shouldDownload
                self.transformDownloadedImage = transformDownloadedImage
            }
        }

        /// The loader tier (an ``ImageDownloader`` by default).
        public var dataLoader: any ImageDataLoading
        /// The memory and data tiers.
        public var cache: ImageCache
        /// Decodes every image the pipeline loads, from the network or from the data tier.
        public var decoderRegistry: DecoderRegistry
        /// Threads that decode, process and encode (the pipeline's own, never the
        /// cooperative pool's). By default one per core: they run at a lower
        /// scheduling priority (``processingNiceness``), so they use every idle core
        /// without delaying the rest of the process.
        public var processingWidth: Int = Self.defaultProcessingWidth
        /// How far below the process's other threads the processing threads run: a
        /// nice value (setpriority(2), 0…19; 0 for equal priority). By default 5: a
        /// request handler that wakes preempts a decode.
        public var processingNiceness: Int32 = 5
        /// The bound on the encoded bytes held by decode jobs queued and running
        /// (64 MB): past it, loads wait before they start a download, so a burst of
        /// requests cannot pile up downloaded bodies faster than they are decoded.
        public var maximumProcessingBytes: Int = 64 << 20
        /// Bounds on each image the pipeline decodes, checked from its header before
        /// any pixel memory is allocated (``DecodingLimits``: 128 Mi pixels, 1 GiB and
        /// 10,000 frames by default; ``server(environment:)`` lowers them to 50 MP,
        /// 256 MiB and 1,000 frames). An image past them fails with
        /// ``ImageLoadError/decoding(_:)`` carrying
        /// ``ImageDecodingError/limitExceeded(_:)``, a permanent error.
        public var decodingLimits = DecodingLimits()
        /// What processed images (a request with processors: thumbnails, resizes) do with an
        /// embedded ICC profile: ``ColorPolicy/convertToSRGB`` by default, as image proxies
        /// do (imgproxy's `STRIP_COLOR_PROFILE`, thumbor's `SRGB_PROFILE`): pixels converted
        /// through the profile and the profile dropped, so that a small image looks right in
        /// every browser without carrying kilobytes of profile. CMYK JPEGs go through their
        /// profile too. An sRGB source costs no conversion; a profile that cannot be used leaves
        /// the pixels and the profile as they are, with a warning. Images loaded without
        /// processors are decoded as stored (``ColorPolicy/preserve``), profile kept.
        /// ``ColorPolicy/convert(to:intent:)`` converts to a profile of the caller's and embeds it.
        /// A policy other than the default is part of processed variants' cache keys.
        public var colorPolicy: ColorPolicy = .convertToSRGB
        /// Whether the pipeline reads `file` URLs itself (`true`, so that `image(for: fileURL)`
        /// works as a newcomer expects). ``server(environment:)`` turns it off: a server that
        /// loads URLs its users supply must not read its own files (`file:///var/uploads/…`
        /// would read any file the process can; CWE-73). `file` URLs then go to the loader,
        /// whose ``ImageDownloader/Configuration/allowedSchemes`` (HTTP and HTTPS by default)
        /// refuses them with ``ImageDownloadError/invalidURL`` before anything is read.
        public var readsFileURLs = true
        /// The largest `file` URL the pipeline reads (256 MB): larger files fail with
        /// ``ImageDownloadError/tooLarge`` before they are read.
        public var maximumFileSize: Int = 256 << 20
        /// What the data tier keeps (``DataCachePolicy/automatic``).
        public var dataCachePolicy: DataCachePolicy = .automatic
        /// Whether the tiers follow the origin's caching instructions
        /// (``HTTPCachePolicy/ignore``: keep and serve everything, as Kingfisher and
        /// SDWebImage do; ``HTTPCachePolicy/respect``: RFC 9111 freshness, validators,
        /// `no-store` and `Vary`).
        public var httpCachePolicy: HTTPCachePolicy = .ignore
        /// Encodes processed images for the data tier: JPEG for opaque 8-bit
        /// images, PNG otherwise (and when the registry has no JPEG encoder).
        public var encoderRegistry: EncoderRegistry = .standard
        /// Quality (1…100) of processed images stored as JPEG (4:2:0, ITU T.81
        /// Annex K tables scaled as libjpeg does); PNG is lossless and ignores it.
        public var encodingQuality: Int = 80
        /// Maps a URL to the resource part of its cache key (e.g. to drop a
        /// signature query item); the absolute string when `nil`. A request's
        /// own ``ImageRequest/cacheKey`` wins over it.
        public var cacheKeyFilter: (@Sendable (URL) -> String)?
        /// How long a permanently failed URL fails fast (10 minutes).
        public var failedURLTimeToLive: Duration = .seconds(600)
        /// The pipeline's clock (monotonic by default; tests move it by hand): the
        /// failed-URL cache's time-to-live, and every duration the pipeline measures
        /// (its stage timers and each load's ``ImageTask/Metrics``).
        public var clock: CacheClock = .monotonic
        public var hooks = Hooks()
        /// Why the data tier is missing, when ``standard(environment:)`` could not
        /// open a disk cache (no cache folder, or one that cannot be written) and
        /// fell back to memory only; `nil` otherwise.
        public var memoryOnlyReason: String?
        /// Where the pipeline logs (a no-op logger labelled `glimpse` by default):
        /// `debug` for revalidations, recoveries from damaged bytes, corrupt data-tier
        /// entries removed and fallbacks, `trace` for each stage; never `info` or above
        /// for normal operation, and URLs only as ``GlimpseObservability/redacted(_:)``
        /// writes them. The downloader logs through its own
        /// ``ImageDownloader/Configuration/logger``.
        public var logger: Logger = GlimpseObservability.noOpLogger
        /// Where the pipeline's metrics go (see ``GlimpseObservability/MetricName``): the
        /// global `MetricsSystem.factory` as it is when the configuration is made, by
        /// swift-metrics' convention, so that a server that bootstraps a back-end first
        /// gets Glimpse's figures with no wiring; a test injects its own factory and
        /// leaves the global alone.
        public var metricsFactory: any MetricsFactory = MetricsSystem.factory
        /// Where load and stage spans go: the global `InstrumentationSystem.tracer` as it
        /// is when the configuration is made (the no-op tracer until a server bootstraps
        /// one). Each load's `glimpse.load` span is a child of the caller's
        /// `ServiceContext.current`.
        public var tracer: any Tracer = InstrumentationSystem.tracer

        /// - Parameters:
        ///   - dataLoader: shared by every load (an ``ImageDownloader``'s queue bounds concurrency).
        ///   - cache: the tiers consulted before the loader.
        ///   - decoderRegistry: the one registry that decodes.
        public init(dataLoader: any ImageDataLoading, cache: ImageCache, decoderRegistry: DecoderRegistry = .standard) {
            self.dataLoader = dataLoader
            self.cache = cache
            self.decoderRegistry = decoderRegistry
        }

        /// A configuration with an ``ImageDownloader`` as the loader.
        public init(downloader: ImageDownloader = ImageDownloader(), cache: ImageCache,
                    decoderRegistry: DecoderRegistry = .standard) {
            self.init(dataLoader: downloader, cache: cache, decoderRegistry: decoderRegistry)
        }

        /// The loader when it is an ``ImageDownloader`` (the default).
        public var downloader: ImageDownloader? { dataLoader as? ImageDownloader }

        /// The decoding options of one load: the request's own switches under the
        /// pipeline's ``decodingLimits``, and ``colorPolicy`` when it has processors.
        func decodingOptions(for request: ImageRequest) -> DecodingOptions {
            var options = request.decodingOptions
            options.limits = decodingLimits
            if !request.processors.isEmpty { options.colorPolicy = colorPolicy }
            return options
        }

        /// The part of a processed variant's cache key the configuration adds: the colour
        /// policy, when it is not the default (so that existing keys stay as they were).
        func variantSuffix(for request: ImageRequest) -> String? {
            guard !request.processors.isEmpty, colorPolicy != .convertToSRGB else { return nil }
            switch colorPolicy {
            case .preserve:
                return "color=preserve"
            case .convertToSRGB:
                return "color=srgb"
            case .convert(let profile, let intent):
                // FNV-1a (64-bit) of the profile's bytes: stable across runs, unlike `Hasher`.
                var hash: UInt64 = 0xcbf2_9ce4_8422_2325
                for byte in profile.bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
                return "color=icc-\(String(hash, radix: 16))-\(intent.rawValue)"
            }
        }

        /// One thread per core (at a lower priority: see ``processingNiceness``), at least one.
        public static var defaultProcessingWidth: Int {
            max(1, ProcessInfo.processInfo.activeProcessorCount)
        }
    }
}
