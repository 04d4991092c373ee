import Foundation
@testable import Glimpse
import Synchronization
import Testing

/// The event streams a loader hands out: every stream open at a ``finish()`` ends with
/// the same events, however the finish falls among concurrent yields.
@Suite("DownloadEventObservers")
struct DownloadEventObserversTests {
    @Test func aFinishAmongConcurrentYieldsLeavesEveryStreamTheSameEvents() async throws {
        let base = try #require(URL(string: "http://127.0.0.1/"))
        let events = (0..<1_000).map { ImageDownloadEvent.started(base.appendingPathComponent("\($0)")) }
        for round in 0..<200 {
            let observers = DownloadEventObservers()
            let streams = (0..<16).map { _ in observers.makeStream() }
            let yielded = Counter()
            // Two threads: one yields every event, the other finishes part-way through.
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for event in events {
                        observers.yield(event)
                        yielded.value.add(1, ordering: .releasing)
                    }
                }
                group.addTask {
                    // Waits for a different number of events each round, so the finish
                    // falls among the yields.
                    while yielded.value.load(ordering: .acquiring) < round * 4 {}
                    observers.finish()
                }
            }
            observers.finish()
            var received: [[ImageDownloadEvent]] = []
            for stream in streams {
                var seen: [ImageDownloadEvent] = []
                for await event in stream { seen.append(event) }
                received.append(seen)
            }
            #expect(received.allSatisfy { $0 == received[0] }, "round \(round): \(received.map(\.count))")
            #expect(Array(events.prefix(received[0].count)) == received[0], "in order, from the first")
        }
    }

    @Test func aStreamMadeAfterTheFinishEndsAtOnce() async throws {
        let observers = DownloadEventObservers()
        observers.finish()
        observers.yield(.started(try #require(URL(string: "http://127.0.0.1/a"))))
        var count = 0
        for await _ in observers.makeStream() { count += 1 }
        #expect(count == 0)
    }

    /// How many events the yielding task has handed out, shared with the finishing one.
    final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }
}
