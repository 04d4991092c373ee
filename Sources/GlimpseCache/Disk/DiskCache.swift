import Dispatch
import Foundation
import Synchronization

/// A crash-safe, size-limited cache of byte blobs on disk, one file per entry.
///
/// - Entry files are named by the SHA-256 (FIPS 180-4) of the key, so no key can escape the
///   directory, and laid out as described in `EntryFile` (header with magic, version, lengths
///   and checksums; key; metadata record; data).
/// - Writes go to an unnamed file in the directory (Linux `O_TMPFILE`) that is linked into
///   place once complete (`linkat(2)`), or, where that is unavailable or an entry is replaced,
///   to a temporary name renamed into place (`rename(2)` is atomic within a filesystem,
///   POSIX.1-2017 `rename`): after a crash or `kill -9` at any moment every entry is complete
///   or absent, and processes sharing the directory never read a torn entry. A corrupt, truncated or unreadable entry is a miss
///   and is removed.
/// - Size, count and age limits are enforced on every write: least recently used entries are
///   evicted down to `trimRatio` of the limit. Recency is kept by the cache (`Index`,
///   `Journal`), not by file access times.
/// - Opening returns at once; the directory is scanned in the background and reads are served
///   from the files meanwhile. `count` and `totalSize` wait for that scan.
/// - A read of a key the loaded index does not know costs no path lookup while the directory
///   is unchanged since the index knew all of it (see `DiskCache+KnownMisses.swift`): any entry
///   another process creates changes the directory, and reads then ask the filesystem again.
///
/// Each process keeps its own index: entries another process writes count towards this
/// process's limits once it reads them or reopens the directory.
public final class DiskCache: Sendable {
    public let configuration: Configuration
    /// The namespace directory's path.
    public let path: String

    let index = Lock(Index())
    /// The directory, held open so that its change stamp costs one `fstat` (-1 if it could not
    /// be opened: then every read asks the filesystem).
    let directoryDescriptor: Int32
    /// File names of recently used keys: a SHA-256 and its hex digits cost more than a
    /// lookup here, and a hit's key is usually one that was read or written recently.
    private let recentNames = MemoryCache<String, String>(
        configuration: .init(costLimit: .max, countLimit: 4096, entryCostLimitRatio: 1, shardCount: 1))
    private let loaded = DispatchGroup()
    private let temporaryCounter = Atomic<Int>(0)
    /// How writes name unnamed entry files: a `POSIXFile.LinkMethod` raw value, or
    /// `temporaryNames` once neither works here (tried in order on the first writes).
    let linkMethod = Atomic<Int>(POSIXFile.LinkMethod.emptyPath.rawValue)
    /// The constant part of `temporaryName()`, formatted once per cache.
    private let temporaryNamePrefix = "\(DirectoryScan.temporaryPrefix)\(getpid())-\(UInt32.random(in: .min ... .max))-"
    let ioQueue = DispatchQueue(label: "glimpse.disk-cache.io", attributes: .concurrent)
    private static let journalBatch = 256
    /// Entries merged or evicted per lock acquisition while indexing a directory.
    private static let mergeChunk = 2048

