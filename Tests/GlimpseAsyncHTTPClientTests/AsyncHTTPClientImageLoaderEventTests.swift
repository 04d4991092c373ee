import AsyncHTTPClient
import Foundation
import Glimpse
import GlimpseAsyncHTTPClient
import GlimpseCache
import LoopbackHTTPServer
import Testing
import TestSupport

/// `events()`: the AsyncHTTPClient loader reports the same events at the same steps as
/// ImageDownloader. Each scenario runs on both loaders against one loopback origin (the
/// route set afresh before each, so its faults start over) and the two sequences are
/// compared; the loader's own sequence is also checked in full.
@Suite("GlimpseAsyncHTTPClientTests events")
struct AsyncHTTPClientImageLoaderEventTests {
    static let quick = RetryPolicy(maximumRetries: 2, baseDelay: .milliseconds(20))
    let body = patternBody(200_000)

    /// The events of one load on each loader, up to the first `isLast` accepts.
    struct Runs {
        var loader: [ImageDownloadEvent]
        var downloader: [ImageDownloadEvent]
    }

    private func run(_ path: String, _ route: @autoclosure () -> LoopbackHTTPServer.Route,
                     expecting expectsSuccess: Bool = true,
                     configure: (inout ImageDownloader.Configuration) -> Void = { _ in },
                     until isLast: @escaping @Sendable (ImageDownloadEvent) -> Bool) async throws -> Runs {
        let harness = try LoaderHarness.make(configure)
        let downloader = ImageDownloader(configuration: harness.loader.configuration)
        var runs = Runs(loader: [], downloader: [])
        for (index, loader) in [harness.loader as any ImageDataLoading, downloader].enumerated() {
            harness.server.setRoute(path, route())
            let stream = index == 0 ? harness.loader.events() : downloader.events()
            let result = await load(ImageDownloadRequest(url: harness.url(path)), on: loader)
            #expect((result.value != nil) == expectsSuccess, "\(index == 0 ? "loader" : "downloader"): \(result)")
            let events = await collect(stream, until: isLast)
            if index == 0 { runs.loader = events } else { runs.downloader = events }
        }
        downloader.invalidate()
        await harness.finish()
        return runs
    }

