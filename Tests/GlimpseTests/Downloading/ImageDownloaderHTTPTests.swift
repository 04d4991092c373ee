import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Glimpse
import LoopbackHTTPServer
import Testing

/// Status codes, framings and misbehaving servers, over real sockets.
@Suite("ImageDownloader over HTTP")
struct ImageDownloaderHTTPTests {
    typealias Response = LoopbackHTTPServer.Response
    private let body = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7) }

    @Test func fixedBodyWithDefaultHeaders() async throws {
        let harness = try DownloaderHarness.make()
        harness.server.setRoute("/a.png", .fixed(.ok(body)))
        let result = try await harness.downloader.download(harness.url("/a.png"))
        #expect(result.bytes == body)
        #expect(result.response.statusCode == 200 && result.response.mimeType == "image/png")
        #expect(result.response.expectedContentLength == Int64(body.count))
        let request = try #require(harness.server.requests.first)
        #expect(request.header("Accept") == "image/webp,image/*,*/*;q=0.8")
        #expect(request.header("User-Agent") == "Glimpse/\(GlimpseLibrary.version)")
        await harness.finish()
    }

    @Test func chunkedBody() async throws {
        let harness = try DownloaderHarness.make()
        let chunks = stride(from: 0, to: body.count, by: 700).map { Array(body[$0..<min(body.count, $0 + 700)]) }
        harness.server.setRoute("/c", .fixed(Response(headers: [("Content-Type", "image/png")],
                                                      body: .chunked(chunks, delay: .milliseconds(2)))))
        let result = try await harness.downloader.download(harness.url("/c"))
        #expect(result.bytes == body)
        #expect(result.response.expectedContentLength == nil)
        await harness.finish()
    }

    @Test func slowDripReportsProgressToTheEnd() async throws {
        let harness = try DownloaderHarness.make()
        harness.server.setRoute("/drip", .fixed(Response(body: .drip(body, chunkSize: 1000, interval: .milliseconds(15)))))
        let recorder = DownloadRecorder()
        recorder.start(harness.downloader, ImageDownloadRequest(url: harness.url("/drip")), as: 0)
        #expect(await recorder.waitForCompletions())
        let log = recorder.log(0)
        #expect(log.result?.bytes == body)
        #expect(log.progress.count >= 2)
        #expect(log.progress.map(\.received) == log.progress.map(\.received).sorted())
        #expect(log.progress.last?.received == Int64(body.count))
        #expect(log.progress.allSatisfy { $0.expected == Int64(body.count) })
        recorder.expectEachCompletedOnce()
        await harness.finish()
    }

    @Test func stallTimesOutAndClosesTheConnection() async throws {
        // Below a second: the downloader's own idle timeout, not URLSession's.
        let harness = try DownloaderHarness.make { $0.timeout = .milliseconds(300) }
        harness.server.setRoute("/stall", .fixed(Response(body: .stall(declaredLength: 1000, limit: .seconds(60)))))
        let recorder = DownloadRecorder()
        let started = ContinuousClock.now
        recorder.start(harness.downloader, ImageDownloadRequest(url: harness.url("/stall")), as: 0)
        #expect(await recorder.waitForCompletions())
        #expect(recorder.log(0).error == .timedOut)
        // Timed where the completion ran, not where this task resumed.
        let elapsed = try #require(recorder.log(0).completedAt) - started
        #expect(elapsed >= .milliseconds(300) && elapsed < .seconds(5), "timed out after \(elapsed)")
        let connection = try #require(harness.server.requests.first?.connection)
        #expect(await harness.server.waitUntil { $0.closedConnections.contains(connection) })
        await harness.finish()
    }

    @Test func resetMidBodyIsATransportError() async throws {
        let harness = try DownloaderHarness.make()
        harness.server.setRoute("/reset", .fixed(Response(body: .reset(prefix: Array(body[..<1000]), declaredLength: body.count))))
        do {
            _ = try await harness.downloader.download(harness.url("/reset"))
            Issue.record("a reset transfer succeeded")
        } catch {
            guard case .transport = error else { Issue.record("expected a transport error, got \(error)"); return }
        }
        await harness.finish()
    }

    @Test func contentLengthLargerThanBodyFails() async throws {
        let harness = try DownloaderHarness.make()
        harness.server.setRoute("/short", .fixed(Response(body: .lying(declaredLength: 2000, bytes: Array(body[..<1500])))))
        do {
            let result = try await harness.downloader.download(harness.url("/short"))
            Issue.record("a short body succeeded with \(result.bytes.count) bytes")
        } catch {
            guard case .transport = error else { Issue.record("expected a transport error, got \(error)"); return }
        }
        await harness.finish()
    }

    @Test func contentLengthSmallerThanBodyStopsAtTheDeclaredLength() async throws {
        let harness = try DownloaderHarness.make()
        harness.server.setRoute("/long", .fixed(Response(body: .lying(declaredLength: 1000, bytes: body))))
        let result = try await harness.downloader.download(harness.url("/long"))
        #expect(result.bytes == Array(body[..<1000]))
        await harness.finish()
    }

    @Test func partialContent206() async throws {
        let harness = try DownloaderHarness.make()
        harness.server.setRoute("/range", .ranges(body))
        let request = ImageDownloadRequest(url: harness.url("/range"), headers: ["Range": "bytes=100-199"])
        let result = try await harness.downloader.download(request)
        #expect(result.response.statusCode == 206)
        #expect(result.bytes == Array(body[100...199]))
        #expect(result.response.header("content-range") == "bytes 100-199/\(body.count)")
        await harness.finish()
    }

    @Test(arguments: [301, 302])
    func redirectsAreFollowed(_ status: Int) async throws {
        let harness = try DownloaderHarness.make()
        harness.server.setRoute("/old", .fixed(.redirect(status, to: "/new")))
        harness.server.setRoute("/new", .fixed(.ok(body)))
        let result = try await harness.downloader.download(harness.url("/old"))
        #expect(result.bytes == body)
        #expect(result.response.url?.path == "/new")
        #expect(harness.server.requests.map(\.path) == ["/old", "/new"])
        await harness.finish()
    }

    @Test func redirectLoopFails() async throws {
        let harness = try DownloaderHarness.make()
        harness.server.setRoute("/ping", .fixed(.redirect(302, to: "/pong")))
        harness.server.setRoute("/pong", .fixed(.redirect(302, to: "/ping")))
        // Stopped by the redirect cap (5) before URLSession's own loop detection.
        await #expect(throws: ImageDownloadError.tooManyRedirects(5)) {
            try await harness.downloader.download(harness.url("/ping"))
        }
        #expect(harness.server.requests.count == 6)
        await harness.finish()
    }

    @Test func notModifiedWithETag() async throws {
        let harness = try DownloaderHarness.make()
        harness.server.setRoute("/etag", .etag("\"v1\"", body: body))
        let first = try await harness.downloader.download(harness.url("/etag"))
        let tag = try #require(first.response.entityTag)
        #expect(tag == "\"v1\"")
        let revalidation = ImageDownloadRequest(url: harness.url("/etag"))
            .revalidating(entityTag: first.response.entityTag, lastModified: first.response.lastModified)
        let error = await #expect(throws: ImageDownloadError.self) { try await harness.downloader.download(revalidation) }
        guard case .notModified(let response)? = error else {
            Issue.record("expected notModified, got \(String(describing: error))")
            return
        }
        #expect(response.statusCode == 304)
        let stale = ImageDownloadRequest(url: harness.url("/etag"), headers: ["If-None-Match": "\"v0\""])
        #expect(try await harness.downloader.download(stale).bytes == body)
        #expect(harness.server.requests.map { $0.header("If-None-Match") } == [nil, "\"v1\"", "\"v0\""])
        await harness.finish()
    }

    @Test func basicAuthentication() async throws {
        let route = LoopbackHTTPServer.Route.basicAuth(user: "ann", password: "s3cret", body: [1, 2, 3])
        let anonymous = try DownloaderHarness.make()
        anonymous.server.setRoute("/private", route)
        await #expect(throws: ImageDownloadError.badStatus(401)) { try await anonymous.downloader.download(anonymous.url("/private")) }
        await anonymous.finish()

        let basic = try DownloaderHarness.make { $0.credentials = .basic(user: "ann", password: "s3cret") }
        basic.server.setRoute("/private", route)
        #expect(try await basic.downloader.download(basic.url("/private")).bytes == [1, 2, 3])
        await basic.finish()

        let credential = try DownloaderHarness.make {
            $0.credentials = .credential(URLCredential(user: "ann", password: "s3cret", persistence: .none))
        }
        credential.server.setRoute("/private", route)
        #expect(try await credential.downloader.download(credential.url("/private")).bytes == [1, 2, 3])
        await credential.finish()

        let wrong = try DownloaderHarness.make { $0.credentials = .basic(user: "ann", password: "guess") }
        wrong.server.setRoute("/private", route)
        await #expect(throws: ImageDownloadError.badStatus(401)) { try await wrong.downloader.download(wrong.url("/private")) }
        await wrong.finish()
    }

    @Test(arguments: [404, 500])
    func errorStatuses(_ status: Int) async throws {
        let harness = try DownloaderHarness.make()
        harness.server.setRoute("/e", .fixed(.status(status, body: Array("nope".utf8))))
        await #expect(throws: ImageDownloadError.badStatus(status)) { try await harness.downloader.download(harness.url("/e")) }
        await harness.finish()
    }

    @Test(arguments: [false, true])
    func hugeBodyIsCancelledEarly(chunked: Bool) async throws {
        let harness = try DownloaderHarness.make { $0.maximumResponseSize = 256 << 10 }
        harness.server.setRoute("/huge", .fixed(Response(body: .generated(count: 512 << 20, chunked: chunked,
                                                                        pause: .milliseconds(2)))))
        await #expect(throws: ImageDownloadError.tooLarge) { try await harness.downloader.download(harness.url("/huge")) }
        let connection = try #require(harness.server.requests.first?.connection)
        // The server (which would take 16 s to write it all) saw the client go away.
        #expect(await harness.server.waitUntil { $0.abortedByClient.contains(connection) })
        await harness.finish()
    }

    @Test func wrongContentTypeIsRejected() async throws {
        let harness = try DownloaderHarness.make { $0.acceptableContentTypes = ["image/*"] }
        harness.server.setRoute("/page", .fixed(.ok(Array("<html/>".utf8), contentType: "text/html; charset=utf-8")))
        harness.server.setRoute("/img", .fixed(.ok(body, contentType: "image/gif")))
        await #expect(throws: ImageDownloadError.invalidContentType("text/html")) {
            try await harness.downloader.download(harness.url("/page"))
        }
        #expect(try await harness.downloader.download(harness.url("/img")).bytes == body)
        await harness.finish()
    }

    @Test func emptyBodyFails() async throws {
        let harness = try DownloaderHarness.make()
        harness.server.setRoute("/empty", .fixed(.ok([])))
        await #expect(throws: ImageDownloadError.emptyBody) { try await harness.downloader.download(harness.url("/empty")) }
        await harness.finish()
    }

    @Test func refusedRequestsNeverReachTheServer() async throws {
        let harness = try DownloaderHarness.make()
        let downloader = harness.downloader
        await #expect(throws: ImageDownloadError.invalidURL) { try await downloader.download(URL(string: "ftp://127.0.0.1/x")!) }
        await #expect(throws: ImageDownloadError.invalidURL) { try await downloader.download(URL(fileURLWithPath: "/etc/hostname")) }
        await #expect(throws: ImageDownloadError.invalidURL) { try await downloader.download(URL(string: "http:///nohost")!) }
        await #expect(throws: ImageDownloadError.invalidCertificatesNotSupported) {
            try await downloader.download(ImageDownloadRequest(url: harness.url("/a"), options: .allowInvalidCertificates))
        }
        #expect(harness.server.requests.isEmpty)
        await harness.finish()
    }
}
