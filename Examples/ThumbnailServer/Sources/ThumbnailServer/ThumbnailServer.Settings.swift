import AsyncHTTPClient
import Foundation
import Glimpse
import GlimpseAsyncHTTPClient
import Logging

extension ThumbnailServer {
    /// The command line: `ThumbnailServer [--host H] [--port P] [--allow-host HOST[:PORT]]...
    /// [--width N] [--processing-width N] [--processing-niceness N] [--processing-mb N] [--downloads N] [--memory-cache-mb N]
    /// [--cache-dir DIR | --no-disk-cache] [--loader async-http-client|urlsession]
    /// [--log-level L]`.
    struct Settings {
        var host = "127.0.0.1"
        var port = 8080
        /// Origins of one's own that the server profile's public-only policy lets through.
        var allowedHosts: [AddressPolicy.Rule] = []
        var defaultWidth = 256
        /// Decode threads; `nil`: the pipeline's default (every core).
        var processingWidth: Int?
        /// How far below the request handlers the decode threads run (nice, 0…19);
        /// `nil`: the pipeline's default (5).
        var processingNiceness: Int?
        var cacheDirectory: String?
        /// The memory tier's bound on decoded thumbnails, in MiB. A server sets it: the
        /// default (a quarter of the memory the process may use) lets a long run of
        /// distinct URLs grow the process to it.
        var memoryCacheMegabytes = 64
        /// ``ImagePipeline/Configuration/maximumProcessingBytes`` in MiB; `nil`: the default (64).
        var processingMegabytes: Int?
        /// Downloads at once; `nil`: the downloader's default (6).
        var downloads: Int?
        var diskCache = true
        /// Downloads through AsyncHTTPClient on the server's own event loops (the default),
        /// or through the URLSession downloader (`--loader urlsession`).
        var usesAsyncHTTPClient = true
        var logLevel = Logger.Level.notice

        static let usage = """
            usage: ThumbnailServer [--host H] [--port P] [--allow-host HOST[:PORT]]... [--width N]
                                   [--processing-width N] [--processing-niceness N] [--processing-mb N]
                                   [--downloads N] [--memory-cache-mb N]
                                   [--cache-dir DIR | --no-disk-cache] [--loader async-http-client|urlsession]
                                   [--log-level trace|debug|info|notice|warning]
            """

        struct Invalid: Error, CustomStringConvertible {
            var description: String
        }

        init(arguments: [String]) throws(Invalid) {
            var remaining = arguments[...]
            func value(_ name: String) throws(Invalid) -> String {
                guard let next = remaining.popFirst() else { throw Invalid(description: "\(name) needs a value") }
                return next
            }
            func number(_ name: String, in range: ClosedRange<Int>) throws(Invalid) -> Int {
                let text = try value(name)
                guard let number = Int(text), range.contains(number) else {
                    throw Invalid(description: "\(name) \(text): expected \(range.lowerBound)…\(range.upperBound)")
                }
                return number
            }
            while let argument = remaining.popFirst() {
                switch argument {
                case "--host": host = try value(argument)
                case "--port": port = try number(argument, in: 0...65535)
                case "--allow-host":
                    let text = try value(argument)
                    guard let rule = AddressPolicy.Rule(parsing: text) else {
                        throw Invalid(description: "--allow-host \(text): expected HOST[:PORT] or a CIDR range")
                    }
                    allowedHosts.append(rule)
                case "--width": defaultWidth = try number(argument, in: 1...4096)
                case "--processing-width": processingWidth = try number(argument, in: 1...256)
                case "--processing-niceness": processingNiceness = try number(argument, in: 0...19)
                case "--memory-cache-mb": memoryCacheMegabytes = try number(argument, in: 0...65536)
                case "--processing-mb": processingMegabytes = try number(argument, in: 1...65536)
                case "--downloads": downloads = try number(argument, in: 1...1024)
                case "--cache-dir": cacheDirectory = try value(argument)
                case "--no-disk-cache": diskCache = false
                case "--loader":
                    switch try value(argument) {
                    case "async-http-client": usesAsyncHTTPClient = true
                    case "urlsession": usesAsyncHTTPClient = false
                    case let other: throw Invalid(description: "--loader \(other): expected async-http-client or urlsession")
                    }
                case "--log-level":
                    let text = try value(argument)
                    guard let level = Logger.Level(rawValue: text) else { throw Invalid(description: "--log-level \(text)") }
                    logLevel = level
                default: throw Invalid(description: "unknown argument \(argument)")
                }
            }
        }

        /// The server profile (``ImagePipeline/Configuration/server(environment:)``) with the
        /// allowed hosts, the cache folder and the logger of these settings.
        func pipelineConfiguration(logger: Logger, client: HTTPClient?) -> ImagePipeline.Configuration {
            var environment = ProcessInfo.processInfo.environment
            if let cacheDirectory { environment["XDG_CACHE_HOME"] = cacheDirectory }
            var downloader = ImageDownloader.Configuration.server
            downloader.addressPolicy.allowed = allowedHosts
            downloader.logger = logger
            if let downloads { downloader.maximumConcurrentDownloads = downloads }
            var configuration = ImagePipeline.Configuration.server(environment: environment, downloader: downloader)
            let memory = MemoryCache<String, Image>(configuration: .images(costLimit: memoryCacheMegabytes << 20))
            configuration.cache = ImageCache(memory: memory, disk: diskCache ? configuration.cache.disk : nil)
            if let client { configuration.dataLoader = AsyncHTTPClientImageLoader(client: client, configuration: downloader) }
            if let processingWidth { configuration.processingWidth = processingWidth }
            if let processingNiceness { configuration.processingNiceness = Int32(processingNiceness) }
            if let processingMegabytes { configuration.maximumProcessingBytes = processingMegabytes << 20 }
            configuration.logger = logger
            return configuration
        }
    }
}