    @Test func aPlainLoad() async throws {
        let runs = try await run("/a", .fixed(.ok(body)), until: Self.isFinished)
        let url = try Self.url(of: runs)
        #expect(runs.loader == [.started(url), .receivedResponse(url, statusCode: 200), .stopped(url, error: nil),
                                .finished(url)])
        #expect(runs.loader == runs.downloader)
    }

    @Test func aRetriedLoadReportsEachAttemptsStopThenTheRetry() async throws {
        let runs = try await run("/x", .resource(body, faults: [.status(503, retryAfter: "0"), .status(429, retryAfter: "0")]),
                                 configure: { $0.retryPolicy = Self.quick }, until: Self.isFinished)
        let url = try Self.url(of: runs)
        #expect(runs.loader == [
            .started(url), .receivedResponse(url, statusCode: 503), .stopped(url, error: .badStatus(503)),
            .retrying(url, attempt: 2, delay: .zero, error: .badStatus(503)),
            .started(url), .receivedResponse(url, statusCode: 429), .stopped(url, error: .badStatus(429)),
            .retrying(url, attempt: 3, delay: .zero, error: .badStatus(429)),
            .started(url), .receivedResponse(url, statusCode: 200), .stopped(url, error: nil), .finished(url),
        ])
        #expect(runs.loader == runs.downloader)
    }

    @Test func aResumedLoadShowsTheCutAttemptAndThe206() async throws {
        let runs = try await run("/x", .resource(body, faults: [.cutAfter(120_000)]),
                                 configure: { $0.retryPolicy = Self.quick }, until: Self.isFinished)
        #expect(runs.loader.map(Self.shape) == [
            "started /x", "response /x 200", "stopped /x transport", "retrying /x attempt 2 after transport",
            "started /x", "response /x 206", "stopped /x ok", "finished /x",
        ])
        #expect(runs.loader.map(Self.shape) == runs.downloader.map(Self.shape))
    }

    @Test func aRangeAnswerThatCannotContinueRestartsAsImageDownloaderReportsIt() async throws {
        let newer = body.map { $0 ^ 0x5a }
        let runs = try await run("/x", .resource(body, faults: [.cutAfter(50_000), .newVersion(newer, etag: "\"v2\"")]),
                                 configure: { $0.retryPolicy = Self.quick }, until: Self.isFinished)
        #expect(runs.loader.map(Self.shape) == [
            "started /x", "response /x 200", "stopped /x transport", "retrying /x attempt 2 after transport",
            "started /x", "response /x 206", "stopped /x bad HTTP status 206", "retrying /x attempt 2 after bad HTTP status 206",
            "started /x", "response /x 200", "stopped /x ok", "finished /x",
        ])
        #expect(runs.loader.map(Self.shape) == runs.downloader.map(Self.shape))
    }

    @Test func aFailedLoadStopsWithItsError() async throws {
        let runs = try await run("/missing", .fixed(.status(404)), expecting: false, until: Self.isStoppedWithError)
        let url = try Self.url(of: runs)
        #expect(runs.loader == [.started(url), .receivedResponse(url, statusCode: 404), .stopped(url, error: .badStatus(404))])
        #expect(runs.loader == runs.downloader)
    }

    @Test func retriesThatRunOutStopWithTheLastFailure() async throws {
        let runs = try await run("/x", .resource(body, faults: [.status(502), .status(503), .status(504)]), expecting: false,
                                 configure: { $0.retryPolicy = Self.quick },
                                 until: { if case .stopped(_, .badStatus(504)?) = $0 { true } else { false } })
        #expect(runs.loader.map(Self.shape).filter { $0.hasPrefix("stopped") || $0.hasPrefix("retrying") } == [
            "stopped /x bad HTTP status 502", "retrying /x attempt 2 after bad HTTP status 502",
            "stopped /x bad HTTP status 503", "retrying /x attempt 3 after bad HTTP status 503",
            "stopped /x bad HTTP status 504",
        ])
        #expect(runs.loader.map(Self.shape) == runs.downloader.map(Self.shape))
    }

    @Test func aRefusedAddressStopsWithoutStarting() async throws {
        let runs = try await run("/a", .fixed(.ok(body)), expecting: false, configure: { $0.addressPolicy = .public },
                                 until: Self.isStoppedWithError)
        #expect(runs.loader.count == 1)
        guard case .stopped(_, .addressNotAllowed?)? = runs.loader.first else {
            Issue.record("expected one stop with addressNotAllowed, got \(runs.loader)")
            return
        }
        #expect(runs.loader == runs.downloader)
    }

    @Test func redirectsAreReportedFromTheTransfersURL() async throws {
        let harness = try LoaderHarness.make()
        for hop in 1...2 { harness.server.setRoute("/r\(hop)", .fixed(.redirect(302, to: harness.url("/r\(hop + 1)").absoluteString))) }
        harness.server.setRoute("/r3", .fixed(.ok(body)))
        let downloader = ImageDownloader(configuration: harness.loader.configuration)
        var runs: [[ImageDownloadEvent]] = []
        for (stream, loader) in [(harness.loader.events(), harness.loader as any ImageDataLoading), (downloader.events(), downloader)] {
            #expect(await load(ImageDownloadRequest(url: harness.url("/r1")), on: loader).value?.bytes == body)
            runs.append(await collect(stream, until: Self.isFinished))
        }
        let (first, second, last) = (harness.url("/r1"), harness.url("/r2"), harness.url("/r3"))
        #expect(runs[0] == [
            .started(first), .redirected(first, to: second, statusCode: 302, hop: 1),
            .redirected(first, to: last, statusCode: 302, hop: 2), .receivedResponse(last, statusCode: 200),
            .stopped(first, error: nil), .finished(first),
        ])
        #expect(runs[0] == runs[1])
        downloader.invalidate()
        await harness.finish()
    }

    @Test func severalObserversEachSeeEveryEventOfOneSharedTransfer() async throws {
        let harness = try LoaderHarness.make()
        harness.server.setRoute("/a", .resource(body, pace: (chunkSize: 10_000, interval: .milliseconds(10))))
        let (one, two) = (harness.loader.events(), harness.loader.events())
        // Two callers of one resource share a transfer: one sequence of events, not two.
        async let first = harness.load("/a")
        async let second = harness.load("/a")
        #expect(await first.value?.bytes == body)
        #expect(await second.value?.bytes == body)
        let url = harness.url("/a")
        let expected: [ImageDownloadEvent] = [.started(url), .receivedResponse(url, statusCode: 200), .stopped(url, error: nil),
                                              .finished(url)]
        #expect(harness.server.requests.count == 1)
        await harness.finish()
        // Finished by the shutdown: each stream holds exactly what it saw.
        #expect(await collect(one) == expected)
        #expect(await collect(two) == expected)
    }

    @Test func aCancelledTransferStopsWithCancelled() async throws {
        let stall = LoopbackHTTPServer.Response(status: 200, headers: [("Content-Type", "image/png")],
                                                body: .stall(declaredLength: 1_000, limit: .seconds(30)))
        let harness = try LoaderHarness.make()
        harness.server.setRoute("/stall", .fixed(stall))
        let downloader = ImageDownloader(configuration: harness.loader.configuration)
        var runs: [[ImageDownloadEvent]] = []
        for (stream, loader) in [(harness.loader.events(), harness.loader as any ImageDataLoading), (downloader.events(), downloader)] {
            let recorder = LoadRecorder()
            let task = loader.loadData(for: ImageDownloadRequest(url: harness.url("/stall")), handlers: recorder.handlers)
            var iterator = stream.makeAsyncIterator()
            var seen: [ImageDownloadEvent] = []
            while let event = await iterator.next() {
                seen.append(event)
                if case .receivedResponse = event { break }
            }
            task.cancel()
            while let event = await iterator.next() {
                seen.append(event)
                if case .stopped = event { break }
            }
            #expect(await eventually { recorder.result?.failure == .cancelled })
            runs.append(seen)
        }
        let url = harness.url("/stall")
        #expect(runs[0] == [.started(url), .receivedResponse(url, statusCode: 200), .stopped(url, error: .cancelled)])
        #expect(runs[0] == runs[1])
        downloader.invalidate()
        await harness.finish()
    }

    @Test func shutdownFinishesEveryStreamAsInvalidateDoes() async throws {
        let stall = LoopbackHTTPServer.Response(status: 200, headers: [("Content-Type", "image/png")],
                                                body: .stall(declaredLength: 1_000, limit: .seconds(30)))
        let harness = try LoaderHarness.make()
        harness.server.setRoute("/stall", .fixed(stall))
        let downloader = ImageDownloader(configuration: harness.loader.configuration)
        let stop: [@Sendable () async -> Void] = [{ await harness.loader.shutdown() }, { downloader.invalidate() }]
        var runs: [[ImageDownloadEvent]] = []
        for (index, loader) in [harness.loader as any ImageDataLoading, downloader].enumerated() {
            let events = { index == 0 ? harness.loader.events() : downloader.events() }
            let (stream, idle) = (events(), events())
            let recorder = LoadRecorder()
            _ = loader.loadData(for: ImageDownloadRequest(url: harness.url("/stall")), handlers: recorder.handlers)
            var iterator = stream.makeAsyncIterator()
            var seen: [ImageDownloadEvent] = []
            while let event = await iterator.next() {
                seen.append(event)
                if case .receivedResponse = event { break }
            }
            await stop[index]()
            // The stream ends; the cancellation the shutdown caused is not reported.
            let rest = await collect(stream)
            #expect(rest.isEmpty, "after the stop: \(rest)")
            runs.append(seen)
            #expect(await collect(idle) == seen, "a second stream ends too, with what it saw")
            #expect(await collect(events()).isEmpty, "a stream asked for after the stop ends at once")
            #expect(await eventually { recorder.result?.failure == .cancelled })
        }
        let url = harness.url("/stall")
        #expect(runs[0] == [.started(url), .receivedResponse(url, statusCode: 200)])
        #expect(runs[0] == runs[1])
        await harness.finish()
    }

    // MARK: - Helpers

    static let isFinished: @Sendable (ImageDownloadEvent) -> Bool = { if case .finished = $0 { true } else { false } }
    static let isStoppedWithError: @Sendable (ImageDownloadEvent) -> Bool = {
        if case .stopped(_, _?) = $0 { true } else { false }
    }

    /// An event as both loaders must agree on it where their errors differ: paths for
    /// URLs, no delay (the backoff is random), transport errors by kind only (their
    /// messages are each client's own).
    static func shape(_ event: ImageDownloadEvent) -> String {
        func kind(_ error: ImageDownloadError) -> String {
            if case .transport = error { return "transport" }
            return error.description
        }
        return switch event {
        case .started(let url): "started \(url.path)"
        case .receivedResponse(let url, let status): "response \(url.path) \(status)"
        case .retrying(let url, let attempt, _, let error): "retrying \(url.path) attempt \(attempt) after \(kind(error))"
        case .redirected(let url, let target, let status, let hop): "redirected \(url.path) to \(target.path) \(status) hop \(hop)"
        case .stopped(let url, let error): "stopped \(url.path) \(error.map(kind) ?? "ok")"
        case .finished(let url): "finished \(url.path)"
        }
    }

    /// The URL both runs loaded (their first event's), checked to be the same.
    static func url(of runs: Runs, sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        func firstURL(_ event: ImageDownloadEvent?) -> URL? {
            switch event {
            case .started(let url)?, .stopped(let url, _)?: url
            default: nil
            }
        }
        let url = try #require(firstURL(runs.loader.first), "no events: \(runs.loader)", sourceLocation: sourceLocation)
        #expect(firstURL(runs.downloader.first) == url, sourceLocation: sourceLocation)
        return url
    }

    private func load(_ request: ImageDownloadRequest, on loader: any ImageDataLoading) async
        -> Result<ImageDownloadResult, ImageDownloadError> {
        await withCheckedContinuation { continuation in
            _ = loader.loadData(for: request, handlers: ImageDataLoadingHandlers(completion: { continuation.resume(returning: $0) }))
        }
    }
}

/// What a stream delivered, readable from another task.
final class EventLog: Sendable {
    private let events = Lock<[ImageDownloadEvent]>([])

    func append(_ event: ImageDownloadEvent) { events.withLock { $0.append(event) } }
    var all: [ImageDownloadEvent] { events.withLock { $0 } }
}

/// The events of `stream` up to the first that `isLast` accepts (included), or until the
/// stream ends; after 20 s, what arrived by then.
func collect(_ stream: AsyncStream<ImageDownloadEvent>,
             until isLast: @escaping @Sendable (ImageDownloadEvent) -> Bool = { _ in false }) async -> [ImageDownloadEvent] {
    let log = EventLog()
    await withTaskGroup(of: Void.self) { group in
        group.addTask {
            for await event in stream {
                log.append(event)
                if isLast(event) { return }
            }
        }
        group.addTask { try? await Task.sleep(for: .seconds(20)) }
        await group.next()
        group.cancelAll()
    }
    return log.all
}
