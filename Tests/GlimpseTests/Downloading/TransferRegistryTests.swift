import Foundation
@testable import Glimpse
import Testing

@Suite("TransferRegistry coalescing")
struct TransferRegistryTests {
    private let callbacks = DownloadCallbacks(progress: nil, completion: { _ in })
    private let url = URL(string: "http://127.0.0.1:1/a.png")!

    @Test func sameKeyJoinsOneTransfer() {
        var registry = TransferRegistry()
        let first = registry.attach(ImageDownloadRequest(url: url), callbacks: callbacks)
        let second = registry.attach(ImageDownloadRequest(url: url, priority: .high), callbacks: callbacks)
        let other = registry.attach(ImageDownloadRequest(url: url, headers: ["If-None-Match": "\"x\""]), callbacks: callbacks)
        #expect(first.isNew && !second.isNew && other.isNew)
        #expect(first.transfer == second.transfer && first.transfer != other.transfer)
        #expect(registry.transfers[first.transfer]?.priority == .high)
        #expect(first.caller != second.caller)
    }

    @Test func detachingTheLastCallerAbandonsTheTransfer() {
        var registry = TransferRegistry()
        let first = registry.attach(ImageDownloadRequest(url: url), callbacks: callbacks)
        let second = registry.attach(ImageDownloadRequest(url: url), callbacks: callbacks)
        let detached = registry.detach(first.caller)
        #expect(detached?.abandoned == nil)
        #expect(registry.detach(first.caller) == nil, "a caller leaves once")
        #expect(registry.detach(second.caller)?.abandoned != nil)
        #expect(registry.transfers.isEmpty && registry.callerCount == 0)
        #expect(registry.attach(ImageDownloadRequest(url: url), callbacks: callbacks).isNew)
    }

    @Test func closedTransferIsNotJoinedAgain() {
        var registry = TransferRegistry()
        let first = registry.attach(ImageDownloadRequest(url: url), callbacks: callbacks)
        registry.closeToJoiners(first.transfer)
        let late = registry.attach(ImageDownloadRequest(url: url), callbacks: callbacks)
        #expect(late.isNew && late.transfer != first.transfer)
        let removed = registry.remove(first.transfer)
        #expect(removed?.callers.count == 1)
        #expect(!registry.isActive(first.caller) && registry.isActive(late.caller))
    }
}

extension TransferRegistry.Detached: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.transfer == rhs.transfer }
}

@Suite("ImageDownloadError")
struct ImageDownloadErrorTests {
    @Test func permanenceFollowsTheKindOfFailure() {
        let permanent: [ImageDownloadError] = [.invalidURL, .badStatus(404), .badStatus(410), .badStatus(401),
                                               .invalidContentType("text/html"), .emptyBody, .tooLarge,
                                               .transformFailed("x")]
        let transient: [ImageDownloadError] = [.badStatus(500), .badStatus(503), .badStatus(408), .badStatus(429),
                                               .notModified(ImageDownloadResponse(url: nil, statusCode: 304, headers: [:],
                                                                                  mimeType: nil, expectedContentLength: nil)),
                                               .timedOut, .cancelled,
                                               .transport(code: -1004, message: "refused")]
        let permanentFlags = permanent.map(\.isPermanent)
        let transientFlags = transient.map(\.isPermanent)
        #expect(!permanentFlags.contains(false))
        #expect(!transientFlags.contains(true))
    }
}
