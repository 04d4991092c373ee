import Dispatch
import Foundation
import Synchronization

/// A serial queue of blocking jobs (disk writes) on one dedicated thread that runs at a lower
/// scheduling priority (nice +10).
///
/// Linux's libdispatch ignores quality-of-service classes, so a `.utility` queue competes with
/// foreground loads as an equal: measured, background writes then took CPU time the loads
/// were waiting for. A niced thread gets the CPU when the loads leave it idle, and the
/// bounded queue in `ImageCache` makes stores wait if it falls too far behind.
final class BackgroundWriter: Sendable {
    /// Shared by the writer and its thread; the thread keeps it alive until it has run every
    /// job queued before the writer was released.
    private final class Jobs: Sendable {
        let state = Mutex<[@Sendable () -> Void]>([])
        let ready = DispatchSemaphore(value: 0)

        func run() {
            // On Linux the nice value is per thread, and PRIO_PROCESS with 0 means the calling
            // thread (setpriority(2), NOTES). Failure only leaves the thread at normal priority.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
            while true {
                ready.wait()
                let next = state.withLock { jobs -> (@Sendable () -> Void)? in
                    jobs.isEmpty ? nil : jobs.removeFirst()
                }
                // Every job comes with one signal, in order, so the queue is empty at a wake-up
                // only for the stop signal, which follows every job queued before it.
                guard let next else { return }
                next()
            }
        }
    }

    private let jobs = Jobs()

    init(name: String) {
        let thread = Thread { [jobs] in jobs.run() }
        thread.name = name
        thread.start()
    }

    deinit {
        // A signal with no job: the thread ends once it has run every queued job.
        jobs.ready.signal()
    }

    /// Runs `job` on the writer thread after every job queued before it.
    func async(_ job: @escaping @Sendable () -> Void) {
        jobs.state.withLock { $0.append(job) }
        jobs.ready.signal()
    }

    /// Blocks until every job queued before the call has run. Never call it from a job.
    func sync() {
        let done = DispatchSemaphore(value: 0)
        async { done.signal() }
        done.wait()
    }
}
