import Foundation
@testable import Glimpse
import Testing

@Suite("Transfer state machine: retries and resumption")
struct TransferStateMachineTests {
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    let body: [UInt8] = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    let etag = "\"v1\""
    var head: [String: String] { ["etag": etag, "accept-ranges": "bytes", "content-length": "1000"] }
    let reset = TransferFailure.connection(code: -1005, message: "reset")

    @Test func aCleanTransferCompletesInOneAttempt() {
        var machine = TransferStateMachine(policy: .standard)
        #expect(machine.send() == [:])
        #expect(machine.receivedHead(status: 200, headers: head) == .proceed)
        #expect(machine.receivedBody(body) == 1000)
        #expect(machine.finished() == .complete(body))
        #expect(machine.attempts == 1)
        #expect(machine.resumable == nil)
    }

    @Test func aBodyCutMidwayResumesWithARangeAndIsWholeAfterwards() {
        var machine = TransferStateMachine(policy: .standard)
        _ = machine.send()
        _ = machine.receivedHead(status: 200, headers: head)
        _ = machine.receivedBody(body.prefix(600))
        #expect(machine.failed(reset, now: now, unitRandom: 0.5) == .wait(.milliseconds(250), attempt: 2))
        #expect(machine.send() == ["Range": "bytes=600-", "If-Range": etag])
        let partial = ["etag": etag, "content-range": "bytes 600-999/1000", "content-length": "400"]
        #expect(machine.receivedHead(status: 206, headers: partial) == .proceed)
        _ = machine.receivedBody(body.suffix(400))
        #expect(machine.finished() == .complete(body))
        #expect(machine.attempts == 2)
    }

    @Test func aResumedTransferCutAgainKeepsEveryByteOfTheSameVersion() {
        var machine = TransferStateMachine(policy: .standard)
        _ = machine.send()
        _ = machine.receivedHead(status: 200, headers: head)
        _ = machine.receivedBody(body.prefix(300))
        _ = machine.failed(reset, now: now, unitRandom: 0)
        _ = machine.send()
        _ = machine.receivedHead(status: 206, headers: ["content-range": "bytes 300-999/1000"])
        _ = machine.receivedBody(body[300..<700])
        #expect(machine.failed(.timedOut, now: now, unitRandom: 0) == .wait(.zero, attempt: 3))
        #expect(machine.send() == ["Range": "bytes=700-", "If-Range": etag])
        _ = machine.receivedHead(status: 206, headers: ["content-range": "bytes 700-999/1000", "etag": etag])
        _ = machine.receivedBody(body[700...])
        #expect(machine.finished() == .complete(body))
    }

    @Test func aServerIgnoringTheRangeStartsTheBodyOver() {
        var machine = resumed(after: 600)
        #expect(machine.receivedHead(status: 200, headers: head) == .proceed)
        _ = machine.receivedBody(body)
        #expect(machine.finished() == .complete(body), "the 200's body alone, not spliced after the stored part")
    }

    @Test(arguments: [
        ["etag": "\"v2\"", "content-range": "bytes 600-999/1000"],   // another version
        ["etag": "\"v1\"", "content-range": "bytes 500-999/1000"],   // not where the stored part ends
        ["etag": "\"v1\"", "content-range": "bytes 600-1199/1200"],  // another length
        ["etag": "\"v1\""],                                          // no Content-Range at all
    ])
    func aRangeAnswerThatDoesNotContinueTheStoredBytesRestartsWithoutARange(_ headers: [String: String]) {
        var machine = resumed(after: 600)
        #expect(machine.receivedHead(status: 206, headers: headers) == .restart)
        #expect(machine.resumable == nil)
        #expect(machine.send() == [:], "the restart asks for the whole body")
        let fresh = ["etag": "\"v2\"", "accept-ranges": "bytes"]
        #expect(machine.receivedHead(status: 200, headers: fresh) == .proceed)
        let other = [UInt8](repeating: 9, count: 1200)
        _ = machine.receivedBody(other)
        #expect(machine.finished() == .complete(other))
    }

    @Test func rangeNotSatisfiableRestarts() {
        var machine = resumed(after: 600)
        #expect(machine.receivedHead(status: 416, headers: [:]) == .restart)
    }

