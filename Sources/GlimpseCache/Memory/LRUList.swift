/// The value-type core shared by the memory cache and the disk index: a hash map from key
/// to slot plus a doubly linked recency list threaded through one array by slot index.
///
/// No node is a class instance, so the whole structure lives in two allocations and can sit
/// inside a `Mutex` without `@unchecked Sendable`. Removal swaps the last slot into the hole,
/// which keeps the array dense and every operation O(1).
struct LRUList<Key: Hashable, Value> {
    struct Node {
        var key: Key
        var value: Value
        var cost: Int
        /// Absolute expiry on the owner's clock; `nil` = never.
        var expiry: Duration?
        /// Neighbour towards the most recently used end (`-1` = none).
        var newer: Int
        /// Neighbour towards the least recently used end (`-1` = none).
        var older: Int
    }

    private(set) var nodes: [Node] = []
    private var slots: [Key: Int] = [:]
    /// Most recently used slot.
    private(set) var newest = -1
    /// Least recently used slot.
    private(set) var oldest = -1
    private(set) var totalCost = 0

    var count: Int { nodes.count }
    var isEmpty: Bool { nodes.isEmpty }

    init(minimumCapacity: Int = 0) {
        nodes.reserveCapacity(minimumCapacity)
        slots.reserveCapacity(minimumCapacity)
    }

    func slot(for key: Key) -> Int? { slots[key] }

    func contains(_ key: Key) -> Bool { slots[key] != nil }

    /// Looks up `key` and, when found, marks it most recently used.
    mutating func touch(_ key: Key) -> Int? {
        guard let slot = slots[key] else { return nil }
        moveToFront(slot)
        return slot
    }

    /// Edits an entry's value in place without changing its recency.
    mutating func update(_ slot: Int, _ body: (inout Value) -> Void) {
        body(&nodes[slot].value)
    }

    /// Reads an entry without changing its recency.
    func peek(_ key: Key) -> Node? {
        guard let slot = slots[key] else { return nil }
        return nodes[slot]
    }

    /// Inserts or replaces `key` as the most recently used entry; returns the replaced value.
    @discardableResult
    mutating func insert(_ key: Key, value: Value, cost: Int, expiry: Duration?) -> Value? {
        if let slot = slots[key] {
            let old = nodes[slot].value
            totalCost += cost - nodes[slot].cost
            nodes[slot].value = value
            nodes[slot].cost = cost
            nodes[slot].expiry = expiry
            moveToFront(slot)
            return old
        }
        let slot = nodes.count
        nodes.append(Node(key: key, value: value, cost: cost, expiry: expiry, newer: -1, older: newest))
        slots[key] = slot
        if newest >= 0 { nodes[newest].newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
        totalCost += cost
        return nil
    }

    /// Inserts `key` as the least recently used entry (used when merging a scanned index, whose
    /// entries are older than anything touched since the cache opened). No-op when present.
    mutating func insertAsOldest(_ key: Key, value: Value, cost: Int, expiry: Duration?) {
        guard slots[key] == nil else { return }
        let slot = nodes.count
        nodes.append(Node(key: key, value: value, cost: cost, expiry: expiry, newer: oldest, older: -1))
        slots[key] = slot
        if oldest >= 0 { nodes[oldest].older = slot }
        oldest = slot
        if newest < 0 { newest = slot }
        totalCost += cost
    }

    @discardableResult
    mutating func remove(_ key: Key) -> Node? {
        guard let slot = slots[key] else { return nil }
        return removeSlot(slot)
    }

    /// Removes and returns the least recently used entry.
    mutating func removeOldest() -> Node? {
        oldest >= 0 ? removeSlot(oldest) : nil
    }

    mutating func removeAll(keepingCapacity: Bool = false) {
        nodes.removeAll(keepingCapacity: keepingCapacity)
        slots.removeAll(keepingCapacity: keepingCapacity)
        newest = -1
        oldest = -1
        totalCost = 0
    }

    /// Keys from most to least recently used (tests and index snapshots).
    func keysByRecency() -> [Key] {
        var keys: [Key] = []
        keys.reserveCapacity(nodes.count)
        var slot = newest
        while slot >= 0 {
            keys.append(nodes[slot].key)
            slot = nodes[slot].older
        }
        return keys
    }

    private mutating func moveToFront(_ slot: Int) {
        guard slot != newest else { return }
        unlink(slot)
        nodes[slot].older = newest
        nodes[slot].newer = -1
        if newest >= 0 { nodes[newest].newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let newer = nodes[slot].newer, older = nodes[slot].older
        if newer >= 0 { nodes[newer].older = older } else { newest = older }
        if older >= 0 { nodes[older].newer = newer } else { oldest = newer }
    }

    private mutating func removeSlot(_ slot: Int) -> Node {
        unlink(slot)
        totalCost -= nodes[slot].cost
        slots[nodes[slot].key] = nil
        let last = nodes.count - 1
        if slot != last {
            // Move the last node into the hole and repoint everything that referred to it.
            nodes.swapAt(slot, last)
            let moved = nodes[slot]
            slots[moved.key] = slot
            if moved.newer >= 0 { nodes[moved.newer].older = slot } else { newest = slot }
            if moved.older >= 0 { nodes[moved.older].newer = slot } else { oldest = slot }
        }
        return nodes.removeLast()
    }
}
