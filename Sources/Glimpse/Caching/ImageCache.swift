import Dispatch
import Foundation
import GlimpseCache
import Synchronization

/// The pipeline's two tiers: decoded images in memory (cost = pixel bytes)
/// and encoded bytes with their HTTP metadata in the data tier (on disk by
/// default). It moves bytes and images only: decoding and encoding are the
/// pipeline's (``ImagePipeline``), with the one registry of its configuration.
///
/// A query checks memory, then the data tier; concurrent queries for one key
/// share one read. Writes to the data tier are gathered into batches on a
/// background thread.
public final class ImageCache: Sendable {
    /// Decoded images by ``ImageCacheKey/memoryKey``.
    public let memory: any ImageMemoryCaching
    /// Encoded bytes by ``ImageCacheKey/base`` (originals) or
    /// ``ImageCacheKey/memoryKey`` (processed variants); `nil` for a memory-only cache.
    public let data: (any ImageDataCaching)?
    /// The data tier when it is a ``DiskCache`` (the default).
    public var disk: DiskCache? { data as? DiskCache }

    private typealias ReadKey = String

    private struct Counters: Sendable {
        var diskHits = 0
        var misses = 0
        var coalesced = 0
    }

    /// Disk writes, one batch at a time, outside the cooperative pool (a burst of
    /// blocking file creations on a concurrent queue makes GCD add a thread per
    /// write), on a thread of lower priority than the loads (`BackgroundWriter`),
    /// woken only when it has run out of work.
    private let writer = BackgroundWriter(name: "Glimpse.ImageCache.writer")
    /// Background writes not yet taken by the writer thread, which stores them as one batch
    /// (`DiskCache.setData(batch:)`: small entries share a file, one link each, which halves
    /// what the filesystem spends per entry).
    private struct WriteQueue {
        var entries: [DiskCache.BatchEntry] = []
        /// Bytes (with `writeOverhead` each) and count of the entries that hold a reservation
        /// (queued in the background rather than awaited).
        var reservedBytes = 0
        var reservedCount = 0
        /// Awaited stores in the batch, resumed once it is written.
        var waiters: [CheckedContinuation<Void, Never>] = []
        /// A writer job will take the entries.
        var isScheduled = false
        /// It should take them now: the batch is full, or someone waits for it.
        var isUrgent = false
    }
    private let queuedWrites = Mutex(WriteQueue())
    /// Wakes a writer job waiting for its batch to fill up.
    private let batchReady = DispatchSemaphore(value: 0)
    /// A writer job waits up to `batchDelay` for this many entries (a full batch file,
    /// `DiskCache.batchCountLimit`) before it writes: measured on bench-pipeline, 32 and 6 ms
    /// beat 16 and 2 ms by about 1.5 % of the cold rate.
    static let batchTarget = 32
    static let batchDelay = DispatchTimeInterval.milliseconds(6)
    /// Bytes held by background writes queued or running; at most `maximumPendingWriteBytes`.
    private let pendingBytes = Atomic<Int>(0)
    /// Background writes queued or running.
    private let pendingWrites = Atomic<Int>(0)
    /// The bound on the bytes queued background disk writes may hold (each write counts its
    /// data plus `writeOverhead`).
    public let maximumPendingWriteBytes: Int
    /// What one queued write counts beyond its data (metadata, key, closure).
    static let writeOverhead = 1024
    private let reads = Mutex<[ReadKey: [CheckedContinuation<Lookup?, Never>]]>([:])
    private let counters = Mutex(Counters())

    /// - Parameters:
    ///   - memory: the memory tier.
    ///   - data: the data tier, or `nil` to keep no bytes.
    ///   - maximumPendingWriteBytes: how many bytes background writes may hold at once;
    ///     a store beyond that waits for its own write instead of queueing it (a write larger
    ///     than the bound is queued only when nothing else is).
    public init(memory: any ImageMemoryCaching, data: (any ImageDataCaching)?,
                maximumPendingWriteBytes: Int = 64 << 20) {
        self.memory = memory
        self.data = data
        self.maximumPendingWriteBytes = max(maximumPendingWriteBytes, 0)
    }

