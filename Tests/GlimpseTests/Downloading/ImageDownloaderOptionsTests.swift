import Foundation
import Glimpse
import LoopbackHTTPServer
import Testing

/// Per-request options and scheme configuration.
@Suite("ImageDownloader options")
struct ImageDownloaderOptionsTests {
    typealias Response = LoopbackHTTPServer.Response

    @Test func cookiesAreSentOnlyWhenHandled() async throws {
        let harness = try DownloaderHarness.make()
        harness.server.setRoute("/login", .fixed(Response(headers: [("Set-Cookie", "session=abc; Path=/")], body: .bytes([1]))))
        harness.server.setRoute("/img", .fixed(.ok([2])))
        _ = try await harness.downloader.download(ImageDownloadRequest(url: harness.url("/login"), options: .handleCookies))
        _ = try await harness.downloader.download(ImageDownloadRequest(url: harness.url("/img"), options: .handleCookies))
        _ = try await harness.downloader.download(ImageDownloadRequest(url: harness.url("/img"), headers: ["X-Plain": "1"]))
        let requests = harness.server.requests
        #expect(requests.count == 3)
        #expect(requests[1].header("Cookie") == "session=abc")
        #expect(requests[2].header("Cookie") == nil)
        await harness.finish()
    }

    @Test func fileURLsOnlyWhenOptedIn() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-downloader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("image.bin")
        let bytes = RowsTestDecoder.encode(width: 2, height: 2)
        try Data(bytes).write(to: file)

        let closed = try DownloaderHarness.make()
        await #expect(throws: ImageDownloadError.invalidURL) { try await closed.downloader.download(file) }
        await closed.finish()

        let open = try DownloaderHarness.make {
            $0.allowedSchemes = [.http, .file]
        }
        let result = try await open.downloader.download(ImageDownloadRequest(url: file))
        #expect(result.bytes == bytes)
        await #expect(throws: (any Error).self) {
            try await open.downloader.download(directory.appendingPathComponent("missing.bin"))
        }
        await open.finish()
    }

    @Test func concurrencyLimitCanBeRaisedWhileQueued() async throws {
        let harness = try DownloaderHarness.make { $0.maximumConcurrentDownloads = 1 }
        harness.server.setFallback(.fixed(Response(body: .drip(Array(repeating: 7, count: 3000), chunkSize: 1000,
                                                               interval: .milliseconds(30)))))
        let recorder = DownloadRecorder()
        for index in 0..<4 {
            recorder.start(harness.downloader, ImageDownloadRequest(url: harness.url("/\(index)")), as: index)
        }
        #expect(harness.downloader.currentDownloadCount == 1 && harness.downloader.queuedDownloadCount == 3)
        harness.downloader.setMaximumConcurrentDownloads(4)
        #expect(harness.downloader.currentDownloadCount == 4)
        #expect(await recorder.waitForCompletions())
        #expect(harness.server.statistics.maxActiveRequests > 1)
        recorder.expectEachCompletedOnce()
        await harness.finish()
    }
}
