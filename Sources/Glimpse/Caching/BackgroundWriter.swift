import Dispatch
import Foundation
import Synchronization
import GlimpseCache

/// A serial queue of blocking jobs (disk writes) on one dedicated thread that runs at a lower
/// scheduling priority (nice +10).
///
/// Linux's libdispatch ignores quality-of-service classes, so a `.utility` queue competes with
/// foreground loads as an equal: measured, background writes then took CPU time the loads
/// were waiting for. A niced thread gets the CPU when the loads leave it idle, and the
/// bounded queue in `ImageCache` makes stores wait if it falls too far behind.
///
/// The thread takes every queued job at once and is woken only when it sleeps: a job queued
/// while it works costs no futex wake-up, inter-processor interrupt or context switch (which
/// profiles of `bench-pipeline` showed costing about half as much as the write it carried),
/// and since the niced thread mostly runs behind the loads, it usually finds a batch.
final class BackgroundWriter: Sendable {
    typealias Job = @Sendable () -> Void

    private struct State {
        var jobs: [Job] = []
        /// The thread waits for a job: the next one must wake it.
        var isSleeping = false
        /// The writer was released: the thread ends once the queue is empty.
        var isStopped = false
    }

    /// Shared by the writer and its thread; the thread keeps it alive until it has run every
    /// job queued before the writer was released.
    private final class Shared: Sendable {
        let state = Lock(State())
        /// One signal per wake-up of a sleeping thread, plus one on release.
        let wake = DispatchSemaphore(value: 0)

        func run() {
            ThreadPriority.lowerCurrentThread(by: 10)
            var batch: [Job] = []
            while true {
                let stop = state.withLock { state -> Bool in
                    swap(&batch, &state.jobs)
                    guard batch.isEmpty else { return false }
                    if state.isStopped { return true }
                    state.isSleeping = true
                    return false
                }
                if stop { return }
                if batch.isEmpty {
                    wake.wait()
                    continue
                }
                for job in batch { job() }
                // Keeps the array's storage for the next swap.
                batch.removeAll(keepingCapacity: true)
            }
        }
    }

    private let shared = Shared()

    init(name: String) {
        let thread = Thread { [shared] in shared.run() }
        thread.name = name
        thread.start()
    }

    deinit {
        shared.state.withLock { $0.isStopped = true }
        // The thread runs every queued job, then ends.
        shared.wake.signal()
    }

    /// Runs `job` on the writer thread after every job queued before it.
    func async(_ job: @escaping Job) {
        let wakes = shared.state.withLock { state -> Bool in
            state.jobs.append(job)
            guard state.isSleeping else { return false }
            state.isSleeping = false
            return true
        }
        if wakes { shared.wake.signal() }
    }

    /// Blocks until every job queued before the call has run. Never call it from a job.
    func sync() {
        let done = DispatchSemaphore(value: 0)
        async { done.signal() }
        done.wait()
    }
}
