/// The loads in flight, each shared by its waiters (a pure state machine;
/// the pipeline holds it in a mutex and acts on its answers outside the lock).
extension ImagePipeline {
    struct JobTable: Sendable {
        struct Key: Hashable, Sendable {
            var memoryKey: String
            var behaviour: Int
            var headers: [String: String]
        }

        struct Waiter: Sendable {
            var callbacks: LoadCallbacks
            var priority: ImageDownloadPriority
        }

        struct Job: Sendable {
            var id: UInt64
            var waiters: [UInt64: Waiter]
            var task: Task<Void, Never>?
            /// The loader's handle while the job downloads, for priority changes.
            var loading: (any ImageDataLoadingTask)?

            /// The highest priority of its waiters.
            var priority: ImageDownloadPriority { waiters.values.map(\.priority).max() ?? .normal }
        }

        private(set) var jobs: [Key: Job] = [:]
        private var jobOfWaiter: [UInt64: Key] = [:]
        private var nextID: UInt64 = 1

        /// Adds a waiter; returns its id and the new job's id when a job must be started.
        mutating func attach(_ key: Key, _ callbacks: LoadCallbacks,
                             priority: ImageDownloadPriority) -> (waiter: UInt64, newJob: UInt64?) {
            let waiter = nextID
            nextID += 1
            jobOfWaiter[waiter] = key
            let entry = Waiter(callbacks: callbacks, priority: priority)
            if jobs[key] != nil {
                jobs[key]?.waiters[waiter] = entry
                return (waiter, nil)
            }
            let job = nextID
            nextID += 1
            jobs[key] = Job(id: job, waiters: [waiter: entry], task: nil)
            return (waiter, job)
        }

        /// Records the task of a started job; `false` when the job is already gone
        /// (every waiter cancelled first), so the task must be cancelled.
        mutating func setTask(_ task: Task<Void, Never>, key: Key, job: UInt64) -> Bool {
            guard jobs[key]?.id == job else { return false }
            jobs[key]?.task = task
            return true
        }

        /// Records (or clears) the loader's handle of a job; returns the job's priority.
        mutating func setLoading(_ loading: (any ImageDataLoadingTask)?, key: Key, job: UInt64) -> ImageDownloadPriority? {
            guard jobs[key]?.id == job else { return nil }
            jobs[key]?.loading = loading
            return jobs[key]?.priority
        }

        /// Changes a waiter's priority; returns the job's loader handle and new
        /// priority when the job's priority changed while it loads.
        mutating func setPriority(_ priority: ImageDownloadPriority,
                                  of waiter: UInt64) -> (any ImageDataLoadingTask, ImageDownloadPriority)? {
            guard let key = jobOfWaiter[waiter], let before = jobs[key]?.priority else { return nil }
            jobs[key]?.waiters[waiter]?.priority = priority
            guard let job = jobs[key], job.priority != before, let loading = job.loading else { return nil }
            return (loading, job.priority)
        }

        /// The priority of the job `key`, `nil` when it is gone.
        func priority(of key: Key, job: UInt64) -> ImageDownloadPriority? {
            guard let entry = jobs[key], entry.id == job else { return nil }
            return entry.priority
        }

        /// Detaches a waiter; returns its callbacks and, when it was the last
        /// one, the job's task to cancel.
        mutating func detach(_ waiter: UInt64) -> (callbacks: LoadCallbacks, orphanedTask: Task<Void, Never>?)? {
            guard let key = jobOfWaiter.removeValue(forKey: waiter),
                  let entry = jobs[key]?.waiters.removeValue(forKey: waiter) else { return nil }
            guard jobs[key]?.waiters.isEmpty == true else { return (entry.callbacks, nil) }
            let task = jobs.removeValue(forKey: key)?.task
            return (entry.callbacks, task)
        }

        /// Every waiter, for ``ImagePipeline/cancelAll()``.
        var allWaiters: [UInt64] { Array(jobOfWaiter.keys) }

        /// The waiters of a running job, for progress.
        func waiters(of key: Key, job: UInt64) -> [LoadCallbacks] {
            guard let entry = jobs[key], entry.id == job else { return [] }
            return entry.waiters.values.map(\.callbacks)
        }

        /// Ends a job; returns the waiters to complete.
        mutating func finish(_ key: Key, job: UInt64) -> [LoadCallbacks] {
            guard let entry = jobs[key], entry.id == job else { return [] }
            jobs[key] = nil
            for waiter in entry.waiters.keys { jobOfWaiter[waiter] = nil }
            return entry.waiters.values.map(\.callbacks)
        }

        /// Whether a waiter still waits.
        func isWaiting(_ waiter: UInt64) -> Bool { jobOfWaiter[waiter] != nil }
    }
}