    @Test func withoutAStrongValidatorOrRangeSupportNothingIsKeptToResume() {
        for headers in [["etag": "W/\"weak\"", "accept-ranges": "bytes"], ["etag": etag], ["accept-ranges": "bytes"]] {
            var machine = TransferStateMachine(policy: .standard)
            _ = machine.send()
            _ = machine.receivedHead(status: 200, headers: headers)
            _ = machine.receivedBody(body.prefix(10))
            _ = machine.failed(reset, now: now, unitRandom: 0)
            #expect(machine.send() == [:], "\(headers)")
        }
        var lastModified = TransferStateMachine(policy: .standard)
        _ = lastModified.send()
        _ = lastModified.receivedHead(status: 200, headers: ["last-modified": "Sun, 06 Nov 1994 08:49:37 GMT",
                                                             "accept-ranges": "bytes"])
        _ = lastModified.receivedBody(body.prefix(10))
        _ = lastModified.failed(reset, now: now, unitRandom: 0)
        #expect(lastModified.send() == ["Range": "bytes=10-",
                                                                 "If-Range": "Sun, 06 Nov 1994 08:49:37 GMT"])
    }

    @Test func retriesRunOutAndTheLastFailureIsReported() {
        var machine = TransferStateMachine(policy: .standard)
        _ = machine.send()
        #expect(machine.failed(.status(503, retryAfter: "1"), now: now, unitRandom: 0) == .wait(.seconds(1), attempt: 2))
        _ = machine.send()
        #expect(machine.failed(.status(503, retryAfter: nil), now: now, unitRandom: 0.5) == .wait(.milliseconds(500), attempt: 3))
        _ = machine.send()
        #expect(machine.failed(.status(502, retryAfter: nil), now: now, unitRandom: 0.5) == .fail(.badStatus(502)))
        #expect(machine.attempts == 3)
        #expect(machine.send() == nil, "nothing more is sent after a final failure")
    }

    @Test func aClientErrorIsFinalAtOnce() {
        var machine = TransferStateMachine(policy: .standard)
        _ = machine.send()
        #expect(machine.failed(.status(404, retryAfter: nil), now: now, unitRandom: 0) == .fail(.badStatus(404)))
    }

    @Test func anOversizedBodyKeepsNothingToResume() {
        var machine = TransferStateMachine(policy: .standard)
        _ = machine.send()
        _ = machine.receivedHead(status: 200, headers: head)
        _ = machine.receivedBody(body.prefix(999))
        #expect(machine.failed(.tooLarge, now: now, unitRandom: 0) == .fail(.tooLarge))
        #expect(machine.resumable == nil)
    }

    @Test func aRestartAsksForTheWholeBodyWithoutCountingARetry() {
        var machine = resumed(after: 600)
        #expect(machine.attempts == 2)
        #expect(machine.receivedHead(status: 416, headers: [:]) == .restart)
        #expect(machine.send() == [:])
        #expect(machine.attempts == 2)
    }

    @Test func cancellingIsFinalAndKeepsTheResumableBytesForALaterLoad() {
        var machine = TransferStateMachine(policy: .standard)
        _ = machine.send()
        _ = machine.receivedHead(status: 200, headers: head)
        _ = machine.receivedBody(Array(body.prefix(100)))
        #expect(machine.failed(.cancelled, now: now, unitRandom: 0) == .fail(.cancelled))
        #expect(machine.resumable?.body == Array(body.prefix(100)))
        var later = TransferStateMachine(policy: .standard, resumingFrom: machine.resumable)
        #expect(later.send() == ["Range": "bytes=100-", "If-Range": etag])
    }

    @Test func anUnaskedRangeIsRejected() {
        var machine = TransferStateMachine(policy: .standard)
        _ = machine.send()
        #expect(machine.receivedHead(status: 206, headers: ["content-range": "bytes 0-9/10"]) == .fail(.badStatus(206)))
    }

    /// A machine whose first attempt got `count` bytes of ``body`` and was
    /// reset; the second attempt has been sent with a range.
    private func resumed(after count: Int) -> TransferStateMachine {
        var machine = TransferStateMachine(policy: .standard)
        _ = machine.send()
        _ = machine.receivedHead(status: 200, headers: head)
        _ = machine.receivedBody(body.prefix(count))
        _ = machine.failed(reset, now: now, unitRandom: 0)
        _ = machine.send()
        return machine
    }
}

extension TransferStateMachine {
    @discardableResult
    mutating func receivedBody(_ bytes: some Sequence<UInt8>) -> Int {
        Array(bytes).withUnsafeBytes { receivedBody($0) }
    }
}

@Suite("Transfer state machine: a caller's own range")
struct CallerRangeTests {
    @Test func aRangeTheCallerAskedForIsTheBodyAndIsNeverResumed() {
        var machine = TransferStateMachine(policy: .standard, callerAskedForRange: true)
        #expect(machine.send() == [:])
        #expect(machine.receivedHead(status: 206, headers: ["content-range": "bytes 0-9/100", "etag": "\"a\""]) == .proceed)
        machine.receivedBody([UInt8](repeating: 1, count: 5))
        _ = machine.failed(.connection(code: -1005, message: "reset"), now: Date(), unitRandom: 0)
        #expect(machine.resumable == nil)
        #expect(machine.send() == [:])
    }
}
