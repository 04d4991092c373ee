/// The memory cache's value-type core: an exact least-recently-used map whose hits write no
/// memory that a hit on another CPU writes too, apart from the caller's lock and counters.
///
/// A doubly linked recency list (`LRUList`) relinks three or four nodes on every hit, and the
/// nodes a hit relinks were last written by whichever thread touched them or their neighbours:
/// with two threads, about half of those writes pull a cache line from the other core
/// (measured: two threads together did 0.83× the hits of one). Here a hit only stamps the entry
/// in its *lane* and appends `(slot, stamp)` to that lane's access log. Callers pick the lane
/// from the CPU they run on, so two CPUs write disjoint memory.
///
/// Order stays exact. Stamps come from one clock, so each lane's log is sorted by stamp, and an
/// entry's most recent access is the one log record whose stamp equals the entry's newest
/// stamp over all lanes ("current"); every other record of it is stale. The least recently
/// used entry is the owner of the oldest current record: eviction walks the lanes' log heads
/// in stamp order and drops stale records on the way. Each record is dropped once, and a lane's
/// log is compacted to its current records when it holds more than twice the entry count, so
/// every operation is O(1) amortised (O(lanes) for the head walk).
@usableFromInline
struct StampedLRU<Key: Hashable, Value> {
    @usableFromInline
    struct Node {
        @usableFromInline var key: Key
        /// `key.hashValue`, kept to find the entry's bucket when it is evicted.
        @usableFromInline var hash: Int
        @usableFromInline var value: Value
        @usableFromInline var cost: Int
        /// Absolute expiry on the owner's clock; `nil` = never.
        @usableFromInline var expiry: Duration?

        @inlinable
        init(key: Key, hash: Int, value: Value, cost: Int, expiry: Duration?) {
            self.key = key
            self.hash = hash
            self.value = value
            self.cost = cost
            self.expiry = expiry
        }
    }

    @usableFromInline
    struct Access {
        @usableFromInline var slot: Int
        @usableFromInline var stamp: UInt64

        @inlinable
        init(slot: Int, stamp: UInt64) {
            self.slot = slot
            self.stamp = stamp
        }
    }

    /// One lane's stamps, log and counters. Lanes sit side by side in one array, 128 bytes
    /// apart, and the fields written on every hit (`logged`, `hits`) lie 64 bytes past the
    /// ones read by every hit, so that no lane's writes share a cache line with what another
    /// lane (or the array's header, read by all) uses.
    @usableFromInline
    struct Lane {
        /// Newest stamp per slot recorded in this lane; 0 = none (stamps start at 1).
        @usableFromInline var stamps: [UInt64] = []
        @usableFromInline var log: [Access] = []
        /// First record of `log` not consumed yet.
        @usableFromInline var head = 0
        @usableFromInline var readPadding: (Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0)
        /// Unconsumed records in `log`.
        @usableFromInline var logged = 0
        /// Successful `touch` calls in this lane, minus those `uncountHit(lane:)` took back.
        @usableFromInline var hits = 0
        @usableFromInline var writePadding: (Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0)

        @inlinable
        init() {}

        /// One access: a single exclusive access to the lane for all its writes.
        @inlinable @inline(__always)
        mutating func record(_ slot: Int, stamp: UInt64, hit: Bool) {
            stamps[slot] = stamp
            log.append(Access(slot: slot, stamp: stamp))
            logged &+= 1
            if hit { hits &+= 1 }
        }
    }

    /// The only field every hit writes outside its lane. It comes first so that in a shard
    /// (`MemoryCache.State` behind a `Mutex`) it sits in the 16 bytes after the lock word,
    /// which never straddle a cache line; the padding keeps the fields read by hits (below)
    /// off that line.
    @usableFromInline var clock: UInt64 = 0
    @usableFromInline var clockPadding: (Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0)

    @usableFromInline var nodes: [Node?] = []
    /// Key hash → slot. Callers hash each key once, outside their lock, and pass the hash
    /// (`key.hashValue`) to every call that takes a key.
    @usableFromInline var slots: SlotTable
    /// Empty slots of `nodes`, reused before the array grows.
    @usableFromInline var freeSlots: [Int] = []
    @usableFromInline var lanes: [Lane]
    @usableFromInline private(set) var count = 0
    @usableFromInline private(set) var totalCost = 0

