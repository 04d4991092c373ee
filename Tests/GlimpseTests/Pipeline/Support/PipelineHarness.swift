import Dispatch
import Foundation
import Glimpse
import GlimpseCache
import LoopbackHTTPServer
import Synchronization
import Testing

/// A clock the test moves by hand (for the failed-URL time-to-live).
final class ManualClock: Sendable {
    private let time = Lock<Duration>(.seconds(1_000))

    var cacheClock: CacheClock { CacheClock { [self] in time.withLock { $0 } } }

    func advance(_ duration: Duration) { time.withLock { $0 += duration } }
}

/// A loopback server, a downloader, a two-tier cache in a temporary
/// directory and a manager, for one test.
struct PipelineHarness: Sendable {
    let server: LoopbackHTTPServer
    let downloader: ImageDownloader
    let cache: ImageCache
    let pipeline: ImagePipeline
    let clock: ManualClock
    let directory: URL

    static func make(_ configure: (inout ImagePipeline.Configuration) -> Void = { _ in }) throws -> PipelineHarness {
        try make(downloader: { _ in }, pipeline: configure)
    }

    /// A harness whose downloader is configured too (after the harness's own settings).
    static func make(downloader configureDownloader: (inout ImageDownloader.Configuration) -> Void,
                     pipeline configure: (inout ImagePipeline.Configuration) -> Void) throws -> PipelineHarness {
        let server = try LoopbackHTTPServer()
        var downloaderConfiguration = ImageDownloader.Configuration()
        downloaderConfiguration.timeout = .seconds(5)
        // One attempt per load, so that request counts mean loads; retries have tests of their own.
        downloaderConfiguration.retryPolicy = .never
        configureDownloader(&downloaderConfiguration)
        let downloader = ImageDownloader(configuration: downloaderConfiguration)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("glimpse-pipeline-\(UUID().uuidString)", isDirectory: true)
        let disk = try DiskCache(configuration: DiskCache.Configuration(directory: directory))
        let cache = ImageCache(memory: MemoryCache(costLimit: 64 << 20), disk: disk)
        let clock = ManualClock()
        var configuration = ImagePipeline.Configuration(downloader: downloader, cache: cache)
        configuration.clock = clock.cacheClock
        configure(&configuration)
        return PipelineHarness(server: server, downloader: downloader, cache: cache,
                               pipeline: ImagePipeline(configuration: configuration), clock: clock, directory: directory)
    }

    func url(_ path: String) -> URL { server.url(path) }

    /// Requests the server received for `path`.
    func requests(_ path: String) -> [LoopbackHTTPServer.RecordedRequest] {
        server.requests.filter { $0.path == path }
    }

    /// Tears down on a GCD thread: `shutdown()` may block for up to two
    /// seconds, which on the cooperative pool (two threads on a two-core
    /// machine) starves timing-sensitive tests running beside this one.
    func finish() {
        let (server, downloader, directory) = (self.server, self.downloader, self.directory)
        DispatchQueue.global().async {
            downloader.invalidate()
            server.shutdown()
            try? FileManager.default.removeItem(at: directory)
        }
    }
}

/// Collects callback results for assertions.
final class Collected<Value: Sendable>: Sendable {
    private let storage: Lock<[Value]> = Lock([])
    func append(_ value: Value) { storage.withLock { $0.append(value) } }
    var values: [Value] { storage.withLock { $0 } }
}
