import Dispatch
import GlimpseCache
import Synchronization

/// The pipeline's two tiers: decoded images in memory (cost = pixel bytes)
/// and encoded bytes with their ``ImageDataMetadata`` in the data tier (on
/// disk by default, ``DiskDataTier``). It moves bytes and images only:
/// decoding and encoding are the pipeline's (``ImagePipeline``).
///
/// Every read of the data tier goes through ``entry(forDataKey:)``: concurrent
/// reads of one key share one call to the tier, and ``statistics`` count each.
/// Every write goes through ``storeData(_:metadata:forDataKey:waits:)``: writes
/// are gathered into batches, one batch in flight at a time, and the bytes
/// queued writes hold are bounded (``maximumPendingWriteBytes``); a write past
/// the bound waits for its own batch instead (back-pressure).
public final class ImageCache: Sendable {
    /// Decoded images by ``ImageCacheKey/memoryKey``.
    public let memory: any ImageMemoryCaching
    /// Encoded bytes by ``ImageCacheKey/base`` (originals) or
    /// ``ImageCacheKey/memoryKey`` (processed variants); `nil` for a memory-only cache.
    public let data: (any ImageDataCaching)?
    /// The disk cache, when the data tier is a ``DiskDataTier`` (the default), or the local
    /// tier of a ``LayeredDataTier`` is one.
    public var disk: DiskCache? { (((data as? LayeredDataTier)?.local ?? data) as? DiskDataTier)?.disk }

    struct Counters: Sendable {
        var dataHits = 0
        var misses = 0
        var coalesced = 0
        var errors = 0
    }

    /// Writes not yet handed to the data tier, and the batch being written.
    private struct WriteQueue {
        var entries: [ImageDataEntry] = []
        /// Bytes (with `writeOverhead` each) and count of the entries that hold a reservation
        /// (queued in the background rather than awaited).
        var reservedBytes = 0
        var reservedCount = 0
        /// Awaited stores in `entries`, resumed once their batch is written.
        var waiters: [CheckedContinuation<Void, Never>] = []
        /// A writer task exists: it gathers `entries` or writes a batch taken from them.
        var isScheduled = false
        /// The writer task is writing a batch now.
        var isWriting = false
        /// ``pendingWritesFinished()`` callers that came while a batch was written and nothing
        /// was queued: resumed when that batch is done.
        var afterWrite: [CheckedContinuation<Void, Never>] = []
        /// The gathering should end now: the batch is full, or someone waits for it.
        var isUrgent = false
        /// The writer task waiting for its batch to fill up.
        var gathering: CheckedContinuation<Void, Never>?
    }

    private let queuedWrites = Lock(WriteQueue())
    /// A writer task waits up to `batchDelay` for this many entries (a full batch file,
    /// `DiskCache.batchCountLimit`) before it writes: measured on bench-pipeline, 32 and 6 ms
    /// beat 16 and 2 ms by about 1.5 % of the cold rate.
    static let batchTarget = 32
    static let batchDelay = DispatchTimeInterval.milliseconds(6)
    /// Bytes held by background writes queued or running; at most `maximumPendingWriteBytes`.
    private let pendingBytes = Atomic<Int>(0)
    /// Background writes queued or running.
    private let pendingWrites = Atomic<Int>(0)
    /// The bound on the bytes queued background writes may hold (each write counts its
    /// data plus `writeOverhead`).
    public let maximumPendingWriteBytes: Int
    /// What one queued write counts beyond its data (metadata, key, closure).
    static let writeOverhead = 1024
    /// Readers waiting for the read in flight of a key; each gets `.some(entry or nil)`.
    private let reads = Lock<[String: [CheckedContinuation<ImageDataEntry??, Never>]]>([:])
    /// Hits, misses and errors (also counted by `ImageCache+Removing.swift`).
    let counters = Lock(Counters())
    /// Fetch claims being released (`ImageCache+FetchClaims.swift`).
    let claimReleases = Lock(ClaimReleases())

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
    /// pixel bytes) and a ``DiskCache`` (as a ``DiskDataTier``) or none.
    public convenience init(memory: MemoryCache<String, Image> = MemoryCache(configuration: .images()), disk: DiskCache?,
                            maximumPendingWriteBytes: Int = 64 << 20) {
        self.init(memory: memory as any ImageMemoryCaching, data: disk.map(DiskDataTier.init),
                  maximumPendingWriteBytes: maximumPendingWriteBytes)
    }

    // MARK: Reading

