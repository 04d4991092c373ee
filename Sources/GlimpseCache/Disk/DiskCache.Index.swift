extension DiskCache {
    /// What the cache knows about its directory, kept in memory behind the cache's `Mutex`:
    /// entry files by name in least-recently-used order, with sizes and timestamps.
    ///
    /// Recency is the cache's own bookkeeping (this list plus the access journal), never file
    /// access times, which `noatime` and overlay filesystems do not maintain. The files remain
    /// the truth: the index only decides what to evict and answers `count`/`totalSize`.
    struct Index {
        struct Entry {
            /// Bytes of the whole entry file.
            var size: Int
            /// Write time (file modification time), nanoseconds since 1970.
            var stored: Int64
            /// Last read through this cache or one sharing the journal, nanoseconds since 1970.
            var lastUsed: Int64
        }

        var list = LRUList<String, Entry>()
        /// `false` until the initial directory scan has been merged.
        var isLoaded = false
        /// Names removed while the scan ran, so the merge does not resurrect them.
        var removedWhileLoading: Set<String> = []
        var clearedWhileLoading = false
        /// Journal lines not yet appended to the journal file.
        var pendingJournal: [UInt8] = []
        var pendingJournalLines = 0
        /// Lines believed to be in the journal file (drives compaction).
        var journalLines = 0
        /// Entries this index gave up to keep within the limits (size, count, age) since the
        /// cache was opened: ``DiskCache/evictionCount``.
        var evictions = 0
        /// The directory's stamp at a moment when this index held, or the initial scan was
        /// about to list, every entry file in it; `nil` when no such moment is known. While the
        /// directory keeps this stamp, a name the loaded index lacks has no file
        /// (`DiskCache+KnownMisses.swift`).
        var knownStamp: DiskCache.DirectoryStamp?

        var totalSize: Int { list.totalCost }
        var count: Int { list.count }

        mutating func recordWrite(_ name: String, size: Int, now: Int64) {
            list.insert(name, value: Entry(size: size, stored: now, lastUsed: now), cost: size)
            removedWhileLoading.remove(name)
        }

        /// `fileExists` is consulted only for names the index does not hold: an entry evicted
        /// or removed between the read and this call must not come back as a ghost.
        mutating func recordAccess(_ name: String, size: Int, stored: Int64, now: Int64, fileExists: () -> Bool) {
            if let slot = list.touch(name) {
                list.update(slot) { $0.lastUsed = now }
            } else if fileExists() {
                // Written by another process, or not scanned yet: adopt it as most recent.
                list.insert(name, value: Entry(size: size, stored: stored, lastUsed: now), cost: size)
            } else {
                return
            }
            DiskCache.Journal.appendLine(name: name, time: now, to: &pendingJournal)
            pendingJournalLines += 1
        }

        mutating func recordRemoval(_ name: String) {
            list.remove(name)
            if !isLoaded { removedWhileLoading.insert(name) }
        }

        mutating func recordRemoveAll() {
            list.removeAll()
            pendingJournal.removeAll()
            pendingJournalLines = 0
            if !isLoaded { clearedWhileLoading = true }
        }

        /// Merges part of the scanned directory under everything seen since opening. The scan
        /// result is ordered oldest first and merged from its newest end in chunks, so the lock
        /// is never held for long while a large directory is indexed; `finishMerge` ends it.
        mutating func merge(scanned: ArraySlice<(name: String, entry: Entry)>) {
            guard !clearedWhileLoading else { return }
            for item in scanned.reversed() where !removedWhileLoading.contains(item.name) {
                list.insertAsOldest(item.name, value: item.entry, cost: item.entry.size)
            }
        }

        mutating func finishMerge() {
            removedWhileLoading = []
            clearedWhileLoading = false
            isLoaded = true
        }

        /// Evicts least recently used names when a limit is exceeded, down to the trim ratio,
        /// at most `batch` at a time; `continuing` resumes a trim a previous batch began.
        /// The most recent entry is kept so a fresh write is never its own victim.
        mutating func namesToEvict(sizeLimit: Int, countLimit: Int?, trimRatio: Double,
                                   batch: Int = .max, continuing: Bool = false) -> (names: [String], done: Bool) {
            let overSize = list.totalCost > sizeLimit
            let overCount = countLimit.map { list.count > $0 } ?? false
            guard continuing || overSize || overCount else { return ([], true) }
            let ratio = min(max(trimRatio, 0), 1)
            let sizeTarget = Int(Double(sizeLimit) * ratio)
            let countTarget = countLimit.map { Int(Double($0) * ratio) } ?? .max
            var evicted: [String] = []
            while list.count > 1, list.totalCost > sizeTarget || list.count > countTarget {
                guard evicted.count < batch else { return (evicted, false) }
                guard let node = list.removeOldest() else { break }
                evicted.append(node.key)
                evictions += 1
            }
            return (evicted, true)
        }

        /// Names whose write time is before `cutoff` (nanoseconds since 1970).
        mutating func removeStored(before cutoff: Int64) -> [String] {
            let expired = list.nodes.compactMap { $0.value.stored < cutoff ? $0.key : nil }
            for name in expired { list.remove(name) }
            evictions += expired.count
            return expired
        }

        mutating func takePendingJournal() -> [UInt8] {
            defer {
                journalLines += pendingJournalLines
                pendingJournal = []
                pendingJournalLines = 0
            }
            return pendingJournal
        }
    }
}
