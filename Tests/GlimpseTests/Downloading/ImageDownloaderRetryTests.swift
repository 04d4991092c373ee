import Foundation
@testable import Glimpse
import LoopbackHTTPServer
import Synchronization
import Testing
import GlimpseCache
import TestSupport

/// Retries and resumption against a loopback origin that fails on purpose.
@Suite("ImageDownloader retries and resumption")
struct ImageDownloaderRetryTests {
    typealias Fault = LoopbackHTTPServer.Fault
    /// Quick waits, so the suite stays fast; the backoff itself is tested in RetryPolicyTests.
    static let quick = RetryPolicy(maximumRetries: 2, baseDelay: .milliseconds(20))
    let body: [UInt8] = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }

    private func harness(_ policy: RetryPolicy = quick,
                         _ configure: @escaping (inout ImageDownloader.Configuration) -> Void = { _ in }) throws -> DownloaderHarness {
        try DownloaderHarness.make { configuration in
            configuration.retryPolicy = policy
            configure(&configuration)
        }
    }

    @Test func unavailableIsRetriedAfterRetryAfterAndEventsShowTheAttempts() async throws {
        let harness = try harness()
        harness.server.setRoute("/x", .resource(body, faults: [.status(503, retryAfter: "0"), .status(429, retryAfter: "0")]))
        let events = harness.downloader.events()
        let result = try await harness.downloader.download(harness.url("/x"))
        #expect(result.bytes == body)
        #expect(harness.server.requests.count == 3)
        var retries: [Int] = []
        for await event in events {
            if case .retrying(_, let attempt, let delay, let error) = event {
                retries.append(attempt)
                #expect(delay == .zero)
                #expect(error == .badStatus(503) || error == .badStatus(429))
            }
            if case .finished = event { break }
        }
        #expect(retries == [2, 3])
        await harness.finish()
    }

    @Test func retriesRunOutWithTheLastFailure() async throws {
        let harness = try harness()
        harness.server.setRoute("/x", .resource(body, faults: [.status(502), .status(503), .status(504), .none]))
        await #expect(throws: ImageDownloadError.badStatus(504)) { try await harness.downloader.download(harness.url("/x")) }
        #expect(harness.server.requests.count == 3)
        await harness.finish()
    }

    @Test(arguments: [400, 403, 404, 410, 500])
    func otherStatusesAreNotRetried(_ status: Int) async throws {
        let harness = try harness()
        harness.server.setRoute("/x", .resource(body, faults: [.status(status)]))
        await #expect(throws: ImageDownloadError.badStatus(status)) { try await harness.downloader.download(harness.url("/x")) }
        #expect(harness.server.requests.count == 1)
        await harness.finish()
    }

    @Test func aBodyCutMidwayIsResumedWithARangeAndArrivesWhole() async throws {
        let harness = try harness()
        harness.server.setRoute("/x", .resource(body, faults: [.cutAfter(120_000)]))
        let result = try await harness.downloader.download(harness.url("/x"))
        #expect(result.bytes == body)
        let requests = harness.server.requests
        #expect(requests.count == 2)
        let range = try #require(requests.last?.header("Range"))
        let offset = try #require(Int(range.dropFirst("bytes=".count).dropLast()))
        #expect(range.hasPrefix("bytes=") && range.hasSuffix("-"))
        #expect(offset == 120_000, "asks for exactly what is missing: every byte before the reset arrived")
        #expect(requests.last?.header("If-Range") == "\"v1\"")
        await harness.finish()
    }

    @Test func aServerThatIgnoresTheRangeGivesTheWholeBodyNotASplice() async throws {
        let harness = try harness()
        harness.server.setRoute("/x", .resource(body, faults: [.cutAfter(50_000), .ignoreRange]))
        let result = try await harness.downloader.download(harness.url("/x"))
        #expect(result.bytes == body)
        #expect(harness.server.requests.count == 2)
        await harness.finish()
    }

    @Test func aWrongContentRangeStartsOver() async throws {
        let harness = try harness()
        harness.server.setRoute("/x", .resource(body, faults: [.cutAfter(50_000), .wrongContentRange]))
        let result = try await harness.downloader.download(harness.url("/x"))
        #expect(result.bytes == body)
        let requests = harness.server.requests
        #expect(requests.count == 3)
        #expect(requests.last?.header("Range") == nil, "the restart asks for the whole body")
        await harness.finish()
    }

    @Test func aNewVersionBetweenAttemptsIsNeverSpliced() async throws {
        let harness = try harness()
        let newer = body.map { $0 ^ 0x5A }
        harness.server.setRoute("/x", .resource(body, faults: [.cutAfter(50_000), .newVersion(newer, etag: "\"v2\"")]))
        let result = try await harness.downloader.download(harness.url("/x"))
        #expect(result.bytes == newer)
        #expect(harness.server.requests.count == 3)
        await harness.finish()
    }

    @Test func aLaterRequestResumesWhatAFailedOneReceived() async throws {
        let harness = try harness(.never)
        harness.server.setRoute("/x", .resource(body, faults: [.cutAfter(80_000)]))
        await #expect(throws: ImageDownloadError.self) { try await harness.downloader.download(harness.url("/x")) }
        let result = try await harness.downloader.download(harness.url("/x"))
        #expect(result.bytes == body)
        let second = harness.server.requests.last
        #expect(second?.header("Range")?.hasPrefix("bytes=") == true)
        #expect(second?.header("Range") != "bytes=0-")
        await harness.finish()
    }

    @Test func withoutResumptionEveryAttemptStartsOver() async throws {
        let harness = try harness(Self.quick) { $0.resumption.isEnabled = false }
        harness.server.setRoute("/x", .resource(body, faults: [.cutAfter(80_000)]))
        let result = try await harness.downloader.download(harness.url("/x"))
        #expect(result.bytes == body)
        #expect(harness.server.requests.last?.header("Range") == nil)
        await harness.finish()
    }

    @Test func coalescedCallersShareTheRetries() async throws {
        let harness = try harness()
        // The first answer (503) is held until the queue is suspended, so the
        // retry cannot start before the second caller has joined.
        let release = DispatchSemaphore(value: 0)
        let answered = Lock(0)
        let body = body
        harness.server.setRoute("/x", .handler { _ in
            let first = answered.withLock { count in
                defer { count += 1 }
                return count == 0
            }
            if first {
                release.wait()
                return LoopbackHTTPServer.Response(status: 503, headers: [("Retry-After", "0")], body: .bytes([]))
            }
            return .ok(body)
        })
        async let first = harness.downloader.download(harness.url("/x"))
        #expect(await eventually { harness.server.requests.count == 1 })
        harness.downloader.suspend()
        release.signal()
        // Joins the transfer while it waits for its retry.
        #expect(await eventually { harness.downloader.queuedDownloadCount == 1 })
        async let second = harness.downloader.download(harness.url("/x"))
        #expect(await eventually { harness.downloader.waitingCallerCount == 2 })
        harness.downloader.resume()
        #expect(try await first.bytes == body)
        #expect(try await second.bytes == body)
        #expect(harness.server.requests.count == 2)
        await harness.finish()
    }

    @Test func aWaitingRetryHoldsNoSlotAndCanBeCancelled() async throws {
        let harness = try harness(RetryPolicy(maximumRetries: 2, baseDelay: .milliseconds(20),
                                              maximumRetryAfter: .seconds(7200))) {
            $0.maximumConcurrentDownloads = 1
        }
        // An hour: the retry cannot come before the cancel, however long the machine keeps
        // this test waiting (20 s ran out when parallel codec tests held the cooperative pool).
        harness.server.setRoute("/slow", .resource(body, faults: [.status(503, retryAfter: "3600")]))
        harness.server.setRoute("/other", .fixed(.ok([1, 2, 3])))
        let waiting = Lock<Result<ImageDownloadResult, ImageDownloadError>?>(nil)
        let events = harness.downloader.events()
        let token = harness.downloader.download(ImageDownloadRequest(url: harness.url("/slow"))) { result in
            waiting.withLock { $0 = result }
        }
        for await event in events { if case .retrying = event { break } }
        // The only slot is free while /slow waits.
        let other = try await harness.downloader.download(harness.url("/other"))
        #expect(other.bytes == [1, 2, 3])
        #expect(token.cancel())
        let cancelled = await eventually { waiting.withLock { $0 } != nil }
        #expect(cancelled)
        #expect(waiting.withLock { $0.map { if case .failure(.cancelled) = $0 { true } else { false } } } == true)
        #expect(harness.server.requests.filter { $0.path == "/slow" }.count == 1, "no attempt after the cancel")
        await harness.finish()
    }

    @Test func requestsThatDifferInAuthorizationNeverShareATransfer() async throws {
        let harness = try harness()
        harness.server.setRoute("/x", .resource(body))
        async let alice = harness.downloader.download(ImageDownloadRequest(url: harness.url("/x"), headers: ["Authorization": "Bearer a"]))
        async let bob = harness.downloader.download(ImageDownloadRequest(url: harness.url("/x"), headers: ["Authorization": "Bearer b"]))
        _ = try await (alice, bob)
        let seen = Set(harness.server.requests.compactMap { $0.header("Authorization") })
        #expect(seen == ["Bearer a", "Bearer b"])
        await harness.finish()
    }
}
