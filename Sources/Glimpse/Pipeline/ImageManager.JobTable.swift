/// The loads in flight, each shared by its waiters (a pure state machine;
/// the manager holds it in a mutex and acts on its answers outside the lock).
extension ImageManager {
    struct JobTable: Sendable {
        struct Key: Hashable, Sendable {
            var memoryKey: String
            var behaviour: Int
        }

        struct Job: Sendable {
            var id: UInt64
            var waiters: [UInt64: LoadCallbacks]
            var task: Task<Void, Never>?
        }

        private(set) var jobs: [Key: Job] = [:]
        private var jobOfWaiter: [UInt64: Key] = [:]
        private var nextID: UInt64 = 1

        /// Adds a waiter; returns its id and the new job's id when a job must be started.
        mutating func attach(_ key: Key, _ callbacks: LoadCallbacks) -> (waiter: UInt64, newJob: UInt64?) {
            let waiter = nextID
            nextID += 1
            jobOfWaiter[waiter] = key
            if jobs[key] != nil {
                jobs[key]?.waiters[waiter] = callbacks
                return (waiter, nil)
            }
            let job = nextID
            nextID += 1
            jobs[key] = Job(id: job, waiters: [waiter: callbacks], task: nil)
            return (waiter, job)
        }

        /// Records the task of a started job; `false` when the job is already gone
        /// (every waiter cancelled first), so the task must be cancelled.
        mutating func setTask(_ task: Task<Void, Never>, key: Key, job: UInt64) -> Bool {
            guard jobs[key]?.id == job else { return false }
            jobs[key]?.task = task
            return true
        }

        /// Detaches a waiter; returns its callbacks and, when it was the last
        /// one, the job's task to cancel.
        mutating func detach(_ waiter: UInt64) -> (callbacks: LoadCallbacks, orphanedTask: Task<Void, Never>?)? {
            guard let key = jobOfWaiter.removeValue(forKey: waiter),
                  let callbacks = jobs[key]?.waiters.removeValue(forKey: waiter) else { return nil }
            guard jobs[key]?.waiters.isEmpty == true else { return (callbacks, nil) }
            let task = jobs.removeValue(forKey: key)?.task
            return (callbacks, task)
        }

        /// The waiters of a running job, for progress.
        func waiters(of key: Key, job: UInt64) -> [LoadCallbacks] {
            guard let entry = jobs[key], entry.id == job else { return [] }
            return Array(entry.waiters.values)
        }

        /// Ends a job; returns the waiters to complete.
        mutating func finish(_ key: Key, job: UInt64) -> [LoadCallbacks] {
            guard let entry = jobs[key], entry.id == job else { return [] }
            jobs[key] = nil
            for waiter in entry.waiters.keys { jobOfWaiter[waiter] = nil }
            return Array(entry.waiters.values)
        }

        /// Whether a waiter still waits.
        func isWaiting(_ waiter: UInt64) -> Bool { jobOfWaiter[waiter] != nil }
    }
}