    /// A cache of the default tiers: a ``MemoryCache`` (its cost limit bounds
    /// pixel bytes) and a ``DiskCache`` or none.
    public convenience init(memory: MemoryCache<String, Image> = MemoryCache(configuration: .images()), disk: DiskCache?,
                            maximumPendingWriteBytes: Int = 64 << 20) {
        self.init(memory: memory as any ImageMemoryCaching, data: disk, maximumPendingWriteBytes: maximumPendingWriteBytes)
    }

    // MARK: Reading

    /// The decoded image in memory for `key`, without touching the disk.
    public func image(forKey key: ImageCacheKey) -> Image? {
        memory.image(forKey: key.memoryKey)
    }

    /// Checks memory for the decoded image, then the data tier for the
    /// original bytes, and reports which tier answered. Nothing is decoded:
    /// that is the pipeline's work.
    public func query(_ key: ImageCacheKey, tiers: Tiers = .all) async -> Lookup {
        if tiers.contains(.memory), let image = memory.image(forKey: key.memoryKey) {
            return Lookup(tier: .memory, image: image)
        }
        guard tiers.contains(.disk), data != nil else {
            counters.withLock { $0.misses += 1 }
            return .miss
        }
        let lookup = await diskLookup(key.base)
        counters.withLock { counters in
            if lookup.tier == .disk { counters.diskHits += 1 } else { counters.misses += 1 }
        }
        return lookup
    }

    /// The original bytes and metadata in the data tier for `base`.
    public func originalData(forKey base: String) async -> (data: [UInt8], metadata: DiskCache.Metadata)? {
        let lookup = await diskLookup(base)
        guard let data = lookup.data, let metadata = lookup.metadata else { return nil }
        return (data, metadata)
    }

    /// One read (and decode) per key in flight: the first caller does it,
    /// later callers wait for its result.
    ///
    /// A nonisolated async function runs on the global concurrent executor, so
    /// the read never happens on a caller's actor (the main actor included);
    /// doing it inline saves the task a detached read would cost per miss.
    private func diskLookup(_ base: String) async -> Lookup {
        guard let data else { return .miss }
        let readKey = base
        while true {
            let leads = reads.withLock { waiting -> Bool in
                if waiting[readKey] != nil { return false }
                waiting[readKey] = []
                return true
            }
            if leads {
                let lookup = Self.read(base, from: data)
                let followers = reads.withLock { $0.removeValue(forKey: readKey) } ?? []
                for follower in followers { follower.resume(returning: lookup) }
                return lookup
            }
            let joined: Lookup? = await withCheckedContinuation { continuation in
                let queued = reads.withLock { waiting -> Bool in
                    guard waiting[readKey] != nil else { return false }
                    waiting[readKey]?.append(continuation)
                    return true
                }
                // The leader finished in between: read again.
                if !queued { continuation.resume(returning: nil) }
            }
            if let joined {
                counters.withLock { $0.coalesced += 1 }
                return joined
            }
        }
    }

    private static func read(_ key: String, from tier: any ImageDataCaching) -> Lookup {
        guard let entry = tier.cachedData(forKey: key) else { return .miss }
        return Lookup(tier: .disk, data: entry.data, metadata: entry.metadata)
    }

    // MARK: Writing

    /// Stores a decoded image in memory and/or original bytes on disk.
    ///
    /// The disk write blocks the calling thread; ``storeOriginal(_:metadata:forKey:)``
    /// is the asynchronous form.
    public func store(_ image: Image?, data: [UInt8]?, metadata: DiskCache.Metadata = DiskCache.Metadata(),
                      forKey key: ImageCacheKey, in tiers: Tiers = .all) {
        if tiers.contains(.memory), let image {
            memory.store(image, forKey: key.memoryKey, cost: image.byteCount)
        }
        if tiers.contains(.disk), let tier = self.data, let data {
            tier.storeData([DiskCache.BatchEntry(key: key.base, data: data, metadata: metadata)])
        }
    }

