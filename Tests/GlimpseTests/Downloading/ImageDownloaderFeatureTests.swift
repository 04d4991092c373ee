import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Glimpse
import LoopbackHTTPServer
import Synchronization
import Testing
import GlimpseCache

/// Hooks, decoding, progressive partial images and events.
@Suite("ImageDownloader features")
struct ImageDownloaderFeatureTests {
    typealias Response = LoopbackHTTPServer.Response

    @Test func requestModifierChangesOrDropsTheRequest() async throws {
        let harness = try DownloaderHarness.make {
            $0.hooks.modifyRequest = { request in
                guard request.url?.path != "/dropped" else { return nil }
                var request = request
                request.setValue("token-1", forHTTPHeaderField: "X-Auth")
                return request
            }
        }
        harness.server.setFallback(.fixed(.ok([9, 9])))
        #expect(try await harness.downloader.download(harness.url("/kept")).bytes == [9, 9])
        await #expect(throws: ImageDownloadError.cancelled) { try await harness.downloader.download(harness.url("/dropped")) }
        #expect(harness.server.requests.map(\.path) == ["/kept"])
        #expect(harness.server.requests.first?.header("X-Auth") == "token-1")
        await harness.finish()
    }

    @Test func responseValidatorAndDataTransform() async throws {
        let harness = try DownloaderHarness.make {
            $0.hooks.validateResponse = { response throws(ImageDownloadError) in
                if response.header("X-Reject") != nil { throw .badStatus(599) }
                return response
            }
            $0.hooks.transformData = { bytes, _ throws(ImageDownloadError) in
                guard bytes.first != 0 else { throw .transformFailed("zero") }
                return bytes.map { $0 ^ 0xFF }
            }
        }
        harness.server.setRoute("/ok", .fixed(.ok([1, 2, 3])))
        harness.server.setRoute("/zero", .fixed(.ok([0, 2, 3])))
        harness.server.setRoute("/reject", .fixed(Response(headers: [("X-Reject", "1")], body: .bytes([1]))))
        #expect(try await harness.downloader.download(harness.url("/ok")).bytes == [0xFE, 0xFD, 0xFC])
        await #expect(throws: ImageDownloadError.transformFailed("zero")) { try await harness.downloader.download(harness.url("/zero")) }
        await #expect(throws: ImageDownloadError.badStatus(599)) { try await harness.downloader.download(harness.url("/reject")) }
        await harness.finish()
    }

    @available(*, deprecated, message: "tests the deprecated decoding request")
    @Test func decodesWithTheInjectedRegistry() async throws {
        let harness = try DownloaderHarness.make { $0.decoderRegistry = RowsTestDecoder.registry }
        let file = RowsTestDecoder.encode(width: 3, height: 2)
        harness.server.setRoute("/rows", .fixed(.ok(file, contentType: "application/octet-stream")))
        harness.server.setRoute("/garbage", .fixed(.ok(Array(repeating: 0x20, count: 64))))
        let decoded = try await harness.downloader.download(ImageDownloadRequest(url: harness.url("/rows"), decoding: .init()))
        let image = try #require(decoded.image)
        #expect(image.width == 3 && image.height == 2 && image.pixels.bytes == Array(file[6...]))
        #expect(decoded.bytes == file)
        let garbage = ImageDownloadRequest(url: harness.url("/garbage"), decoding: .init())
        do {
            _ = try await harness.downloader.download(garbage)
            Issue.record("garbage decoded")
        } catch {
            guard case .decodingFailed = error else { Issue.record("expected decodingFailed, got \(error)"); return }
        }
        await harness.finish()
    }

