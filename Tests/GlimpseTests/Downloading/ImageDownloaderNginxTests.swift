import Foundation
@testable import Glimpse
import Synchronization
import Testing
import GlimpseCache
import TestSupport

/// Resumption against nginx's own validators and range handling.
@Suite("ImageDownloader resumption against nginx", .serialized, .enabled(if: NginxOrigin.binary != nil))
struct ImageDownloaderNginxTests {
    let body: [UInt8] = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 10) }

    /// Starts a download, cancels it once part of the body has arrived, and
    /// returns how many bytes had arrived.
    private func cutDownload(_ downloader: ImageDownloader, _ url: URL) async -> Int64 {
        let received = Lock<Int64>(0)
        let done = Lock(false)
        let token = Lock<ImageDownloadToken?>(nil)
        let handle = downloader.download(ImageDownloadRequest(url: url), progress: { count, _ in
            received.withLock { $0 = count }
            if count > 200_000 { _ = token.withLock { $0 }?.cancel() }
        }, completion: { _ in done.withLock { $0 = true } })
        token.withLock { $0 = handle }
        _ = await eventually { done.withLock { $0 } }
        return received.withLock { $0 }
    }

    private func downloader() -> ImageDownloader {
        var configuration = ImageDownloader.Configuration()
        configuration.retryPolicy = .never
        return ImageDownloader(configuration: configuration)
    }

    @Test func aCutTransferIsResumedWithNginxsRangeAnswer() async throws {
        let nginx = try #require(try NginxOrigin(rate: "2m"), "nginx did not start")
        defer { nginx.stop() }
        try Data(body).write(to: nginx.root.appendingPathComponent("big.png"))
        let downloader = downloader()
        defer { downloader.invalidate() }
        let cut = await cutDownload(downloader, nginx.url("big.png"))
        try #require(cut > 0 && cut < Int64(body.count), "the first transfer was cut part-way (\(cut) bytes)")
        let events = downloader.events()
        let result = try await downloader.download(nginx.url("big.png"))
        #expect(result.bytes == body)
        var statuses: [Int] = []
        for await event in events {
            if case .receivedResponse(_, let status) = event { statuses.append(status) }
            if case .finished = event { break }
        }
        #expect(statuses == [206], "nginx answered the range, so only the rest was sent")
    }

    @Test func aFileChangedBetweenAttemptsIsSentWholeAndNeverSpliced() async throws {
        let nginx = try #require(try NginxOrigin(rate: "2m"), "nginx did not start")
        defer { nginx.stop() }
        let file = nginx.root.appendingPathComponent("big.png")
        try Data(body).write(to: file)
        let downloader = downloader()
        defer { downloader.invalidate() }
        let cut = await cutDownload(downloader, nginx.url("big.png"))
        try #require(cut > 0 && cut < Int64(body.count))
        // Another version: nginx's ETag (mtime and length) changes, so If-Range fails.
        let newer = Array(body.reversed().prefix(2_500_000))
        try Data(newer).write(to: file)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: file.path)
        let events = downloader.events()
        let result = try await downloader.download(nginx.url("big.png"))
        #expect(result.bytes == newer)
        var statuses: [Int] = []
        for await event in events {
            if case .receivedResponse(_, let status) = event { statuses.append(status) }
            if case .finished = event { break }
        }
        #expect(statuses == [200])
    }
}
