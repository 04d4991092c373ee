/// Work shared by everyone who asks for the same thing at once: the pipeline's
/// loads (one per variant) and decodes (one per original and decode plan).
///
/// A pure state machine, held in a mutex by its owner, which acts on its
/// answers outside the lock: ``attach(_:_:priority:)`` says when to start the
/// work, ``detach(_:)`` hands back the work's handle to cancel when its last
/// waiter left, ``setPriority(_:of:)`` says when the work's priority — its
/// waiters' highest — changed, and ``finish(_:work:)`` gives the waiters to
/// complete. Work ids tell a finished work from a newer one under the same key.
struct CoalescingTable<Key: Hashable & Sendable, Waiter: Sendable, Handle: Sendable, Priority: Comparable & Sendable>: Sendable {
    struct Entry: Sendable {
        var waiter: Waiter
        var priority: Priority
    }

    struct Work: Sendable {
        var id: UInt64
        var waiters: [UInt64: Entry]
        /// What the owner needs to steer the running work (a task to cancel, a download to re-prioritise).
        var handle: Handle?

        /// The highest priority of its waiters (`nil` without any).
        var priority: Priority? { waiters.values.map(\.priority).max() }
    }

    private(set) var works: [Key: Work] = [:]
    private var workOfWaiter: [UInt64: Key] = [:]
    private var nextID: UInt64 = 1

    /// Adds a waiter; returns its id, and the new work's id when the work must be started.
    mutating func attach(_ key: Key, _ waiter: Waiter, priority: Priority) -> (waiter: UInt64, newWork: UInt64?) {
        let id = nextID
        nextID += 1
        workOfWaiter[id] = key
        let entry = Entry(waiter: waiter, priority: priority)
        if works[key] != nil {
            works[key]?.waiters[id] = entry
            return (id, nil)
        }
        let work = nextID
        nextID += 1
        works[key] = Work(id: work, waiters: [id: entry])
        return (id, work)
    }

    /// Changes the handle of a work; `false` when the work is gone (every waiter left first),
    /// so the owner must cancel what the handle stands for.
    @discardableResult
    mutating func updateHandle(_ key: Key, work: UInt64, _ update: (inout Handle?) -> Void) -> Bool {
        guard var entry = works[key], entry.id == work else { return false }
        update(&entry.handle)
        works[key] = entry
        return true
    }

    /// Changes a waiter's priority; returns the work's handle and new priority when the
    /// work's priority changed.
    mutating func setPriority(_ priority: Priority, of waiter: UInt64) -> (handle: Handle?, priority: Priority)? {
        guard let key = workOfWaiter[waiter], let before = works[key]?.priority else { return nil }
        works[key]?.waiters[waiter]?.priority = priority
        guard let work = works[key], let after = work.priority, after != before else { return nil }
        return (work.handle, after)
    }

    /// The priority of the work under `key` (of id `work`, when given); `nil` when it is gone.
    func priority(of key: Key, work: UInt64? = nil) -> Priority? {
        guard let entry = works[key], work == nil || entry.id == work else { return nil }
        return entry.priority
    }

    /// Detaches a waiter; returns it and, when it was the last one, the handle of the work,
    /// which is then gone (the owner cancels it).
    mutating func detach(_ waiter: UInt64) -> (waiter: Waiter, orphaned: Handle?)? {
        guard let key = workOfWaiter.removeValue(forKey: waiter),
              let entry = works[key]?.waiters.removeValue(forKey: waiter) else { return nil }
        guard works[key]?.waiters.isEmpty == true else { return (entry.waiter, nil) }
        let handle = works.removeValue(forKey: key)?.handle
        return (entry.waiter, handle)
    }

    /// Every waiter's id.
    var allWaiters: [UInt64] { Array(workOfWaiter.keys) }

    /// The waiters of a running work.
    func waiters(of key: Key, work: UInt64) -> [Waiter] {
        guard let entry = works[key], entry.id == work else { return [] }
        return entry.waiters.values.map(\.waiter)
    }

    /// Ends a work; returns its waiters to complete (none when it is gone already).
    mutating func finish(_ key: Key, work: UInt64) -> [Waiter] {
        guard let entry = works[key], entry.id == work else { return [] }
        works[key] = nil
        for waiter in entry.waiters.keys { workOfWaiter[waiter] = nil }
        return entry.waiters.values.map(\.waiter)
    }
}