    /// The decoded image in memory for `key`, without touching the data tier.
    public func image(forKey key: ImageCacheKey) -> Image? {
        memory.image(forKey: key.memoryKey)
    }

    /// Checks memory for the decoded image, then the data tier (or the half of a
    /// ``LayeredDataTier`` that `tiers` names) for the original bytes, and reports which
    /// tier answered (``ImageTier/shared`` for a layered tier's shared half). Nothing is
    /// decoded: that is the pipeline's work.
    public func query(_ key: ImageCacheKey, tiers: Tiers = .all) async -> Lookup {
        if tiers.contains(.memory), let image = memory.image(forKey: key.memoryKey) {
            return Lookup(tier: .memory, image: image)
        }
        guard let (tier, whole, reportedAs) = dataTier(for: tiers) else {
            counters.withLock { $0.misses += 1 }
            return .miss
        }
        let found: ImageDataEntry?
        if whole {
            found = await entry(forDataKey: key.base)
        } else {
            do throws(ImageDataTierError) {
                found = try await tier.entry(forKey: key.base)
            } catch {
                found = nil
                counters.withLock { $0.errors += 1 }
            }
            counters.withLock { counters in
                if found != nil { counters.dataHits += 1 } else { counters.misses += 1 }
            }
        }
        guard let entry = found else { return .miss }
        return Lookup(tier: whole ? entry.tier : reportedAs, data: entry.data, metadata: entry.metadata)
    }

    /// The data tier's entry under `dataKey` (an original's ``ImageCacheKey/base`` or a
    /// variant's ``ImageCacheKey/memoryKey``); `nil` on a miss, without a data tier, or when
    /// the tier failed (counted in ``Statistics/dataErrors``).
    ///
    /// One read per key in flight: the first caller asks the tier, later callers wait for
    /// its answer.
    public func entry(forDataKey dataKey: String) async -> ImageDataEntry? {
        guard let data else { return nil }
        while true {
            let leads = reads.withLock { waiting -> Bool in
                if waiting[dataKey] != nil { return false }
                waiting[dataKey] = []
                return true
            }
            if leads {
                let found: ImageDataEntry?
                do throws(ImageDataTierError) {
                    found = try await data.entry(forKey: dataKey)
                } catch {
                    found = nil
                    counters.withLock { $0.errors += 1 }
                }
                counters.withLock { counters in
                    if found != nil { counters.dataHits += 1 } else { counters.misses += 1 }
                }
                let followers = reads.withLock { $0.removeValue(forKey: dataKey) } ?? []
                for follower in followers { follower.resume(returning: .some(found)) }
                return found
            }
            // `.some(nil)`: the leader found nothing; `nil`: it finished before this one queued.
            let joined: ImageDataEntry?? = await withCheckedContinuation { continuation in
                let queued = reads.withLock { waiting -> Bool in
                    guard waiting[dataKey] != nil else { return false }
                    waiting[dataKey]?.append(continuation)
                    return true
                }
                if !queued { continuation.resume(returning: nil) }
            }
            if let joined {
                counters.withLock { counters in
                    counters.coalesced += 1
                    if joined != nil { counters.dataHits += 1 } else { counters.misses += 1 }
                }
                return joined
            }
        }
    }

    /// Whether the data tier has an entry under `dataKey` (without reading its bytes);
    /// `false` without a data tier or when it failed.
    public func containsData(forDataKey dataKey: String) async -> Bool {
        guard let data else { return false }
        do throws(ImageDataTierError) {
            return try await data.containsEntry(forKey: dataKey)
        } catch {
            counters.withLock { $0.errors += 1 }
            return false
        }
    }

    // MARK: Writing

    /// Stores a decoded image in the memory tier under `key`'s ``ImageCacheKey/memoryKey``.
    public func store(_ image: Image, forKey key: ImageCacheKey) {
        memory.store(image, forKey: key.memoryKey, cost: image.byteCount)
    }

    /// Writes encoded bytes to the data tier under `dataKey` (a processed variant's
    /// ``ImageCacheKey/memoryKey``, or an original's ``ImageCacheKey/base``), in the batch
    /// being gathered: returns once written when `waits`, else once queued — unless the
    /// queue holds ``maximumPendingWriteBytes`` already, when it waits too.
    public func storeData(_ bytes: [UInt8], metadata: ImageDataMetadata = ImageDataMetadata(),
                          forDataKey dataKey: String, waits: Bool) async {
        guard data != nil else { return }
        let entry = ImageDataEntry(key: dataKey, data: bytes, metadata: metadata)
        if !waits, reserveWrite(bytes.count) {
            queueWrite(entry)
            return
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queueWrite(entry, waiter: continuation)
        }
    }

