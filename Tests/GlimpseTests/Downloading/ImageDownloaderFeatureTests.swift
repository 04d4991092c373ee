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
