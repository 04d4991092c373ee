import Dispatch
import Foundation
@testable import Glimpse
import Synchronization
import Testing

extension PipelineTests {
    /// The executor on its own: jobs let go of what they hold once run, the byte bound holds
    /// callers back, and the threads run below normal priority.
    @Suite(.timeLimit(.minutes(1)))
    struct ProcessingExecutorTests {
        final class Payload: Sendable {}
        final class Flag: Sendable {
            private let value = Atomic<Bool>(false)
            func set() { value.store(true, ordering: .relaxed) }
            var isSet: Bool { value.load(ordering: .relaxed) }
        }

        /// Waits (off the cooperative pool's caller) until `condition` holds or 10 s pass.
        private func eventually(_ condition: () -> Bool) async -> Bool {
            let deadline = ContinuousClock.now + .seconds(10)
            while !condition() {
                if ContinuousClock.now > deadline { return false }
                try? await Task.sleep(for: .milliseconds(2))
            }
            return true
        }

        @Test func aJobIsReleasedAsSoonAsItHasRun() async throws {
            let executor = ProcessingExecutor(width: 1)
            let gate = DispatchSemaphore(value: 0)
            let blocking = Flag()
            weak var released: Payload?
            do {
                let payload = Payload()
                released = payload
                // The first job runs; the second blocks the only thread; the third stays queued
                // at the same level, so the level's queue never empties meanwhile.
                executor.enqueue(priority: .normal) { withExtendedLifetime(payload) {} }
                executor.enqueue(priority: .normal) {
                    blocking.set()
                    gate.wait()
                }
                executor.enqueue(priority: .normal) {}
            }
            #expect(await eventually { blocking.isSet })
            #expect(released == nil, "the job that ran (and its payload) is gone while its queue still holds another")
            #expect(executor.queuedCount == 1)
            gate.signal()
            #expect(await eventually { executor.queuedCount == 0 })
        }

        @Test func heldBytesHoldCallersBackUntilJobsRun() async throws {
            let executor = ProcessingExecutor(width: 1, maximumHeldBytes: 100)
            let gate = DispatchSemaphore(value: 0)
            executor.enqueue(priority: .normal, holding: 60) { gate.wait() }
            await executor.reserve(10)  // 60 of 100: room left
            executor.release(10)
            executor.enqueue(priority: .low, holding: 60) {}
            #expect(executor.heldBytes == 120)
            let passed = Flag()
            let waiter = Task {
                await executor.reserve(5)
                passed.set()
            }
            try await Task.sleep(for: .milliseconds(50))
            let passedEarly = passed.isSet
            #expect(!passedEarly, "over the bound: the caller waits")
            gate.signal()
            await waiter.value
            #expect(await eventually { executor.heldBytes == 5 }, "the jobs have run; the reservation still holds its bytes")
            executor.release(5)
            #expect(executor.heldBytes == 0)
        }

        /// Many callers waiting at once are let through a few at a time, as their
        /// reservations fill the bound, not all together when it first has room.
        @Test func reservationsAreLetThroughInOrderWhileThereIsRoom() async throws {
            let executor = ProcessingExecutor(width: 1, maximumHeldBytes: 100)
            await executor.reserve(100)  // full
            let admitted = Admitted()
            let waiters = (0..<10).map { index in
                Task {
                    await executor.reserve(40)
                    admitted.indices.withLock { $0.append(index) }
                }
            }
            #expect(await eventually { executor.waitingCount == 10 })
            executor.release(100)  // 0 held: lets through 40, 80, then 120 ≥ 100 stops
            #expect(await eventually { admitted.indices.withLock { $0.count } == 3 })
            try await Task.sleep(for: .milliseconds(50))
            #expect(admitted.indices.withLock { $0.count } == 3, "the bound stops the rest")
            #expect(executor.heldBytes == 120)
            executor.release(120)  // the next three
            #expect(await eventually { admitted.indices.withLock { $0.count } == 6 })
            executor.release(120)
            #expect(await eventually { admitted.indices.withLock { $0.count } == 9 })
            executor.release(120)  // the last
            for waiter in waiters { await waiter.value }
            #expect(Set(admitted.indices.withLock { $0 }) == Set(0..<10))
            #expect(executor.heldBytes == 40 && executor.waitingCount == 0)
        }

        @Test func threadsRunAtALowerPriority() async throws {
            let executor = ProcessingExecutor(width: 2, niceness: 5)
            let outside = ThreadPriority.currentNiceness()
            let inside = try #require(await executor.run(priority: .normal) { ThreadPriority.currentNiceness() })
            #if os(Linux)
            #expect(inside == min(19, outside + 5), "nice \(inside) inside, \(outside) outside")
            #endif
            #expect(ImagePipeline.Configuration.defaultProcessingWidth == ProcessInfo.processInfo.activeProcessorCount)
        }
    }
}

/// Which waiters a reservation test let through.
private final class Admitted: Sendable {
    let indices = Mutex<[Int]>([])
}
