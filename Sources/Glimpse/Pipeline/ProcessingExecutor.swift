import Dispatch
import Foundation
import Synchronization
import GlimpseCache

/// A fixed number of threads of the pipeline's own that decode, process and
/// encode, so that this CPU-bound work never occupies Swift's cooperative pool
/// (whose few threads the rest of the process — request handlers in Vapor or
/// Hummingbird — needs to stay responsive) and never grows without bound as
/// GCD's queues would. The threads run at a lower scheduling priority
/// (`niceness`), so every core can decode while a request handler that wakes
/// still gets one at once.
///
/// Callers suspend on a continuation while their job waits and runs; a job
/// queued by a higher priority runs first, equal priorities in order. Idle
/// threads sleep on a semaphore (no polling); a thread is woken only when a
/// job arrives and some thread sleeps. A job is released (with the bytes it
/// captured) as soon as a thread takes it.
///
/// Jobs may declare the bytes they hold (`holding:`), and callers about to bring
/// bytes (a download) reserve room first (``reserve(_:)``): a reservation waits, in
/// order of arrival, while jobs and other reservations hold `maximumHeldBytes` or
/// more, which is how the pipeline stops downloading more bytes than it can decode
/// (back-pressure).
final class ProcessingExecutor: Sendable {
    typealias Job = @Sendable () -> Void

    /// One priority level's jobs, first in first out. A taken job's slot is cleared at once,
    /// so the job (and what it captured) is released when it has run, not when the queue empties.
    struct FIFO {
        private var jobs: [Job?] = []
        private var head = 0

        var isEmpty: Bool { head == jobs.count }

        mutating func append(_ job: @escaping Job) { jobs.append(job) }