    /// `laneCount` is rounded up to a power of two so that callers can mask a CPU number.
    @inlinable
    init(minimumCapacity: Int = 0, laneCount: Int = 1) {
        var lanes = 1
        while lanes < laneCount { lanes <<= 1 }
        self.lanes = Array(repeating: Lane(), count: lanes)
        nodes.reserveCapacity(minimumCapacity)
        slots = SlotTable(minimumCapacity: minimumCapacity)
    }

    @inlinable var isEmpty: Bool { count == 0 }
    /// Lanes in use, a power of two.
    @inlinable var laneCount: Int { lanes.count }

    /// Looks up `key` and, when found, records an access in `lane` (`0..<laneCount`) and
    /// counts it as a hit.
    @inlinable
    mutating func touch(_ key: Key, hash: Int, lane: Int) -> Int? {
        guard let slot = slot(of: key, hash: hash) else { return nil }
        record(slot, lane: lane, hit: true)
        return slot
    }

    /// Takes back the hit a `touch` counted (the entry turned out to be expired).
    @inlinable
    mutating func uncountHit(lane: Int) {
        lanes[lane].hits &-= 1
    }

    @inlinable @inline(__always)
    func slot(of key: Key, hash: Int) -> Int? {
        slots.find(hash) { nodes[$0]?.key == key }
    }

    /// Reads an entry without changing its recency.
    @inlinable
    func peek(_ key: Key, hash: Int) -> Node? {
        guard let slot = slot(of: key, hash: hash) else { return nil }
        return nodes[slot]
    }

