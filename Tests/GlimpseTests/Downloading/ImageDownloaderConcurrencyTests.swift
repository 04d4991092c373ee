import Foundation
import Glimpse
import LoopbackHTTPServer
import Synchronization
import TestSupport
import Testing

/// Concurrency limit, ordering, coalescing and cancellation, asserted from
/// the server's side.
@Suite("ImageDownloader concurrency", .serialized)
struct ImageDownloaderConcurrencyTests {
    typealias Response = LoopbackHTTPServer.Response
    private let body = (0..<4000).map { UInt8(truncatingIfNeeded: $0 &* 13) }

    private func dripRoute() -> LoopbackHTTPServer.Route {
        .fixed(Response(headers: [("Content-Type", "image/png")],
                        body: .drip(body, chunkSize: 1000, interval: .milliseconds(10))))
    }

    @Test(arguments: [1, 2, 4])
    func concurrentConnectionsNeverExceedTheLimit(_ limit: Int) async throws {
        let harness = try DownloaderHarness.make { $0.maximumConcurrentDownloads = limit }
        harness.server.setFallback(dripRoute())
        let recorder = DownloadRecorder()
        for index in 0..<12 {
            recorder.start(harness.downloader, ImageDownloadRequest(url: harness.url("/img/\(index)")), as: index)
        }
        #expect(await recorder.waitForCompletions())
        recorder.expectEachCompletedOnce()
        #expect(recorder.all.values.allSatisfy { $0.result?.bytes == body })
        let statistics = harness.server.statistics
        #expect(statistics.requests.count == 12)
        #expect(statistics.maxActiveRequests == limit, "requests in flight at once")
        #expect(statistics.maxOpenConnections <= limit, "connections open at once")
        await harness.finish()
    }

    @Test(arguments: [ImageDownloader.Configuration.ExecutionOrder.fifo, .lifo])
    func executionOrderIsObservedByTheServer(_ order: ImageDownloader.Configuration.ExecutionOrder) async throws {
        let harness = try DownloaderHarness.make {
            $0.maximumConcurrentDownloads = 1
            $0.executionOrder = order
        }
        harness.server.setFallback(.fixed(.ok(body)))
        harness.downloader.suspend()
        let recorder = DownloadRecorder()
        for index in 0..<6 {
            recorder.start(harness.downloader, ImageDownloadRequest(url: harness.url("/\(index)")), as: index)
        }
        #expect(harness.downloader.queuedDownloadCount == 6)
        #expect(harness.server.requests.isEmpty, "nothing starts while suspended")
        harness.downloader.resume()
        #expect(await recorder.waitForCompletions())
        let paths = harness.server.requests.map(\.path)
        let expected = (0..<6).map { "/\($0)" }
        #expect(paths == (order == .fifo ? expected : expected.reversed()))
        recorder.expectEachCompletedOnce()
        await harness.finish()
    }

    @Test func prioritiesAndPriorityChangesWhileQueued() async throws {
        let harness = try DownloaderHarness.make { $0.maximumConcurrentDownloads = 1 }
        harness.server.setFallback(.fixed(.ok(body)))
        harness.downloader.suspend()
        let recorder = DownloadRecorder()
        let priorities: [ImageDownloadPriority] = [.low, .normal, .veryLow, .high, .normal]
        var tokens: [ImageDownloadToken] = []
        for (index, priority) in priorities.enumerated() {
            tokens.append(recorder.start(harness.downloader, ImageDownloadRequest(url: harness.url("/\(index)"), priority: priority), as: index))
        }
        tokens[2].setPriority(.veryHigh)
        harness.downloader.resume()
        #expect(await recorder.waitForCompletions())
        #expect(harness.server.requests.map(\.path) == ["/2", "/3", "/1", "/4", "/0"])
        await harness.finish()
    }

