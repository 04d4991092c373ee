/// The disk index's value-type core: a hash map from key to slot plus a doubly linked
/// recency list threaded through one array by slot index. (The memory cache uses
/// `StampedLRU`, whose hits do not relink shared nodes.)
///
/// No node is a class instance, so the whole structure lives in two allocations and can sit
/// inside a `Mutex` without `@unchecked Sendable`. Removal swaps the last slot into the hole,
/// which keeps the array dense and every operation O(1).
@usableFromInline
struct LRUList<Key: Hashable, Value> {
    @usableFromInline
    struct Node {
        @usableFromInline var key: Key
        @usableFromInline var value: Value
        @usableFromInline var cost: Int
        /// Neighbour towards the most recently used end (`-1` = none).
        @usableFromInline var newer: Int
        /// Neighbour towards the least recently used end (`-1` = none).
        @usableFromInline var older: Int

        @inlinable
        init(key: Key, value: Value, cost: Int, newer: Int, older: Int) {
            self.key = key
            self.value = value
            self.cost = cost
            self.newer = newer
            self.older = older
        }
    }

    @usableFromInline var nodes: [Node] = []
    @usableFromInline var slots: [Key: Int] = [:]
    /// Most recently used slot.
    @usableFromInline var newest = -1
    /// Least recently used slot.
    @usableFromInline var oldest = -1
    @usableFromInline var totalCost = 0

    @inlinable var count: Int { nodes.count }
    @inlinable var isEmpty: Bool { nodes.isEmpty }

    @inlinable
    init(minimumCapacity: Int = 0) {
        nodes.reserveCapacity(minimumCapacity)
        slots.reserveCapacity(minimumCapacity)
    }

    @inlinable
    func contains(_ key: Key) -> Bool { slots[key] != nil }

    /// Looks up `key` and, when found, marks it most recently used.
    @inlinable
    mutating func touch(_ key: Key) -> Int? {
        guard let slot = slots[key] else { return nil }
        moveToFront(slot)
        return slot
    }

    /// Edits an entry's value in place without changing its recency.
    @inlinable
    mutating func update(_ slot: Int, _ body: (inout Value) -> Void) {
        body(&nodes[slot].value)
    }

    /// Inserts or replaces `key` as the most recently used entry; returns the replaced value.
    @inlinable @discardableResult
    mutating func insert(_ key: Key, value: Value, cost: Int) -> Value? {
        if let slot = slots[key] {
            let old = nodes[slot].value
            totalCost += cost - nodes[slot].cost
            nodes[slot].value = value
            nodes[slot].cost = cost
            moveToFront(slot)
            return old
        }
        let slot = nodes.count
        nodes.append(Node(key: key, value: value, cost: cost, newer: -1, older: newest))
        slots[key] = slot
        if newest >= 0 { nodes[newest].newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
        totalCost += cost
        return nil
    }

    /// Inserts `key` as the least recently used entry (used when merging a scanned index, whose
    /// entries are older than anything touched since the cache opened). No-op when present.
    @inlinable
    mutating func insertAsOldest(_ key: Key, value: Value, cost: Int) {
        guard slots[key] == nil else { return }
        let slot = nodes.count
        nodes.append(Node(key: key, value: value, cost: cost, newer: oldest, older: -1))
        slots[key] = slot
        if oldest >= 0 { nodes[oldest].older = slot }
        oldest = slot
        if newest < 0 { newest = slot }
        totalCost += cost
    }

    @inlinable @discardableResult
    mutating func remove(_ key: Key) -> Node? {
        guard let slot = slots[key] else { return nil }
        return removeSlot(slot)
    }

    /// Removes and returns the least recently used entry.
    @inlinable
    mutating func removeOldest() -> Node? {
        oldest >= 0 ? removeSlot(oldest) : nil
    }

    @inlinable
    mutating func removeAll(keepingCapacity: Bool = false) {
        nodes.removeAll(keepingCapacity: keepingCapacity)
        slots.removeAll(keepingCapacity: keepingCapacity)
        newest = -1
        oldest = -1
        totalCost = 0
    }

    /// Keys from most to least recently used (tests and index snapshots).
    @inlinable
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

    @inlinable
    mutating func moveToFront(_ slot: Int) {
        guard slot != newest else { return }
        unlink(slot)
        nodes[slot].older = newest
        nodes[slot].newer = -1
        if newest >= 0 { nodes[newest].newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }

    @inlinable
    mutating func unlink(_ slot: Int) {
        let newer = nodes[slot].newer, older = nodes[slot].older
        if newer >= 0 { nodes[newer].older = older } else { newest = older }
        if older >= 0 { nodes[older].newer = newer } else { oldest = newer }
    }

    @inlinable
    mutating func removeSlot(_ slot: Int) -> Node {
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