    /// Writes original bytes to the disk tier on the writer thread
    /// (off the cooperative pool); returns when they are written.
    public func storeOriginal(_ data: [UInt8], metadata: DiskCache.Metadata = DiskCache.Metadata(),
                              forKey key: ImageCacheKey) async {
        guard let disk = self.data else { return }
        // In the batch being gathered, so that it keeps its place among queued stores, and
        // written without waiting for the batch to fill up.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queueWrite(data, metadata: metadata, dataKey: key.base, to: disk, waiter: continuation)
        }
    }

    /// Queues original bytes for the disk tier and returns at once, unless queueing them would
    /// exceed `maximumPendingWriteBytes`: then it writes them on the calling thread
    /// (back-pressure instead of an unbounded queue of bytes).
    public func storeOriginalInBackground(_ data: [UInt8], metadata: DiskCache.Metadata = DiskCache.Metadata(),
                                          forKey key: ImageCacheKey) {
        guard let disk = self.data else { return }
        guard reserveWrite(data.count) else {
            disk.storeData([DiskCache.BatchEntry(key: key.base, data: data, metadata: metadata)])
            return
        }
        queueWrite(data, metadata: metadata, dataKey: key.base, to: disk)
    }

    /// Queues original bytes for the disk tier and returns without waiting for the write,
    /// unless queueing them would exceed `maximumPendingWriteBytes`: then it waits for this
    /// one (on the writer thread, never blocking the caller's thread).
    public func enqueueOriginal(_ data: [UInt8], metadata: DiskCache.Metadata = DiskCache.Metadata(),
                                forKey key: ImageCacheKey) async {
        guard let disk = self.data else { return }
        guard reserveWrite(data.count) else {
            await storeOriginal(data, metadata: metadata, forKey: key)
            return
        }
        queueWrite(data, metadata: metadata, dataKey: key.base, to: disk)
    }

    /// Writes encoded bytes to the data tier under `dataKey` (a processed variant's
    /// ``ImageCacheKey/memoryKey``, or an original's ``ImageCacheKey/base``) on the writer
    /// thread: returns once written when `waits`, else once queued (unless the queue is over
    /// `maximumPendingWriteBytes`, when it waits too).
    public func storeData(_ data: [UInt8], metadata: DiskCache.Metadata = DiskCache.Metadata(),
                          forDataKey dataKey: String, waits: Bool) async {
        guard let disk = self.data else { return }
        if !waits, reserveWrite(data.count) {
            queueWrite(data, metadata: metadata, dataKey: dataKey, to: disk)
            return
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queueWrite(data, metadata: metadata, dataKey: dataKey, to: disk, waiter: continuation)
        }
    }

    /// Background writes queued or running now.
    public var pendingWriteCount: Int { pendingWrites.load(ordering: .relaxed) }

    /// Bytes held by background writes queued or running now.
    public var pendingWriteBytes: Int { pendingBytes.load(ordering: .relaxed) }

    /// Blocks until every queued disk write has finished.
    public func waitForPendingWrites() {
        hurryQueuedWrites()
        writer.sync()
    }

    /// Returns once every disk write queued before the call has finished (the writer thread runs
    /// its queue in order, so a marker queued now runs after all of them).
    public func pendingWritesFinished() async {
        hurryQueuedWrites()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            writer.async { continuation.resume() }
        }
    }

    private func reserveWrite(_ count: Int) -> Bool {
        let size = count + Self.writeOverhead
        var current = pendingBytes.load(ordering: .relaxed)
        while current == 0 || current + size <= maximumPendingWriteBytes {
            let (exchanged, original) = pendingBytes.compareExchange(expected: current, desired: current + size,
                                                                     ordering: .relaxed)
            if exchanged {
                pendingWrites.add(1, ordering: .relaxed)
                return true
            }
            current = original
        }
        return false
    }

    /// Adds a store to the batch being gathered: a background one (holding a reservation), or
    /// an awaited one, resumed by `waiter` once written.
    private func queueWrite(_ data: [UInt8], metadata: DiskCache.Metadata, dataKey: String, to disk: any ImageDataCaching,
                            waiter: CheckedContinuation<Void, Never>? = nil) {
        let (schedules, wakes) = queuedWrites.withLock { queue -> (Bool, Bool) in
            queue.entries.append(DiskCache.BatchEntry(key: dataKey, data: data, metadata: metadata))
            if let waiter {
                queue.waiters.append(waiter)
            } else {
                queue.reservedBytes += data.count + Self.writeOverhead
                queue.reservedCount += 1
            }
            var wakes = false
            if queue.entries.count >= Self.batchTarget || waiter != nil, !queue.isUrgent {
                queue.isUrgent = true
                wakes = true
            }
            guard !queue.isScheduled else { return (false, wakes) }
            queue.isScheduled = true
            return (true, wakes)
        }
        if wakes { batchReady.signal() }
        // One writer job per batch, queued with its first entry: later jobs and markers
        // (`pendingWritesFinished`) run after it.
        guard schedules else { return }
        // Strong self: the writes must happen even when the cache is released meanwhile.
        writer.async { self.writeQueuedBatch(to: disk) }
    }

    /// On the writer thread: waits a moment for the batch to fill up (unless it is full or
    /// someone waits for it), then writes it.
    private func writeQueuedBatch(to disk: any ImageDataCaching) {
        if !queuedWrites.withLock({ $0.isUrgent }) {
            _ = batchReady.wait(timeout: .now() + Self.batchDelay)
        }
        let batch = queuedWrites.withLock { queue in
            defer { queue = WriteQueue() }
            return queue
        }
        // Signals for this batch that came while it was not waiting would cut the next
        // batch's wait short: drop them (the next job checks `isUrgent` before it waits, and
        // cannot start before this one ends).
        while batchReady.wait(timeout: .now()) == .success {}
        // In call order: of several stores for one key, the last wins. A failed write (full
        // disk, entry over the size limit) only costs a later download.
        disk.storeData(batch.entries)
        pendingWrites.subtract(batch.reservedCount, ordering: .relaxed)
        pendingBytes.subtract(batch.reservedBytes, ordering: .relaxed)
        for waiter in batch.waiters { waiter.resume() }
    }

    /// Tells a writer job waiting for its batch to fill up to write it now.
    private func hurryQueuedWrites() {
        let wakes = queuedWrites.withLock { queue -> Bool in
            guard queue.isScheduled, !queue.isUrgent else { return false }
            queue.isUrgent = true
            return true
        }
        if wakes { batchReady.signal() }
    }

    /// Removes `key`: its variant from memory, and its original bytes and processed variant
    /// from the data tier.
    public func remove(_ key: ImageCacheKey, from tiers: Tiers = .all) {
        if tiers.contains(.memory) { memory.removeImage(forKey: key.memoryKey) }
        if tiers.contains(.disk) {
            data?.removeData(forKey: key.base)
            if !key.variant.isEmpty { data?.removeData(forKey: key.memoryKey) }
        }
    }

    /// Empties the given tiers.
    public func clear(_ tiers: Tiers = .all) {
        if tiers.contains(.memory) { memory.removeAllImages() }
        if tiers.contains(.disk) { data?.removeAllData() }
    }

    /// A snapshot of both tiers' counters.
    public var statistics: Statistics {
        let counters = counters.withLock { $0 }
        var memoryStatistics = MemoryCache<String, Image>.Statistics()
        if let memory = memory as? MemoryCache<String, Image> {
            memoryStatistics = memory.statistics
        } else {
            memoryStatistics.count = memory.imageCount
            memoryStatistics.totalCost = memory.totalCost
        }
        return Statistics(memory: memoryStatistics, diskCount: data?.entryCount ?? 0, diskSize: data?.totalSize ?? 0,
                          diskHits: counters.diskHits, misses: counters.misses,
                          coalescedDiskReads: counters.coalesced)
    }
}
