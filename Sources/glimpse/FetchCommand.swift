import ArgumentParser
import Foundation
import Glimpse
import GlimpseCache
import GlimpseRedis
import AsyncHTTPClient
import GlimpseAsyncHTTPClient

/// `glimpse fetch`: loads URLs through the whole pipeline (memory → disk →
/// network → decode → transform → store).
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Load images through the pipeline (memory, disk cache, network).",
        discussion: """
        Prints one line per URL: 'URL: ok tier=network|shared|disk|memory FORMAT WIDTHxHEIGHT frames=N ms=T' \
        or 'URL: error <reason>'. Exit status 1 when any URL failed. With --timings, each loaded URL's line is \
        followed by 'URL: timings tier=T queue=MS disk=MS download=MS decode=MS process=MS encode=MS store=MS \
        bytes=N' (milliseconds, '-' for a stage that did not run). Every line shows the URL without its \
        credentials, query or fragment, as logs do. \
        With --metrics, one line per metric follows: 'metric,NAME,DIMENSIONS,VALUE' (dimensions as k=v;k=v).
        """
    )

    @Argument(help: "The image URLs (http or https).")
    var urls: [String]

    @Option(help: """
        Disk cache directory (default: the disk cache's, ~/.cache/glimpse/images). When it cannot be \
        created or written, a warning says so and only the memory cache is used.
        """)
    var cacheDir: String?

    @Option(help: "Loads in flight at once.")
    var concurrency: Int = 6

    @Option(help: "Write each decoded (or thumbnail) image as PNG into this directory.")
    var output: String?

    @Option(help: "Make a thumbnail that fits WIDTHxHEIGHT.")
    var thumbnail: String?

    @Option(help: "With --thumbnail: an embedded ICC profile converted to sRGB and dropped (srgb, the pipeline's default), kept with the pixels as stored (preserve), or converted to the RGB or grey ICC profile at this path.")
    var color: ColorArgument = .srgb

    @Flag(help: "Never download: only the caches answer.")
    var cacheOnly = false

    @Flag(help: "Neither read nor write the disk cache.")
    var noCache = false

    @Flag(help: "Revalidate cached bytes with the server (If-None-Match / If-Modified-Since).")
    var refresh = false

    @Option(help: "Retries of a transient failure (connection reset, timeout, 408/429/502/503/504), with backoff.")
    var retries: Int = RetryPolicy.standard.maximumRetries

    @Flag(help: "Retry URLs that failed permanently a short while ago.")
    var retryFailed = false

    @Option(help: "ignore: keep and serve whatever was downloaded (the default); respect: follow Cache-Control, Expires and validators as a private HTTP cache (RFC 9111).")
    var httpCache: HTTPCacheArgument = .ignore

    @Option(help: "any: every address but link-local (the default); public: public internet addresses only.")
    var addressPolicy: AddressPolicyArgument?

    @Option(help: "Allow this host, HOST:PORT, [IPV6]:PORT or ADDRESS/LENGTH range whatever the policy says (repeatable).")
    var allowHost: [String] = []

    @Option(help: "Refuse this host, HOST:PORT or ADDRESS/LENGTH range (repeatable).")
    var denyHost: [String] = []

    @Option(help: "Redirects followed per attempt (default 5).")
    var maxRedirects: Int?

    @Option(help: "Seconds one attempt may take in all (default 30).")
    var transferTimeout: Double?

    @Flag(help: "Start from the server profile: public addresses, 5 redirects, 30 s deadline, 32 MiB cap, no text bodies, decoding limits of 50 MP, 256 MiB and 1,000 frames.")
    var serverDefaults = false

    @Option(help: """
        A Redis (or Valkey) shared by every instance, behind the disk cache: \
        redis://[user:password@]HOST:PORT[/DB]. A hit there prints tier=shared; Redis down costs nothing but speed.
        """)
    var sharedCache: String?

    @Option(help: """
        Seconds an instance waits for the image another instance is fetching (the shared cache's \
        single-flight lock) before fetching it itself.
        """)
    var sharedCacheLockWait: Double = 3

    @Option(help: "Milliseconds the shared cache may take to connect (default 50).")
    var sharedCacheConnectTimeout: Int?

    @Option(help: "Milliseconds the shared cache may take to answer a command (default 100).")
    var sharedCacheCommandTimeout: Int?

    @Option(help: "Prefix of every key the shared cache writes, so several caches share one Redis.")
    var sharedCacheNamespace: String = RedisDataTier.Configuration().namespace

    @Option(help: "Write the pipeline's and the downloader's log records at this level and above to standard error (trace, debug, info).")
    var logLevel: LogLevelArgument?

    @Flag(help: "After each loaded URL, print where its load spent its time: 'URL: timings tier=T queue=MS disk=MS download=MS decode=MS process=MS encode=MS store=MS bytes=N'.")
    var timings = false

    @Option(help: "Which loader downloads: urlsession (ImageDownloader, the default) or async-http-client (AsyncHTTPClientImageLoader).")
    var loader: LoaderArgument = .urlsession

    @Flag(help: "At exit, print every metric as 'metric,NAME,DIMENSIONS,VALUE' (dimensions as k=v;k=v; timers as NAME_count and NAME_sum_ms).")
    var metrics = false

    func validate() throws {
        for rule in allowHost + denyHost where AddressPolicy.Rule(parsing: rule) == nil {
            throw ValidationError("'\(rule)' is no HOST[:PORT] or ADDRESS/LENGTH")
        }
        if let maxRedirects, maxRedirects < 0 { throw ValidationError("--max-redirects must not be negative") }
        if let transferTimeout, !(transferTimeout > 0) { throw ValidationError("--transfer-timeout must be positive") }
        guard concurrency >= 1 else { throw ValidationError("--concurrency must be at least 1") }
        guard retries >= 0 else { throw ValidationError("--retries must not be negative") }
        if let thumbnail { _ = try PipelineSupport.thumbnail(thumbnail) }
        if cacheOnly, noCache { throw ValidationError("--cache-only and --no-cache exclude each other") }
        for timeout in [sharedCacheConnectTimeout, sharedCacheCommandTimeout].compactMap({ $0 })
        where !(1...60_000).contains(timeout) {
            throw ValidationError("--shared-cache-connect-timeout and --shared-cache-command-timeout must be 1 to 60000 ms")
        }
        guard sharedCacheLockWait >= 0, sharedCacheLockWait <= 3600 else {
            throw ValidationError("--shared-cache-lock-wait must be between 0 and 3600 seconds")
        }
        if let sharedCache, RedisClient.Configuration(url: sharedCache) == nil {
            throw ValidationError("--shared-cache must be redis://[user:password@]HOST:PORT[/DB]")
        }
    }

    func run() async throws {
        let disk: DiskCache? = noCache ? nil : PipelineSupport.openDiskIfWritable(cacheDir)
        var downloaderConfiguration = serverDefaults ? ImageDownloader.Configuration.server : ImageDownloader.Configuration()
        if let addressPolicy { downloaderConfiguration.addressPolicy.base = addressPolicy.base }
        downloaderConfiguration.addressPolicy.allowed += allowHost.compactMap(AddressPolicy.Rule.init(parsing:))
        downloaderConfiguration.addressPolicy.denied += denyHost.compactMap(AddressPolicy.Rule.init(parsing:))
        if let maxRedirects { downloaderConfiguration.maximumRedirects = maxRedirects }
        if let transferTimeout { downloaderConfiguration.transferDeadline = .milliseconds(Int(transferTimeout * 1000)) }
        downloaderConfiguration.retryPolicy.maximumRetries = retries
        downloaderConfiguration.maximumConcurrentDownloads = concurrency
        let logger = logLevel?.logger
        let metricsBackEnd = metrics ? PrintingMetrics() : nil
        if let logger { downloaderConfiguration.logger = logger }
        if let metricsBackEnd { downloaderConfiguration.metricsFactory = metricsBackEnd }
        let downloader = ImageDownloader(configuration: downloaderConfiguration)
        defer { downloader.invalidate() }
        let tierConfiguration = RedisDataTier.Configuration(namespace: sharedCacheNamespace,
                                                            lockWait: .milliseconds(Int(sharedCacheLockWait * 1000)))
        let connectTimeout = sharedCacheConnectTimeout, commandTimeout = sharedCacheCommandTimeout
        let shared = sharedCache.flatMap(RedisClient.Configuration.init(url:)).map { parsed in
            var clientConfiguration = parsed
            if let connectTimeout { clientConfiguration.connectTimeout = .milliseconds(connectTimeout) }
            if let commandTimeout { clientConfiguration.commandTimeout = .milliseconds(commandTimeout) }
            return RedisDataTier(client: RedisClient(configuration: clientConfiguration), configuration: tierConfiguration)
        }
        var cache = ImageCache(disk: disk)
        if let shared {
            let data: any ImageDataCaching = disk.map {
                LayeredDataTier(local: DiskDataTier($0), shared: shared, logger: logger ?? GlimpseObservability.noOpLogger)
            } ?? shared
            cache = ImageCache(memory: MemoryCache(configuration: .images()), data: data)
        }
        var configuration = ImagePipeline.Configuration(downloader: downloader, cache: cache)
        // The client is this command's: shut down after the pipeline, at exit.
        var client: HTTPClient?
        if loader == .asyncHTTPClient {
            let made = HTTPClient(eventLoopGroupProvider: .singleton,
                                  configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))
            client = made
            configuration.dataLoader = AsyncHTTPClientImageLoader(client: made, configuration: downloaderConfiguration)
        }
        if let logger { configuration.logger = logger }
        if let metricsBackEnd { configuration.metricsFactory = metricsBackEnd }
        configuration.httpCachePolicy = httpCache.policy
        if serverDefaults { configuration.decodingLimits = .server }
        configuration.colorPolicy = try color.policy()
        let pipeline = ImagePipeline(configuration: configuration)
        var options: ImageRequest.Options = [.waitForDiskStore]
        if retryFailed { options.insert(.retryFailed) }
        if refresh { options.insert(.refreshCached) }
        if cacheOnly { options.insert(.fromCacheOnly) }
        if noCache { options.insert(.memoryCacheOnly) }
        let processors: [any ImageTransformer] = try thumbnail.map { [try PipelineSupport.thumbnail($0)] } ?? []
        if let output {
            do {
                try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
            } catch {
                // A client must be shut down before it is released.
                try? await client?.shutdown()
                throw CommandFailure("\(output): cannot create the directory")
            }
        }

        let progress = ProgressBar(total: urls.count)
        progress.draw(0)
        var failures = 0
        var done = 0
        let loadOptions = options
        let loadProcessors = processors
        let texts = urls
        let load: @Sendable (Int) async -> (Int, Result<ImageResult, ImageLoadError>, Double) = { index in
            let start = ContinuousClock.now
            guard let url = URL(string: texts[index]) else { return (index, .failure(.download(.invalidURL)), 0) }
            let result: Result<ImageResult, ImageLoadError>
            do throws(ImageLoadError) {
                result = .success(try await pipeline.load(ImageRequest(url: url, processors: loadProcessors,
                                                                       options: loadOptions)))
            } catch {
                result = .failure(error)
            }
            return (index, result, Measurements.milliseconds(since: start))
        }
        await withTaskGroup(of: (Int, Result<ImageResult, ImageLoadError>, Double).self) { group in
            var next = 0
            while next < min(concurrency, texts.count) {
                let index = next
                group.addTask { await load(index) }
                next += 1
            }
            while let (index, result, milliseconds) = await group.next() {
                progress.clear()
                var line = PipelineSupport.line(texts[index], result, milliseconds: milliseconds)
                var failed = false
                switch result {
                case .success(let loaded):
                    if let output {
                        do throws(CommandFailure) {
                            try write(loaded.image, index: index, into: output)
                        } catch {
                            line = "\(PipelineSupport.shown(texts[index])): error \(error.message)"
                            failed = true
                        }
                    }
                case .failure:
                    failed = true
                }
                if failed { failures += 1 }
                print(line)
                if timings, !failed, case .success(let loaded) = result {
                    print(PipelineSupport.timingsLine(texts[index], loaded.metrics))
                }
                done += 1
                progress.draw(done)
                if next < texts.count {
                    let index = next
                    group.addTask { await load(index) }
                    next += 1
                }
            }
        }
        progress.clear()
        if let shared {
            // The loads waited for their data tier writes; Redis takes its own in the background,
            // and the fetch claims' releases after them.
            await pipeline.configuration.cache.fetchClaimsReleased()
            await shared.waitForBackgroundWrites()
            await shared.client.shutdown()
        }
        if let client {
            await pipeline.shutdown()
            try? await client.shutdown()
        }
        if let metricsBackEnd {
            for line in metricsBackEnd.lines { print(line) }
        }
        if failures > 0 { throw ExitCode(1) }
    }

    /// `<index>-<last path component>.png`, so equal names from different URLs never collide.
    private func write(_ image: Image, index: Int, into directory: String) throws(CommandFailure) {
        let last = URL(string: urls[index])?.deletingPathExtension().lastPathComponent ?? "image"
        let safe = String(last.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" }.prefix(80))
        let path = (directory as NSString).appendingPathComponent("\(index)-\(safe.isEmpty ? "image" : safe).png")
        try ImageFiles.write(try PipelineSupport.png(image), to: path)
    }
}

/// `--address-policy any|public`.
enum AddressPolicyArgument: String, ExpressibleByArgument, CaseIterable {
    case any
    case `public`

    var base: AddressPolicy.Base {
        switch self {
        case .any: .any
        case .public: .public
        }
    }
}

/// `--loader urlsession|async-http-client`.
enum LoaderArgument: String, ExpressibleByArgument, CaseIterable {
    case urlsession
    case asyncHTTPClient = "async-http-client"
}

/// `--http-cache ignore|respect`.
enum HTTPCacheArgument: String, ExpressibleByArgument, CaseIterable {
    case ignore
    case respect

    var policy: HTTPCachePolicy {
        switch self {
        case .ignore: .ignore
        case .respect: .respect
        }
    }
}