        mutating func removeFirst() -> Job? {
            guard head < jobs.count else { return nil }
            let job = jobs[head]
            jobs[head] = nil
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: jobs.count <= 1024)
                head = 0
            } else if head >= 1024, head * 2 >= jobs.count {
                // A long queue that never empties: drop the cleared front.
                jobs.removeFirst(head)
                head = 0
            }
            return job
        }

        /// Slots of jobs not yet taken (for tests).
        var count: Int { jobs.count - head }
    }

    struct State {
        /// Pending jobs by priority (index = `ImageDownloadPriority.rawValue`).
        var queues: [FIFO] = Array(repeating: FIFO(), count: ImageDownloadPriority.allCases.count)
        var sleeping = 0
        var isStopped = false
        /// Bytes declared by jobs queued or running, and by reservations.
        var heldBytes = 0
        /// Callers of `reserve(_:)` waiting, first come first served, for `heldBytes` to
        /// fall below the bound; each adds its bytes when it is let through.
        var capacityWaiters: [(bytes: Int, continuation: CheckedContinuation<Void, Never>)] = []

        /// Lets waiters through, in order, while there is room; returns them to resume.
        mutating func admitWaiters(under bound: Int) -> [CheckedContinuation<Void, Never>] {
            var admitted = 0
            while admitted < capacityWaiters.count, heldBytes < bound || isStopped {
                heldBytes += capacityWaiters[admitted].bytes
                admitted += 1
            }
            defer { capacityWaiters.removeFirst(admitted) }
            return capacityWaiters.prefix(admitted).map(\.continuation)
        }

        mutating func next() -> Job? {
            for level in queues.indices.reversed() where !queues[level].isEmpty {
                return queues[level].removeFirst()
            }
            return nil
        }
    }

    /// Shared with the threads, which keep it alive until they end.
    private final class Shared: Sendable {
        let state = Lock(State())
        /// One signal per wake-up of a sleeping thread.
        let wake = DispatchSemaphore(value: 0)
        let maximumHeldBytes: Int

        init(maximumHeldBytes: Int) {
            self.maximumHeldBytes = maximumHeldBytes
        }

        /// A job or reservation that held `bytes` is done: lets waiters through while there is room.
        func release(_ bytes: Int) {
            guard bytes > 0 else { return }
            let waiters = state.withLock { state in
                state.heldBytes -= bytes
                return state.admitWaiters(under: maximumHeldBytes)
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// Set when the task waiting for a job is cancelled before the job starts.
    private final class CancellationFlag: Sendable {
        let isSet = Atomic<Bool>(false)
    }

    private let shared: Shared
    /// How many threads run jobs.
    let width: Int
    /// The bound ``reserve(_:)`` keeps the declared bytes of jobs and reservations under.
    var maximumHeldBytes: Int { shared.maximumHeldBytes }

    /// - Parameters:
    ///   - width: threads (at least one).
    ///   - niceness: how far below normal the threads run (setpriority(2); 0 for normal).
    ///   - maximumHeldBytes: see ``reserve(_:)``.
    ///   - name: the threads' name prefix, as `top -H`, `perf` and debuggers show
    ///     it (Linux keeps 15 bytes of a thread name, index included).
    init(width: Int, niceness: Int32 = 0, maximumHeldBytes: Int = .max, name: String = "glimpse.decode") {
        self.width = max(1, width)
        shared = Shared(maximumHeldBytes: max(1, maximumHeldBytes))
        for index in 0..<self.width {
            let shared = self.shared
            let threadName = "\(name)\(index)"
            let thread = Thread {
                Self.nameCurrentThread(threadName)
                ThreadPriority.lowerCurrentThread(by: niceness)
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
        stop()
    }

    /// Lets the threads end once the jobs queued now have run (``ImagePipeline/shutdown(deadline:)``
    /// and `deinit`). A job queued after this runs on the caller's thread instead: no thread
    /// may be left to take it, and its caller must not wait for ever. Idempotent.
    func stop() {
        let (sleepers, waiters) = shared.state.withLock { state -> (Int, [CheckedContinuation<Void, Never>]) in
            guard !state.isStopped else { return (0, []) }
            state.isStopped = true
            defer { state.sleeping = 0 }
            return (state.sleeping, state.admitWaiters(under: shared.maximumHeldBytes))
        }
        // Each sleeping thread wakes, finds the queue empty and stopped, and ends; running
        // ones see the flag after their job.
        for _ in 0..<sleepers { shared.wake.signal() }
        for waiter in waiters { waiter.resume() }
    }

    /// Queues `job`; it runs on one of the threads after the jobs of higher or
    /// equal priority queued before it. `bytes` count towards the held bytes
    /// until it has run.
    func enqueue(priority: ImageDownloadPriority, holding bytes: Int = 0, _ job: @escaping Job) {
        let held = max(0, bytes)
        let shared = self.shared
        var wrapped = job
        if held > 0 {
            wrapped = {
                job()
                shared.release(held)
            }
        }
        enum Placement { case queued(wakes: Bool), inline }
        let placement = shared.state.withLock { state -> Placement in
            if state.isStopped { return .inline }
            state.heldBytes += held
            state.queues[priority.rawValue].append(wrapped)
            guard state.sleeping > 0 else { return .queued(wakes: false) }
            state.sleeping -= 1
            return .queued(wakes: true)
        }
        switch placement {
        case .inline: job()
        case .queued(let wakes): if wakes { shared.wake.signal() }
        }
    }

    /// Runs `body` on the executor and returns its result; `nil` when the
    /// calling task was cancelled before the job started (it then never runs).
    func run<T: Sendable>(priority: ImageDownloadPriority, holding bytes: Int = 0,
                          _ body: @escaping @Sendable () -> T) async -> T? {
        let flag = CancellationFlag()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
                enqueue(priority: priority, holding: bytes) {
                    continuation.resume(returning: flag.isSet.load(ordering: .relaxed) ? nil : body())
                }
            }
        } onCancel: {
            flag.isSet.store(true, ordering: .relaxed)
        }
    }

    /// Reserves room for `bytes` the caller is about to bring (a download's body, as an
    /// estimate): returns at once when jobs and reservations hold less than
    /// `maximumHeldBytes` and nobody waits before it, else once earlier waiters have been
    /// let through and there is room again. The caller gives the bytes back with
    /// ``release(_:)`` when they are handed to a job or dropped. A reservation that
    /// would pass the bound is let through when there is any room, so one large body
    /// never waits for ever; what is held then exceeds the bound by at most that body.
    func reserve(_ bytes: Int) async {
        let held = max(0, bytes)
        let shared = self.shared
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = shared.state.withLock { state -> Bool in
                if state.capacityWaiters.isEmpty, state.heldBytes < shared.maximumHeldBytes || state.isStopped {
                    state.heldBytes += held
                    return true
                }
                state.capacityWaiters.append((held, continuation))
                return false
            }
            if admitted { continuation.resume() }
        }
    }

    /// Gives back bytes of a ``reserve(_:)``, letting waiters through while there is room.
    func release(_ bytes: Int) {
        shared.release(max(0, bytes))
    }

    /// Bytes declared by jobs queued or running, and reserved, now.
    var heldBytes: Int { shared.state.withLock { $0.heldBytes } }

    /// Callers of ``reserve(_:)`` waiting for room (for tests).
    var waitingCount: Int { shared.state.withLock { $0.capacityWaiters.count } }

    /// Jobs queued and not yet taken by a thread.
    var queuedCount: Int { shared.state.withLock { $0.queues.reduce(0) { $0 + $1.count } } }
}