    @available(*, deprecated, message: "tests the deprecated decoding request")
    @Test func coalescedCallersGetBytesOrImagesAsEachAsked() async throws {
        let harness = try DownloaderHarness.make { $0.decoderRegistry = RowsTestDecoder.registry }
        let file = RowsTestDecoder.encode(width: 2, height: 2)
        harness.server.setRoute("/rows", .fixed(Response(body: .drip(file, chunkSize: 8, interval: .milliseconds(5)))))
        let recorder = DownloadRecorder()
        recorder.start(harness.downloader, ImageDownloadRequest(url: harness.url("/rows")), as: 0)
        recorder.start(harness.downloader, ImageDownloadRequest(url: harness.url("/rows"), decoding: .init()), as: 1)
        #expect(await recorder.waitForCompletions())
        #expect(recorder.log(0).result?.image == nil && recorder.log(0).result?.bytes == file)
        #expect(recorder.log(1).result?.image?.width == 2)
        #expect(harness.server.requests.count == 1)
        await harness.finish()
    }

    @available(*, deprecated, message: "tests the deprecated decoding request")
    @Test func progressiveModeHandsOutGrowingPartialImages() async throws {
        let harness = try DownloaderHarness.make { $0.decoderRegistry = RowsTestDecoder.registry }
        let file = RowsTestDecoder.encode(width: 16, height: 8)
        // One row (64 bytes) every 30 ms.
        harness.server.setRoute("/progressive", .fixed(Response(body: .drip(file, chunkSize: 64, interval: .milliseconds(30)))))
        let recorder = DownloadRecorder()
        let decoding = ImageDownloadRequest.Decoding(progressive: .interval(.zero))
        recorder.start(harness.downloader, ImageDownloadRequest(url: harness.url("/progressive"), decoding: decoding), as: 0)
        recorder.start(harness.downloader, ImageDownloadRequest(url: harness.url("/progressive")), as: 1)
        #expect(await recorder.waitForCompletions())
        let log = recorder.log(0)
        // Usually one per row; a busy machine may merge a few drips into one read.
        #expect(log.partials.count >= 2)
        let rows = log.partials.map { image in image.pixels.bytes.chunks(64).filter { $0.contains { $0 != 0 } }.count }
        #expect(rows == rows.sorted() && (rows.last ?? 0) < 8)
        #expect(log.partials.allSatisfy { $0.frames.first?.isComplete == false })
        #expect(log.result?.image?.pixels.bytes == Array(file[6...]))
        #expect(recorder.log(1).partials.isEmpty, "only progressive callers get partials")
        recorder.expectEachCompletedOnce()
        await harness.finish()
    }

    @Test func eventsAndNotifications() async throws {
        let center = NotificationCenter()
        let harness = try DownloaderHarness.make { $0.notificationCenter = center }
        harness.server.setRoute("/a", .fixed(.ok([1])))
        harness.server.setRoute("/missing", .fixed(.status(404)))
        let posted = Lock<[Notification.Name]>([])
        let names: [Notification.Name] = [.glimpseDownloadStart, .glimpseDownloadReceiveResponse, .glimpseDownloadStop, .glimpseDownloadFinish]
        let observers = names.map { name in
            center.addObserver(forName: name, object: nil, queue: nil) { note in posted.withLock { $0.append(note.name) } }
        }
        defer { observers.forEach(center.removeObserver) }
        let events = harness.downloader.events()
        _ = try await harness.downloader.download(harness.url("/a"))
        _ = try? await harness.downloader.download(harness.url("/missing"))
        var seen: [ImageDownloadEvent] = []
        for await event in events {
            seen.append(event)
            if case .stopped(let url, _) = event, url.path == "/missing" { break }
        }
        let a = harness.url("/a"), missing = harness.url("/missing")
        #expect(seen == [
            .started(a), .receivedResponse(a, statusCode: 200), .stopped(a, error: nil), .finished(a),
            .started(missing), .receivedResponse(missing, statusCode: 404), .stopped(missing, error: .badStatus(404)),
        ])
        #expect(posted.withLock { $0 } == [.glimpseDownloadStart, .glimpseDownloadReceiveResponse, .glimpseDownloadStop,
                                           .glimpseDownloadFinish, .glimpseDownloadStart,
                                           .glimpseDownloadReceiveResponse, .glimpseDownloadStop])
        await harness.finish()
    }
}

extension Array {
    func chunks(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min(count, $0 + size)] }
    }
}
