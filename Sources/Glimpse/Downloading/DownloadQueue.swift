/// The order in which transfers start: a value-type state machine with no
/// I/O. Each event is a mutating method that returns the transfers the caller
/// must now start; the owner applies them outside its lock.
///
/// A transfer occupies a slot from ``enqueue(_:priority:)`` returning it until
/// ``finish(_:)``. Pending transfers start by priority, then by arrival
/// (FIFO) or reverse arrival (LIFO).
package struct DownloadQueue: Sendable {
    package typealias ID = Int

    private struct Entry: Sendable {
        var id: ID
        var priority: ImageDownloadPriority
        var sequence: Int
    }

    private var pending: [Entry] = []
    package private(set) var running: Set<ID> = []
    private var nextSequence = 0
    package var maximumConcurrent: Int
    package var order: ImageDownloader.Configuration.ExecutionOrder
    package private(set) var isSuspended = false

    package init(maximumConcurrent: Int, order: ImageDownloader.Configuration.ExecutionOrder) {
        self.maximumConcurrent = max(1, maximumConcurrent)
        self.order = order
    }

    package var pendingCount: Int { pending.count }

    /// Adds a transfer; returns those to start now.
    package mutating func enqueue(_ id: ID, priority: ImageDownloadPriority) -> [ID] {
        pending.append(Entry(id: id, priority: priority, sequence: nextSequence))
        nextSequence += 1
        return drain()
    }

    /// Changes a pending transfer's priority; false when it is not pending.
    @discardableResult
    package mutating func setPriority(_ id: ID, _ priority: ImageDownloadPriority) -> Bool {
        guard let index = pending.firstIndex(where: { $0.id == id }) else { return false }
        pending[index].priority = priority
        return true
    }

    /// Forgets a pending transfer; returns whether it was pending.
    package mutating func removePending(_ id: ID) -> Bool {
        guard let index = pending.firstIndex(where: { $0.id == id }) else { return false }
        pending.remove(at: index)
        return true
    }

    /// Frees a running transfer's slot; returns those to start now.
    package mutating func finish(_ id: ID) -> [ID] {
        guard running.remove(id) != nil else { return [] }
        return drain()
    }

    package mutating func suspend() { isSuspended = true }

    /// Starts what the current limit allows (after the limit changed).
    package mutating func startReady() -> [ID] { drain() }

    package mutating func resume() -> [ID] {
        isSuspended = false
        return drain()
    }

    /// Forgets every pending transfer and returns them.
    package mutating func removeAllPending() -> [ID] {
        defer { pending = [] }
        return pending.map(\.id)
    }

    private mutating func drain() -> [ID] {
        var started: [ID] = []
        while !isSuspended, running.count < maximumConcurrent, let index = nextIndex() {
            let entry = pending.remove(at: index)
            running.insert(entry.id)
            started.append(entry.id)
        }
        return started
    }

    /// The next entry: highest priority, then oldest (FIFO) or newest (LIFO).
    /// A linear scan: the pending list is short next to the cost of a transfer.
    private func nextIndex() -> Int? {
        var best: Int?
        for index in pending.indices {
            guard let current = best else { best = index; continue }
            let candidate = pending[index], chosen = pending[current]
            if candidate.priority != chosen.priority {
                if candidate.priority > chosen.priority { best = index }
            } else if (order == .fifo) == (candidate.sequence < chosen.sequence) {
                best = index
            }
        }
        return best
    }
}