    /// Opens (creating when missing) the namespace directory and starts the background scan.
    public init(configuration: Configuration) throws(DiskCache.Error) {
        self.configuration = configuration
        self.path = configuration.directory.standardizedFileURL.path
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw .directoryUnavailable(path: path)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .directoryUnavailable(path: path)
        }
        directoryDescriptor = POSIXFile.open(path, flags: [.readOnly, .directory])
        loaded.enter()
        let loaded = self.loaded, path = self.path
        // Weak: a cache released before its scan ends must deinit (and flush) right away.
        DispatchQueue.global(qos: .utility).async { [weak self] in
            configuration.beforeInitialScan?()
            self?.startTrackingDirectory()
            let result = DirectoryScan.run(directory: path, now: Self.nanoseconds(configuration.clock.now()))
            self?.merge(result)
            loaded.leave()
        }
    }

    private func merge(_ result: DirectoryScan.Result) {
        // In chunks, newest first, so reads and writes waiting for the lock wait briefly.
        var end = result.entries.endIndex
        while end > result.entries.startIndex {
            let start = max(result.entries.startIndex, end - Self.mergeChunk)
            index.withLock { $0.merge(scanned: result.entries[start..<end]) }
            end = start
        }
        index.withLock { index in
            index.finishMerge()
            index.journalLines += result.journalLines
        }
        var continuing = false
        while true {
            let done = index.withLock { index in
                let batch = index.namesToEvict(sizeLimit: configuration.sizeLimit, countLimit: configuration.countLimit,
                                               trimRatio: configuration.trimRatio, batch: Self.mergeChunk,
                                               continuing: continuing)
                changingDirectory(&index) { _ in deleteFiles(batch.names) }
                return batch.done
            }
            if done { break }
            continuing = true
        }
        index.withLock { index in changingDirectory(&index) { deleteFiles(expiredCandidates(&$0)) } }
        compactJournalIfNeeded()
    }

    deinit {
        flush()
        if directoryDescriptor >= 0 { POSIXFile.close(directoryDescriptor) }
    }

    /// Whether the initial directory scan has been merged into the index.
    public var isIndexLoaded: Bool { index.withLock { $0.isLoaded } }

    /// Blocks until the initial directory scan has been merged.
    public func waitUntilIndexLoaded() {
        loaded.wait()
    }

    // MARK: Reading

    /// The data stored for `key`; `nil` when absent, expired or corrupt (the latter two are
    /// removed). Marks the entry most recently used.
    public func data(forKey key: String) -> Data? {
        guard case .entry(_, let data?) = read(key: key, includeData: true) else { return nil }
        return data
    }

    /// The metadata stored for `key` without reading its data; same miss rules as `data`.
    public func metadata(forKey key: String) -> Metadata? {
        guard case .entry(let metadata, _) = read(key: key, includeData: false) else { return nil }
        return metadata
    }

    /// Data and metadata together, from one read of the file.
    public func entry(forKey key: String) -> (data: Data, metadata: Metadata)? {
        guard case .entry(let metadata, let data?) = read(key: key, includeData: true) else { return nil }
        return (data, metadata)
    }

    /// Whether a valid, unexpired entry exists for `key` (reads its header and metadata).
    /// Unlike reads, it does not make the entry more recently used.
    public func contains(_ key: String) -> Bool {
        guard case .entry = read(key: key, includeData: false, touch: false) else { return false }
        return true
    }

    // MARK: Removing

    /// Removes the entry for `key`, if any.
    public func remove(_ key: String) {
        let name = fileName(forKey: key)
        index.withLock { index in
            changingDirectory(&index) { index in
                POSIXFile.unlink(path + "/" + name)
                index.recordRemoval(name)
            }
        }
    }

    /// Removes every entry (and the journal) from the directory.
    public func removeAll() {
        index.withLock { index in
            changingDirectory(&index) { index in
                index.recordRemoveAll()
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                for name in names where Journal.entryName(Array(name.utf8)) != nil || name == Journal.fileName {
                    POSIXFile.unlink(path + "/" + name)
                }
            }
        }
    }

    /// Removes entries older than `maxAge` (waits for the initial scan).
    public func removeExpired() {
        waitUntilIndexLoaded()
        index.withLock { index in changingDirectory(&index) { deleteFiles(expiredCandidates(&$0)) } }
    }

    /// Appends buffered recency records to the journal. Called automatically in batches and
    /// when the cache is released; call it before handing the directory to another process.
    public func flush() {
        let pending = index.withLock { $0.takePendingJournal() }
        guard !pending.isEmpty else { return }
        // The first append creates the journal file.
        changingDirectoryUnlocked { Journal.append(pending, directory: path) }
    }

    // MARK: Figures

    /// Total bytes of entry files known to this cache (waits for the initial scan).
    public var totalSize: Int {
        waitUntilIndexLoaded()
        return index.withLock { $0.totalSize }
    }

    /// Number of entries known to this cache (waits for the initial scan).
    public var count: Int {
        waitUntilIndexLoaded()
        return index.withLock { $0.count }
    }

    /// Entries this cache removed to keep within its limits since it was opened: the least
    /// recently used ones evicted for ``Configuration/sizeLimit`` and ``Configuration/countLimit``,
    /// and those older than ``Configuration/maxAge`` (found on reading, swept at opening or by
    /// ``removeExpired()``). Not entries removed by callers, nor damaged files dropped on
    /// reading. Does not wait for the initial scan.
    public var evictionCount: Int {
        index.withLock { $0.evictions }
    }

    /// Entry names from least to most recently used; for tests and diagnostics.
    var namesByRecency: [String] {
        waitUntilIndexLoaded()
        return index.withLock { Array($0.list.keysByRecency().reversed()) }
    }

    /// The file name for `key`: 64 lowercase hex digits of SHA-256 over its UTF-8 bytes.
    public static func fileName(forKey key: String) -> String {
        SHA256.hexDigest(key.utf8)
    }

    /// The full path of the entry file for `key` (a file written by ``setData(batch:)`` holds
    /// other entries too, see `EntryFile`).
    public func filePath(forKey key: String) -> String {
        path + "/" + fileName(forKey: key)
    }

    /// `fileName(forKey:)` through the memo of recent keys.
    func fileName(forKey key: String) -> String {
        if let name = recentNames.value(forKey: key) { return name }
        let name = Self.fileName(forKey: key)
        recentNames.setValue(name, forKey: key)
        return name
    }

    // MARK: Internals

    private enum ReadOutcome {
        case miss
        case entry(Metadata, Data?)
    }

    private func read(key: String, includeData: Bool, touch: Bool = true) -> ReadOutcome {
        let name = fileName(forKey: key)
        if isKnownMiss(name) { return .miss }
        let filePath = path + "/" + name
        switch EntryFile.read(path: filePath, key: key.utf8, includeData: includeData) {
        case .missing:
            index.withLock { index in
                // Nothing to forget when the loaded index never knew the name (the common cold
                // miss): no lstat then. Otherwise re-checked under the lock, since a concurrent
                // write may have created the file meanwhile.
                guard !index.isLoaded || index.list.contains(name) else { return }
                if POSIXFile.inode(atPath: filePath) == nil { index.recordRemoval(name) }
            }
            return .miss
        case .otherKey:
            return .miss
        case .corrupt(let inode):
            discard(name: name, inode: inode)
            return .miss
        case .entry(let metadata, let data, let fileSize, _):
            let time = now()
            let stored = Int64((metadata.storedDate.timeIntervalSince1970 * 1e9).rounded())
            if configuration.maxAge > .zero,
               time - stored > Self.nanoseconds(configuration.maxAge) {
                discard(name: name, inode: nil, expired: true)
                return .miss
            }
            guard touch else { return .entry(metadata, data) }
            let flushNeeded = index.withLock { index in
                index.recordAccess(name, size: fileSize, stored: stored, now: time,
                                   fileExists: { POSIXFile.inode(atPath: filePath) != nil })
                return index.pendingJournalLines >= Self.journalBatch
            }
            if flushNeeded {
                flush()
                compactJournalIfNeeded()
            }
            return .entry(metadata, data)
        }
    }

    /// Deletes a bad or expired entry, unless another writer has replaced the file since it
    /// was read (a different inode), in which case the new entry is left alone.
    /// An expired entry counts in ``evictionCount``.
    private func discard(name: String, inode: UInt64?, expired: Bool = false) {
        let filePath = path + "/" + name
        index.withLock { index in
            changingDirectory(&index) { index in
                let current = POSIXFile.inode(atPath: filePath)
                if current != nil && (inode == nil || current == inode) {
                    POSIXFile.unlink(filePath)
                    if expired { index.evictions += 1 }
                } else if current != nil {
                    return  // replaced by a valid write meanwhile: keep it and its index entry
                }
                index.recordRemoval(name)
            }
        }
    }

    func evictionCandidates(_ index: inout Index) -> [String] {
        index.namesToEvict(sizeLimit: configuration.sizeLimit, countLimit: configuration.countLimit,
                           trimRatio: configuration.trimRatio).names
    }

    private func expiredCandidates(_ index: inout Index) -> [String] {
        guard configuration.maxAge > .zero else { return [] }
        return index.removeStored(before: now() - Self.nanoseconds(configuration.maxAge))
    }

    func deleteFiles(_ names: [String]) {
        for name in names { POSIXFile.unlink(path + "/" + name) }
    }

    private func compactJournalIfNeeded() {
        let snapshot: [(name: String, lastUsed: Int64)]? = index.withLock { index in
            guard index.isLoaded, index.journalLines > max(4 * index.count, 4096) else { return nil }
            index.journalLines = 0
            return index.list.nodes.compactMap { node in
                node.value.lastUsed > node.value.stored ? (node.key, node.value.lastUsed) : nil
            }
        }
        guard let snapshot else { return }
        changingDirectoryUnlocked { Journal.rewrite(snapshot, directory: path, temporaryName: temporaryName()) }
        index.withLock { $0.journalLines += snapshot.count }
    }

    /// A name no other writer uses: prefix, process id and randomness (two caches in one
    /// process may share a directory), chosen once per cache, then a per-cache counter.
    func temporaryName() -> String {
        let serial = temporaryCounter.add(1, ordering: .relaxed).newValue
        return temporaryNamePrefix + String(serial)
    }

    private func now() -> Int64 {
        Self.nanoseconds(configuration.clock.now())
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? (seconds < 0 ? .min : .max) : scaled &+ attoseconds / 1_000_000_000
    }
}
