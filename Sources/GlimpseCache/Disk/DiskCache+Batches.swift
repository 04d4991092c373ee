import Foundation

extension DiskCache {
    /// One entry of ``DiskCache/setData(batch:)``.
    public struct BatchEntry: Sendable {
        public var key: String
        public var data: [UInt8]
        public var metadata: Metadata

        public init(key: String, data: [UInt8], metadata: Metadata = Metadata()) {
            self.key = key
            self.data = data
            self.metadata = metadata
        }
    }

    /// Entries whose file would be larger than this are stored one file each.
    static let batchEntryLimit = 16 << 10
    /// The largest batch file written, and the most entries in one.
    static let batchByteLimit = 64 << 10
    static let batchCountLimit = 32

    /// Stores several entries, as `setData` would one after another, but lets small ones share
    /// a file: their complete entry files are written back to back into one unnamed file, which
    /// is then linked once under each entry's name (a hard link per entry). Creating a file
    /// costs the filesystem an inode, its data block and a directory entry; a link costs only
    /// the directory entry (measured on ext4: 10 µs instead of 20 per entry in batches of 10).
    ///
    /// A name appears only once its file is complete, so a crash at any moment leaves each
    /// entry complete or absent, and other processes read batched entries like any other
    /// (`EntryFile` finds the entry's record in the file). Removing or evicting an entry
    /// removes its name; the file's space is freed with its last name, so while some entries
    /// of a batch remain the directory may use up to ``batchByteLimit`` more per batch than
    /// ``totalSize`` counts.
    ///
    /// `metadata.storedDate` is set to the current time; entries that `setData` would reject
    /// are skipped. - Returns: how many entries were stored (only the last of several entries
    /// with one key is).
    @discardableResult
    public func setData(batch entries: [BatchEntry]) -> Int {
        var last: [String: Int] = [:]
        for (index, entry) in entries.enumerated() { last[entry.key] = index }
        // Millisecond precision, as in `setData`.
        let writeTime = Self.nanoseconds(configuration.clock.now()) / 1_000_000 * 1_000_000
        let storedDate = Date(timeIntervalSince1970: Double(writeTime / 1_000_000) / 1e3)
        var stored = 0
        var group: [(name: String, record: [UInt8])] = []
        var groupBytes = 0
        for (index, entry) in entries.enumerated() where last[entry.key] == index {
            var metadata = entry.metadata
            metadata.storedDate = storedDate
            let keyBytes = Array(entry.key.utf8)
            let metadataBytes = metadata.encoded()
            let length = EntryFile.headerLength + keyBytes.count + metadataBytes.count + entry.data.count
            let batchable = length <= Self.batchEntryLimit && length <= configuration.sizeLimit
                && keyBytes.count <= EntryFile.maximumPrefixField && metadataBytes.count <= EntryFile.maximumPrefixField
                && linkMethod.load(ordering: .relaxed) != Self.temporaryNames
            guard batchable else {
                // Large, or no way to link here: on its own (which also rejects what is invalid).
                if (try? setData(entry.data, metadata: entry.metadata, forKey: entry.key)) != nil { stored += 1 }
                continue
            }
            if groupBytes + length > Self.batchByteLimit || group.count == Self.batchCountLimit {
                stored += writeBatch(group, writeTime: writeTime, storedDate: storedDate)
                group.removeAll(keepingCapacity: true)
                groupBytes = 0
            }
            let record = entry.data.withUnsafeBytes {
                EntryFile.contents(key: keyBytes, encodedMetadata: metadataBytes, data: $0)
            }
            group.append((fileName(forKey: entry.key), record))
            groupBytes += length
        }
        return stored + writeBatch(group, writeTime: writeTime, storedDate: storedDate)
    }

