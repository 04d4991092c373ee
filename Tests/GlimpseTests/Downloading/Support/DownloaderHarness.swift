import Foundation
import Glimpse
import LoopbackHTTPServer
import Testing
import TestSupport

/// A loopback server and a downloader for one test, torn down with checks
/// that nothing is left running.
struct DownloaderHarness: Sendable {
    let server: LoopbackHTTPServer
    let downloader: ImageDownloader

    static func make(_ configure: (inout ImageDownloader.Configuration) -> Void = { _ in }) throws -> DownloaderHarness {
        let server = try LoopbackHTTPServer()
        var configuration = ImageDownloader.Configuration()
        // Long: tests that exercise the timeout set their own, and a busy test
        // process must not turn a slow step into a timeout.
        configuration.timeout = .seconds(60)
        // One attempt per download unless a test asks for retries (RetryTests).
        configuration.retryPolicy = .never
        configure(&configuration)
        return DownloaderHarness(server: server, downloader: ImageDownloader(configuration: configuration))
    }

    func url(_ path: String) -> URL { server.url(path) }

    /// Asserts the downloader is idle (no caller waiting, no slot held) and the
    /// server has no request in flight, then shuts both down.
    func finish(sourceLocation: SourceLocation = #_sourceLocation) async {
        let idle = await eventually {
            downloader.waitingCallerCount == 0 && downloader.currentDownloadCount == 0
                && downloader.queuedDownloadCount == 0
        }
        #expect(idle, "downloader still busy: callers=\(downloader.waitingCallerCount) running=\(downloader.currentDownloadCount) queued=\(downloader.queuedDownloadCount)", sourceLocation: sourceLocation)
        let quiet = await server.waitUntil { $0.activeRequests == 0 }
        #expect(quiet, "server still answering a request", sourceLocation: sourceLocation)
        downloader.invalidate()
        server.shutdown()
    }
}
