import Dispatch
import Foundation
import Synchronization

/// A serial queue of blocking jobs (disk writes) on one dedicated thread that runs at a lower
/// scheduling priority (nice +10), woken once per batch of jobs rather than once per job.
///
/// Linux's libdispatch ignores quality-of-service classes, so a `.utility` queue competes with
/// foreground loads as an equal: measured, background writes then took CPU time the loads
/// were waiting for. A niced thread gets the CPU when the loads leave it idle, and the
/// bounded queue in `ImageCache` makes stores wait if it falls too far behind.
///
/// Waking a sleeping thread costs the job's producer a futex wake (and an inter-processor
/// interrupt) and the thread a context switch, which profiles of `bench-pipeline` showed
/// costing about half as much as the write it carried. So after a batch the thread lingers
/// for ``lingering`` with a deadline: jobs queued meanwhile wait for that deadline instead of
/// waking it, and it sleeps without a deadline only after a lingering period brought nothing.
/// Urgent jobs (someone waits for them) wake it at once.
final class BackgroundWriter: Sendable {
    typealias Job = @Sendable () -> Void

    private struct State {
        var jobs: [Job] = []
        /// The thread waits without a deadline: the next job must wake it.
        var isSleeping = false
        /// The writer was released: the thread ends once the queue is empty.
        var isStopped = false
    }

    /// Shared by the writer and its thread; the thread keeps it alive until it has run every
    /// job queued before the writer was released.
    private final class Shared: Sendable {
        let state = Mutex(State())
        /// Signalled when a job arrives for a sleeping thread, for urgent jobs, and on release.
        /// Extra signals only cost the thread an early look at an empty queue.
        let wake = DispatchSemaphore(value: 0)
        let lingering: DispatchTimeInterval

        init(lingering: DispatchTimeInterval) {
            self.lingering = lingering
        }

        func run() {
            // On Linux the nice value is per thread, and PRIO_PROCESS with 0 means the calling
            // thread (setpriority(2), NOTES). Failure only leaves the thread at normal priority.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
            var batch: [Job] = []
            // Whether the last wait was a lingering one (with a deadline).
            var lingered = false
            while true {
                let stop = state.withLock { state -> Bool in
                    swap(&batch, &state.jobs)
                    guard batch.isEmpty else { return false }
                    if state.isStopped { return true }
                    // A lingering period brought nothing: sleep until a job wakes the thread.
                    if lingered { state.isSleeping = true }
                    return false
                }
                if stop { return }
                if batch.isEmpty {
                    if lingered {
                        wake.wait()
                        lingered = false
                    } else {
                        _ = wake.wait(timeout: .now() + lingering)
                        lingered = true
                    }
                    continue
                }
                for job in batch { job() }
                // Keeps the array's storage for the next swap.
                batch.removeAll(keepingCapacity: true)
                _ = wake.wait(timeout: .now() + lingering)
                lingered = true
            }
        }
    }

    private let shared: Shared

    /// - Parameter lingering: how long the thread waits for more jobs after a batch before it
    ///   sleeps; a non-urgent job starts at most this much later than it would otherwise.
    init(name: String, lingering: DispatchTimeInterval = .milliseconds(2)) {
        let shared = Shared(lingering: lingering)
        self.shared = shared
        let thread = Thread { shared.run() }
        thread.name = name
        thread.start()
    }

    deinit {
        shared.state.withLock { $0.isStopped = true }
        // The thread runs every queued job, then ends.
        shared.wake.signal()
    }

    /// Runs `job` on the writer thread after every job queued before it. An `urgent` job wakes
    /// the thread at once; another may wait up to the lingering time for the current batch.
    func async(urgent: Bool = false, _ job: @escaping Job) {
        let wakes = shared.state.withLock { state -> Bool in
            state.jobs.append(job)
            guard state.isSleeping || urgent else { return false }
            state.isSleeping = false
            return true
        }
        if wakes { shared.wake.signal() }
    }

    /// Blocks until every job queued before the call has run. Never call it from a job.
    func sync() {
        let done = DispatchSemaphore(value: 0)
        async(urgent: true) { done.signal() }
        done.wait()
    }
}