    @Test func callersOfOneURLShareOneRequest() async throws {
        let harness = try DownloaderHarness.make()
        harness.server.setRoute("/shared", dripRoute())
        harness.server.setRoute("/other", dripRoute())
        let recorder = DownloadRecorder()
        for index in 0..<25 {
            recorder.start(harness.downloader, ImageDownloadRequest(url: harness.url("/shared"), priority: index == 24 ? .high : .normal), as: index)
        }
        // Different headers: a different transfer.
        recorder.start(harness.downloader, ImageDownloadRequest(url: harness.url("/shared"), headers: ["X-Variant": "b"]), as: 100)
        recorder.start(harness.downloader, ImageDownloadRequest(url: harness.url("/other")), as: 101)
        #expect(await recorder.waitForCompletions())
        recorder.expectEachCompletedOnce()
        #expect(recorder.all.values.allSatisfy { $0.result?.bytes == body && !$0.progress.isEmpty })
        let requests = harness.server.requests
        #expect(requests.filter { $0.path == "/shared" }.count == 2)
        #expect(requests.filter { $0.path == "/shared" && $0.header("X-Variant") == nil }.count == 1)
        #expect(requests.count == 3)
        // After the transfer finished, a new request is a new transfer.
        _ = try await harness.downloader.download(harness.url("/shared"))
        #expect(harness.server.requests.count == 4)
        await harness.finish()
    }

    @Test func cancellingOneCallerDetachesOnlyItAndTheLastClosesTheConnection() async throws {
        let harness = try DownloaderHarness.make()
        harness.server.setRoute("/stall", .fixed(Response(body: .stall(declaredLength: 10_000, limit: .seconds(60)))))
        let recorder = DownloadRecorder()
        let first = recorder.start(harness.downloader, ImageDownloadRequest(url: harness.url("/stall")), as: 0)
        let second = recorder.start(harness.downloader, ImageDownloadRequest(url: harness.url("/stall")), as: 1)
        #expect(await harness.server.waitUntil { $0.requests.count == 1 })
        #expect(first.cancel())
        #expect(!first.cancel(), "a caller cancels once")
        #expect(await eventually { recorder.log(0).completions.count == 1 })
        #expect(recorder.log(0).error == .cancelled)
        #expect(second.isActive && recorder.log(1).completions.isEmpty)
        let connection = try #require(harness.server.requests.first?.connection)
        try await Task.sleep(for: .milliseconds(100))
        #expect(!harness.server.statistics.closedConnections.contains(connection), "the transfer goes on for the other caller")
        #expect(second.cancel())
        #expect(await harness.server.waitUntil { $0.abortedByClient.contains(connection) })
        #expect(await recorder.waitForCompletions())
        #expect(recorder.log(1).error == .cancelled)
        try await Task.sleep(for: .milliseconds(50))
        recorder.expectEachCompletedOnce()
        #expect(harness.server.requests.count == 1)
        await harness.finish()
    }

    @Test func cancellingAQueuedCallerNeverReachesTheServer() async throws {
        let harness = try DownloaderHarness.make { $0.maximumConcurrentDownloads = 1 }
        harness.server.setRoute("/slow", dripRoute())
        harness.server.setRoute("/queued", .fixed(.ok(body)))
        let recorder = DownloadRecorder()
        recorder.start(harness.downloader, ImageDownloadRequest(url: harness.url("/slow")), as: 0)
        let queued = recorder.start(harness.downloader, ImageDownloadRequest(url: harness.url("/queued")), as: 1)
        #expect(harness.downloader.queuedDownloadCount == 1)
        #expect(queued.cancel())
        #expect(harness.downloader.queuedDownloadCount == 0)
        #expect(await recorder.waitForCompletions())
        #expect(recorder.log(1).error == .cancelled)
        #expect(recorder.log(0).result?.bytes == body)
        #expect(harness.server.requests.map(\.path) == ["/slow"])
        recorder.expectEachCompletedOnce()
        await harness.finish()
    }

    @Test func cancellingTheAwaitingTaskCancelsTheTransfer() async throws {
        let harness = try DownloaderHarness.make()
        harness.server.setRoute("/stall", .fixed(Response(body: .stall(declaredLength: 10_000, limit: .seconds(60)))))
        let downloader = harness.downloader
        let url = harness.url("/stall")
        let task = Task { try await downloader.download(url) }
        #expect(await harness.server.waitUntil { $0.requests.count == 1 })
        task.cancel()
        do {
            _ = try await task.value
            Issue.record("a cancelled download succeeded")
        } catch {
            #expect(error as? ImageDownloadError == .cancelled)
        }
        let connection = try #require(harness.server.requests.first?.connection)
        #expect(await harness.server.waitUntil { $0.abortedByClient.contains(connection) })
        await harness.finish()
    }

