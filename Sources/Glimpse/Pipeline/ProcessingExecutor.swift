import Dispatch
import Foundation
import Synchronization

/// A fixed number of threads of the pipeline's own that decode, process and
/// encode, so that this CPU-bound work never occupies Swift's cooperative pool
/// (whose few threads the rest of the process — request handlers in Vapor or
/// Hummingbird — needs to stay responsive) and never grows without bound as
/// GCD's queues would.
///
/// Callers suspend on a continuation while their job waits and runs; a job
/// queued by a higher priority runs first, equal priorities in order. Idle
/// threads sleep on a semaphore (no polling); a thread is woken only when a
/// job arrives and some thread sleeps.
final class ProcessingExecutor: Sendable {
    typealias Job = @Sendable () -> Void

    private struct State {
        /// Pending jobs by priority (index = `ImageDownloadPriority.rawValue`), each a FIFO.
        var queues: [[Job]] = Array(repeating: [], count: ImageDownloadPriority.allCases.count)
        /// Read position of each FIFO (dequeuing from the front without shifting).
        var heads: [Int] = Array(repeating: 0, count: ImageDownloadPriority.allCases.count)
        var sleeping = 0
        var isStopped = false

        mutating func next() -> Job? {
            for level in queues.indices.reversed() where heads[level] < queues[level].count {
                let job = queues[level][heads[level]]
                heads[level] += 1
                if heads[level] == queues[level].count {
                    queues[level].removeAll(keepingCapacity: true)
                    heads[level] = 0
                }
                return job
            }
            return nil
        }
    }

    /// Shared with the threads, which keep it alive until they end.
    private final class Shared: Sendable {
        let state = Mutex(State())
        /// One signal per wake-up of a sleeping thread.
        let wake = DispatchSemaphore(value: 0)
    }

    /// Set when the task waiting for a job is cancelled before the job starts.
    private final class CancellationFlag: Sendable {
        let isSet = Atomic<Bool>(false)
    }

    private let shared: Shared
    /// How many threads run jobs.
    let width: Int

    /// - Parameters:
    ///   - width: threads (at least one).
    ///   - name: the threads' name prefix, as `top -H`, `perf` and debuggers show
    ///     it (Linux keeps 15 bytes of a thread name, index included).
    init(width: Int, name: String = "glimpse.decode") {
        self.width = max(1, width)
        shared = Shared()
        for index in 0..<self.width {
            let shared = self.shared
            let threadName = "\(name)\(index)"
            let thread = Thread {
                Self.nameCurrentThread(threadName)
                Self.loop(shared)
            }
            thread.name = threadName
            // Decoders recurse little, but large images use deep call chains in the codecs.
            thread.stackSize = 4 << 20
            thread.start()
        }
    }

    /// corelibs' `Thread.name` does not reach the kernel's name of the thread
    /// (which new threads inherit from their creator, often a GCD worker):
    /// written here, from the thread itself.
    private static func nameCurrentThread(_ name: String) {
        #if os(Linux)
        let comm = String(name.utf8.prefix(15)) ?? name
        guard let handle = FileHandle(forWritingAtPath: "/proc/thread-self/comm") else { return }
        handle.write(Data(comm.utf8))
        try? handle.close()
        #endif
    }

    private static func loop(_ shared: Shared) {
        while true {
            enum Step { case run(Job), sleep, stop }
            let step: Step = shared.state.withLock { state in
                if let job = state.next() { return .run(job) }
                if state.isStopped { return .stop }
                state.sleeping += 1
                return .sleep
            }
            switch step {
            case .run(let job): job()
            case .sleep: shared.wake.wait()
            case .stop: return
            }
        }
    }

    deinit {
        let sleepers = shared.state.withLock { state -> Int in
            state.isStopped = true
            defer { state.sleeping = 0 }
            return state.sleeping
        }
        // Each sleeping thread wakes, finds the queue empty and stopped, and ends; running
        // ones see the flag after their job.
        for _ in 0..<sleepers { shared.wake.signal() }
    }

    /// Queues `job`; it runs on one of the threads after the jobs of higher or
    /// equal priority queued before it.
    func enqueue(priority: ImageDownloadPriority, _ job: @escaping Job) {
        let wakes = shared.state.withLock { state -> Bool in
            state.queues[priority.rawValue].append(job)
            guard state.sleeping > 0 else { return false }
            state.sleeping -= 1
            return true
        }
        if wakes { shared.wake.signal() }
    }

    /// Runs `body` on the executor and returns its result; `nil` when the
    /// calling task was cancelled before the job started (it then never runs).
    func run<T: Sendable>(priority: ImageDownloadPriority, _ body: @escaping @Sendable () -> T) async -> T? {
        let flag = CancellationFlag()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
                enqueue(priority: priority) {
                    continuation.resume(returning: flag.isSet.load(ordering: .relaxed) ? nil : body())
                }
            }
        } onCancel: {
            flag.isSet.store(true, ordering: .relaxed)
        }
    }
}