    /// Inserts or replaces `key` as the most recently used entry. A new key arriving when
    /// `count` has reached `countLimit` first evicts the least recently used entry (returned
    /// as `evicted`), whose slot it then takes.
    @inlinable
    mutating func insert(_ key: Key, hash: Int, value: Value, cost: Int, expiry: Duration?, countLimit: Int,
                         lane: Int) -> (replaced: Value?, evicted: Node?) {
        let node = Node(key: key, hash: hash, value: value, cost: cost, expiry: expiry)
        if let slot = slot(of: key, hash: hash), let old = nodes[slot] {
            totalCost += cost - old.cost
            nodes[slot] = node
            record(slot, lane: lane, hit: false)
            return (old.value, nil)
        }
        // Slots are 32-bit in the index: a shard never holds more entries than that.
        let evicted = count >= min(countLimit, SlotTable.maximumSlot) ? removeOldest() : nil
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            nodes[slot] = node
        } else {
            slot = nodes.count
            nodes.append(node)
            for index in lanes.indices { lanes[index].stamps.append(0) }
        }
        slots.insert(hash, slot: slot)
        count += 1
        totalCost += cost
        record(slot, lane: lane, hit: false)
        return (nil, evicted)
    }

    @inlinable @discardableResult
    mutating func remove(_ key: Key, hash: Int) -> Node? {
        guard let slot = slot(of: key, hash: hash) else { return nil }
        return removeSlot(slot)
    }

    /// Removes and returns the least recently used entry.
    @inlinable
    mutating func removeOldest() -> Node? {
        oldestSlot().flatMap { removeSlot($0) }
    }

    @inlinable
    mutating func removeAll(keepingCapacity: Bool = false) {
        nodes.removeAll(keepingCapacity: keepingCapacity)
        slots.removeAll(keepingCapacity: keepingCapacity)
        freeSlots.removeAll(keepingCapacity: keepingCapacity)
        for index in lanes.indices {
            lanes[index].stamps.removeAll(keepingCapacity: keepingCapacity)
            lanes[index].log.removeAll(keepingCapacity: keepingCapacity)
            lanes[index].head = 0
            lanes[index].logged = 0
        }
        count = 0
        totalCost = 0
    }

    /// Live entries in slot order (expiry sweeps).
    @inlinable
    func forEachNode(_ body: (Node) -> Void) {
        for case let node? in nodes { body(node) }
    }

    /// Keys from most to least recently used (tests and diagnostics; O(n log n)).
    @inlinable
    func keysByRecency() -> [Key] {
        var current: [Access] = []
        current.reserveCapacity(count)
        for lane in lanes.indices {
            let log = lanes[lane].log
            for position in lanes[lane].head..<log.count where isCurrent(log[position], lane: lane) {
                current.append(log[position])
            }
        }
        current.sort { $0.stamp > $1.stamp }
        return current.compactMap { nodes[$0.slot]?.key }
    }

    // MARK: Recency

    /// Hits counted over all lanes (per lane, so that counting writes no shared memory).
    @inlinable
    var hits: Int { lanes.reduce(0) { $0 &+ $1.hits } }

    @inlinable @inline(__always)
    mutating func record(_ slot: Int, lane: Int, hit: Bool) {
        clock &+= 1
        lanes[lane].record(slot, stamp: clock, hit: hit)
        // Compaction leaves at most `count` records in a lane, so compacting at three times
        // that (plus slack for small caches) runs at most once per 2 × `count` appends and
        // checks 3/2 records per append: O(1) amortised.
        if lanes[lane].logged > 3 &* count &+ 256 { compact(lane) }
    }

    /// Whether `access`, read from `lane`'s log, is its slot's most recent access.
    @inlinable @inline(__always)
    func isCurrent(_ access: Access, lane: Int) -> Bool {
        guard lanes[lane].stamps[access.slot] == access.stamp else { return false }
        for other in lanes.indices where other != lane && lanes[other].stamps[access.slot] > access.stamp {
            return false
        }
        return true
    }

    /// The slot of the least recently used entry: the owner of the oldest current record.
    /// Stale records met on the way are consumed.
    @inlinable
    mutating func oldestSlot() -> Int? {
        guard count > 0 else { return nil }
        while true {
            var best = -1
            var bestStamp = UInt64.max
            for lane in lanes.indices where lanes[lane].head < lanes[lane].log.count {
                let stamp = lanes[lane].log[lanes[lane].head].stamp
                if stamp < bestStamp { best = lane; bestStamp = stamp }
            }
            // Every live entry has a current record, so the logs cannot run dry first.
            guard best >= 0 else { return nil }
            let access = lanes[best].log[lanes[best].head]
            if isCurrent(access, lane: best) { return access.slot }
            consumeHead(of: best)
        }
    }

    @inlinable
    mutating func consumeHead(of lane: Int) {
        lanes[lane].head &+= 1
        lanes[lane].logged &-= 1
        if lanes[lane].head == lanes[lane].log.count {
            lanes[lane].log.removeAll(keepingCapacity: true)
            lanes[lane].head = 0
        }
    }

    @inlinable
    mutating func removeSlot(_ slot: Int) -> Node? {
        guard let node = nodes[slot] else { return nil }
        nodes[slot] = nil
        slots.remove(node.hash, slot: slot)
        // Every record of the slot becomes stale, including after the slot is reused: new
        // stamps are larger than any recorded before.
        for lane in lanes.indices { lanes[lane].stamps[slot] = 0 }
        freeSlots.append(slot)
        count -= 1
        totalCost -= node.cost
        return node
    }

    /// Keeps, in place, the records of `lane`'s log that are their slot's newest in this lane:
    /// at most one per live entry. It deliberately does not read the other lanes (which other
    /// CPUs are writing: measured, that made compaction pull their lines over on every record);
    /// a record superseded in another lane survives until eviction skips it.
    @inlinable
    mutating func compact(_ lane: Int) {
        var log: [Access] = []
        swap(&log, &lanes[lane].log)
        var write = 0
        for read in lanes[lane].head..<log.count where lanes[lane].stamps[log[read].slot] == log[read].stamp {
            log[write] = log[read]
            write &+= 1
        }
        log.removeLast(log.count &- write)
        swap(&log, &lanes[lane].log)
        lanes[lane].head = 0
        lanes[lane].logged = write
    }
}