    @Test func manyCallersWithRandomCancellationsEachCompleteOnce() async throws {
        let harness = try DownloaderHarness.make { $0.maximumConcurrentDownloads = 3 }
        harness.server.setFallback(dripRoute())
        let recorder = DownloadRecorder()
        var generator = SplitMix(seed: 42)
        var tokens: [(Int, ImageDownloadToken)] = []
        for index in 0..<60 {
            let path = "/r/\(generator.next() % 8)"
            tokens.append((index, recorder.start(harness.downloader, ImageDownloadRequest(url: harness.url(path)), as: index)))
        }
        var cancelled: Set<Int> = []
        for (index, token) in tokens where generator.next() % 3 == 0 {
            if generator.next() % 2 == 0 { try await Task.sleep(for: .milliseconds(3)) }
            if token.cancel() { cancelled.insert(index) }
        }
        #expect(await recorder.waitForCompletions())
        try await Task.sleep(for: .milliseconds(50))
        recorder.expectEachCompletedOnce()
        for (index, log) in recorder.all {
            if cancelled.contains(index) {
                #expect(log.error == .cancelled, "caller \(index)")
            } else {
                #expect(log.result?.bytes == body, "caller \(index): \(String(describing: log.error))")
            }
        }
        #expect(harness.server.statistics.maxActiveRequests <= 3)
        await harness.finish()
    }

    /// A downloader with `slots` slots whose server stalls every body for a minute, and
    /// `callers` downloads of distinct URLs started on it (caller `i` asks for `/i`).
    static func stalledCallers(_ callers: Int, slots: Int) throws -> (DownloaderHarness, DownloadRecorder) {
        let harness = try DownloaderHarness.make { $0.maximumConcurrentDownloads = slots }
        harness.server.setFallback(.fixed(Response(body: .stall(declaredLength: 10_000, limit: .seconds(60)))))
        let recorder = DownloadRecorder()
        for index in 0..<callers {
            recorder.start(harness.downloader, ImageDownloadRequest(url: harness.url("/\(index)")), as: index)
        }
        return (harness, recorder)
    }

    @Test func cancelAllAndInvalidate() async throws {
        let (harness, recorder) = try Self.stalledCallers(5, slots: 2)
        #expect(await harness.server.waitUntil { $0.requests.count == 2 })
        #expect(harness.downloader.currentDownloadCount == 2)
        harness.downloader.cancelAll()
        #expect(await recorder.waitForCompletions())
        #expect(recorder.all.values.allSatisfy { $0.error == .cancelled })
        #expect(await harness.server.waitUntil { $0.abortedByClient.count == 2 })
        #expect(await eventually { harness.downloader.currentDownloadCount == 0 })
        #expect(harness.server.requests.count == 2, "queued transfers never started")
        harness.downloader.invalidate()
        await #expect(throws: ImageDownloadError.cancelled) { try await harness.downloader.download(harness.url("/late")) }
        recorder.expectEachCompletedOnce()
        await harness.finish()
    }

    /// Tasks are created and resumed on a queue of the downloader's, after
    /// `download` returns: invalidating before that queue gets to them must
    /// cancel every caller and free every slot, and never create a task on the
    /// invalidated session (corelibs traps on that).
    @Test func invalidatingBeforeTheTasksAreCreatedCancelsEveryCaller() async throws {
        let (harness, recorder) = try Self.stalledCallers(8, slots: 8)
        harness.downloader.invalidate()
        #expect(await recorder.waitForCompletions())
        recorder.expectEachCompletedOnce()
        #expect(recorder.all.values.allSatisfy { $0.error == .cancelled })
        #expect(await eventually { harness.downloader.currentDownloadCount == 0 })
        await #expect(throws: ImageDownloadError.cancelled) { try await harness.downloader.download(harness.url("/late")) }
        await harness.finish()
    }
}
