/// An open-addressing hash index from a key's hash to its slot in `StampedLRU.nodes`.
///
/// It exists so that a key is hashed once, before the shard's lock is taken: a `Dictionary`
/// hashes again inside the lock, which lengthens every critical section (SipHash of an `Int`
/// key was 11 % of a hit's time) and so every other thread's wait. The table stores only the
/// low 32 bits of the hash and the slot; keys are compared in the nodes.
///
/// Linear probing at a load factor of at most 1/2, deletion by backward shift (no
/// tombstones), so lookups stay short however many entries come and go.
@usableFromInline
struct SlotTable {
    /// `hash low 32 bits << 32 | (slot + 1)`; 0 = empty bucket.
    @usableFromInline var buckets: [UInt64]
    @usableFromInline var mask: Int
    @usableFromInline private(set) var count = 0

    /// The most slots a table can address (32 bits, minus the empty marker).
    @usableFromInline static let maximumSlot = Int(UInt32.max) - 1

    @inlinable
    init(minimumCapacity: Int = 0) {
        var capacity = 8
        while capacity < minimumCapacity &* 2 { capacity <<= 1 }
        buckets = Array(repeating: 0, count: capacity)
        mask = capacity &- 1
    }

    @inlinable @inline(__always)
    static func tag(_ hash: Int) -> UInt64 { UInt64(UInt32(truncatingIfNeeded: hash)) }

    @inlinable @inline(__always)
    func home(ofTag tag: UInt64) -> Int { Int(truncatingIfNeeded: tag) & mask }

    /// The slot whose bucket carries `hash` and for which `matches(slot)` holds.
    @inlinable @inline(__always)
    func find(_ hash: Int, _ matches: (Int) -> Bool) -> Int? {
        let tag = Self.tag(hash)
        var index = home(ofTag: tag)
        while true {
            let bucket = buckets[index]
            if bucket == 0 { return nil }
            if bucket >> 32 == tag {
                let slot = Int(truncatingIfNeeded: bucket & 0xFFFF_FFFF) &- 1
                if matches(slot) { return slot }
            }
            index = (index &+ 1) & mask
        }
    }

    /// Adds `slot` under `hash`; the caller has checked the key is absent and that `slot`
    /// is at most `maximumSlot`.
    @inlinable
    mutating func insert(_ hash: Int, slot: Int) {
        if (count &+ 1) &* 2 > buckets.count { grow() }
        place(Self.tag(hash) << 32 | UInt64(slot &+ 1))
        count &+= 1
    }

    /// Removes the bucket of `slot` (filed under `hash`), if present.
    @inlinable
    mutating func remove(_ hash: Int, slot: Int) {
        let target = Self.tag(hash) << 32 | UInt64(slot &+ 1)
        var hole = home(ofTag: Self.tag(hash))
        while buckets[hole] != target {
            if buckets[hole] == 0 { return }
            hole = (hole &+ 1) & mask
        }
        // Backward shift: move later members of the run into the hole when their home lies
        // at or before it (cyclically), so that no probe sequence is broken by an empty bucket.
        var next = hole
        while true {
            next = (next &+ 1) & mask
            let bucket = buckets[next]
            if bucket == 0 { break }
            let home = home(ofTag: bucket >> 32)
            let distanceToHole = (hole &- home) & mask
            let distanceToNext = (next &- home) & mask
            if distanceToHole < distanceToNext {
                buckets[hole] = bucket
                hole = next
            }
        }
        buckets[hole] = 0
        count &-= 1
    }

    @inlinable
    mutating func removeAll(keepingCapacity: Bool) {
        if keepingCapacity {
            for index in buckets.indices { buckets[index] = 0 }
        } else {
            buckets = Array(repeating: 0, count: 8)
            mask = 7
        }
        count = 0
    }

    @inlinable
    mutating func place(_ bucket: UInt64) {
        var index = home(ofTag: bucket >> 32)
        while buckets[index] != 0 { index = (index &+ 1) & mask }
        buckets[index] = bucket
    }

    @inlinable
    mutating func grow() {
        let old = buckets
        buckets = Array(repeating: 0, count: old.count &* 2)
        mask = buckets.count &- 1
        for bucket in old where bucket != 0 { place(bucket) }
    }
}