    /// Background writes queued or running now.
    public var pendingWriteCount: Int { pendingWrites.load(ordering: .relaxed) }

    /// Bytes held by background writes queued or running now.
    public var pendingWriteBytes: Int { pendingBytes.load(ordering: .relaxed) }

    /// Returns once every write queued before the call has been handed to the data tier and
    /// finished (batches are written one at a time, in order).
    public func pendingWritesFinished() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (gathering, returns) = queuedWrites.withLock { queue -> (CheckedContinuation<Void, Never>?, Bool) in
                if !queue.entries.isEmpty {
                    queue.waiters.append(continuation)
                    queue.isUrgent = true
                    defer { queue.gathering = nil }
                    return (queue.gathering, false)
                }
                if queue.isWriting {
                    queue.afterWrite.append(continuation)
                    return (nil, false)
                }
                return (nil, true)
            }
            gathering?.resume()
            if returns { continuation.resume() }
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
    private func queueWrite(_ entry: ImageDataEntry, waiter: CheckedContinuation<Void, Never>? = nil) {
        let (schedules, gathering) = queuedWrites.withLock { queue -> (Bool, CheckedContinuation<Void, Never>?) in
            queue.entries.append(entry)
            if let waiter {
                queue.waiters.append(waiter)
            } else {
                queue.reservedBytes += entry.data.count + Self.writeOverhead
                queue.reservedCount += 1
            }
            var gathering: CheckedContinuation<Void, Never>?
            if queue.entries.count >= Self.batchTarget || waiter != nil, !queue.isUrgent {
                queue.isUrgent = true
                gathering = queue.gathering
                queue.gathering = nil
            }
            guard !queue.isScheduled else { return (false, gathering) }
            queue.isScheduled = true
            return (true, gathering)
        }
        gathering?.resume()
        // One writer task at a time, so batches reach the tier in order. Strong self: the
        // writes must happen even when the cache is released meanwhile.
        if schedules { Task { await self.writeQueuedBatches() } }
    }

    private struct Batch {
        var entries: [ImageDataEntry]
        var reservedBytes: Int
        var reservedCount: Int
        var waiters: [CheckedContinuation<Void, Never>]
    }

    /// The writer task: gathers a batch for up to `batchDelay` (unless it is full or someone
    /// waits for it), writes it, and goes on while entries were queued meanwhile.
    private func writeQueuedBatches() async {
        guard let tier = data else { return }
        while true {
            await gatherBatch()
            let batch = queuedWrites.withLock { queue in
                defer {
                    queue.entries = []
                    queue.reservedBytes = 0
                    queue.reservedCount = 0
                    queue.waiters = []
                    queue.isUrgent = false
                    queue.isWriting = true
                }
                return Batch(entries: queue.entries, reservedBytes: queue.reservedBytes,
                             reservedCount: queue.reservedCount, waiters: queue.waiters)
            }
            if !batch.entries.isEmpty {
                do throws(ImageDataTierError) {
                    try await tier.store(batch.entries)
                } catch {
                    // A write that failed only costs a later download.
                    counters.withLock { $0.errors += 1 }
                }
            }
            pendingWrites.subtract(batch.reservedCount, ordering: .relaxed)
            pendingBytes.subtract(batch.reservedBytes, ordering: .relaxed)
            let (afterWrite, goesOn) = queuedWrites.withLock { queue -> ([CheckedContinuation<Void, Never>], Bool) in
                queue.isWriting = false
                defer { queue.afterWrite = [] }
                if queue.entries.isEmpty { queue.isScheduled = false }
                return (queue.afterWrite, !queue.entries.isEmpty)
            }
            for waiter in batch.waiters { waiter.resume() }
            for waiter in afterWrite { waiter.resume() }
            if !goesOn { return }
        }
    }

    /// Waits until the batch is urgent or `batchDelay` has passed.
    private func gatherBatch() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waits = queuedWrites.withLock { queue -> Bool in
                guard !queue.isUrgent else { return false }
                queue.gathering = continuation
                return true
            }
            guard waits else {
                continuation.resume()
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.batchDelay) { [self] in
                let gathering = queuedWrites.withLock { queue in
                    defer { queue.gathering = nil }
                    return queue.gathering
                }
                gathering?.resume()
            }
        }
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
                          diskEvictions: data?.evictionCount ?? 0, diskHits: counters.dataHits, misses: counters.misses,
                          coalescedDiskReads: counters.coalesced, dataErrors: counters.errors)
    }
}