    /// Writes `records` (complete entry files) as one file linked under every name; returns how
    /// many names now hold their record. Falls back to one file per record when unnamed files
    /// cannot be linked here.
    private func writeBatch(_ records: [(name: String, record: [UInt8])], writeTime: Int64, storedDate: Date) -> Int {
        guard !records.isEmpty else { return 0 }
        let fileTime = Self.kernelStampsWriteTime(writeTime) ? nil : storedDate
        guard records.count > 1, var method = POSIXFile.LinkMethod(rawValue: linkMethod.load(ordering: .relaxed)) else {
            return storeEach(records, fileTime: fileTime, writeTime: writeTime)
        }
        let fd = POSIXFile.openUnnamed(inDirectory: path)
        guard fd >= 0 else { return storeEach(records, fileTime: fileTime, writeTime: writeTime) }
        defer { POSIXFile.close(fd) }
        var file: [UInt8] = []
        file.reserveCapacity(records.reduce(0) { $0 + $1.record.count })
        for record in records { file.append(contentsOf: record.record) }
        guard EntryFile.write(file, to: fd, storedDate: fileTime, durable: configuration.durableWrites) else { return 0 }

        // New names are linked without the index lock (see `writeUnnamed`); names the index
        // holds are replaced under it, through a temporary name, like single entries.
        var linked = [Bool](repeating: false, count: records.count)
        while true {
            let (isNew, tracksDirectory) = index.withLock { index in
                (records.map { !index.list.contains($0.name) }, index.knownStamp != nil)
            }
            let before = tracksDirectory ? DirectoryStamp(of: directoryDescriptor) : nil
            var unavailable = false
            for index in records.indices where isNew[index] && !linked[index] {
                if POSIXFile.link(fd, to: path + "/" + records[index].name, method: method) {
                    linked[index] = true
                } else if Self.isUnavailable(POSIXFile.lastError) {
                    unavailable = !linked.contains(true) || !Self.hasLostEveryName(fd)
                    break
                }
            }
            let after = tracksDirectory ? DirectoryStamp(of: directoryDescriptor) : nil
            index.withLock { index in
                takeChange(from: before, to: after, &index)
                for position in records.indices where linked[position] {
                    index.recordWrite(records[position].name, size: records[position].record.count, now: writeTime)
                }
            }
            guard unavailable else { break }
            guard !linked.contains(true) else {
                // Refused after links that worked: not the method but the file, which other
                // writers replaced under every name it had (see `hasLostEveryName`).
                break
            }
            // This way of linking is refused here: the next one, as `writeUnnamed` does.
            guard let next = POSIXFile.LinkMethod(rawValue: method.rawValue + 1) else {
                linkMethod.store(Self.temporaryNames, ordering: .relaxed)
                let rest = records.indices.filter { !linked[$0] }.map { records[$0] }
                return linked.filter { $0 }.count + storeEach(rest, fileTime: fileTime, writeTime: writeTime)
            }
            linkMethod.store(next.rawValue, ordering: .relaxed)
            method = next
        }
        index.withLock { index in
            changingDirectory(&index) { index in
                for position in records.indices where !linked[position] {
                    let finalPath = path + "/" + records[position].name
                    let temporary = path + "/" + temporaryName()
                    guard POSIXFile.link(fd, to: temporary, method: method) else { continue }
                    guard POSIXFile.rename(temporary, finalPath) else {
                        POSIXFile.unlink(temporary)
                        continue
                    }
                    index.recordWrite(records[position].name, size: records[position].record.count, now: writeTime)
                    linked[position] = true
                }
                deleteFiles(evictionCandidates(&index))
            }
        }
        // Records the file could no longer be linked for (it lost every name) get files of their own.
        let rest = records.indices.filter { !linked[$0] }.map { records[$0] }
        let late = rest.isEmpty ? 0 : storeEach(rest, fileTime: fileTime, writeTime: writeTime)
        return records.count - rest.count + late
    }

    /// Whether the batch file behind `fd`, once linked, has no name left: other writers
    /// replaced (renamed over) every entry it held. The kernel links such a file no more
    /// (linkat(2): ENOENT), as it would any deleted file.
    private static func hasLostEveryName(_ fd: Int32) -> Bool {
        POSIXFile.linkCount(fd) == 0
    }

    /// One file per record.
    private func storeEach(_ records: [(name: String, record: [UInt8])], fileTime: Date?, writeTime: Int64) -> Int {
        records.reduce(0) { count, record in
            (try? store(record.record, name: record.name, fileTime: fileTime, writeTime: writeTime)) != nil ? count + 1 : count
        }
    }
}
