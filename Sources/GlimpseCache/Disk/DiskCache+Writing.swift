import Foundation

extension DiskCache {
    /// Stores `data` with `metadata` for `key`, atomically replacing any previous entry, then
    /// evicts least recently used entries if a limit is exceeded. `metadata.storedDate` is set
    /// to the current time. Any contiguous bytes will do (`Data`, or the pipeline's `[UInt8]`
    /// downloads without a copy into `Data`).
    public func setData(_ data: some ContiguousBytes, metadata: Metadata = Metadata(), forKey key: String) throws(DiskCache.Error) {
        let result: Result<Void, DiskCache.Error> = data.withUnsafeBytes { bytes in
            do throws(DiskCache.Error) {
                return .success(try write(bytes, metadata: metadata, forKey: key))
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    private func write(_ data: UnsafeRawBufferPointer, metadata: Metadata, forKey key: String) throws(DiskCache.Error) {
        let name = fileName(forKey: key)
        let keyBytes = Array(key.utf8)
        var metadata = metadata
        // Millisecond precision: what the metadata record keeps, so file time and record agree.
        let writeTime = Self.nanoseconds(configuration.clock.now()) / 1_000_000 * 1_000_000
        metadata.storedDate = Date(timeIntervalSince1970: Double(writeTime / 1_000_000) / 1e3)
        let metadataBytes = metadata.encoded()
        // Readers reject longer key and metadata fields as foreign, so never write them.
        guard keyBytes.count <= EntryFile.maximumPrefixField, metadataBytes.count <= EntryFile.maximumPrefixField else {
            throw .keyOrMetadataTooLong(length: max(keyBytes.count, metadataBytes.count), limit: EntryFile.maximumPrefixField)
        }
        let estimated = EntryFile.headerLength + keyBytes.count + metadataBytes.count + data.count
        guard estimated <= configuration.sizeLimit else {
            throw .entryTooLarge(size: estimated, limit: configuration.sizeLimit)
        }
        let file = EntryFile.contents(key: keyBytes, encodedMetadata: metadataBytes, data: data)
        let fileTime = Self.kernelStampsWriteTime(writeTime) ? nil : metadata.storedDate
        try store(file, name: name, fileTime: fileTime, writeTime: writeTime)
    }

    /// Puts the complete entry file `file` in place under `name`: unnamed and linked where
    /// possible, else through a temporary name.
    func store(_ file: [UInt8], name: String, fileTime: Date?, writeTime: Int64) throws(DiskCache.Error) {
        if try writeUnnamed(file, name: name, storedDate: fileTime, writeTime: writeTime) { return }
        let temporary = path + "/" + temporaryName()
        // Creating the temporary name changes the directory like any entry would.
        let (fd, openError) = index.withLock { index in
            changingDirectory(&index) { _ in
                let fd = POSIXFile.open(temporary, flags: [.writeOnly, .create, .exclusive], mode: 0o644)
                return (fd, POSIXFile.lastError)
            }
        }
        let written = fd >= 0 && EntryFile.write(file, to: fd, storedDate: fileTime,
                                                  durable: configuration.durableWrites)
        let code = fd >= 0 ? POSIXFile.lastError : openError
        if fd >= 0 { POSIXFile.close(fd) }
        guard written else {
            POSIXFile.unlink(temporary)
            throw .io(operation: "write", errno: code)
        }
        // Renames, unlinks and index updates happen together under the lock, so an eviction
        // can never delete a file that a concurrent write has just put in place.
        let renameError: Int32? = index.withLock { index in
            changingDirectory(&index) { index in
                guard POSIXFile.rename(temporary, path + "/" + name) else { return POSIXFile.lastError }
                index.recordWrite(name, size: file.count, now: writeTime)
                deleteFiles(evictionCandidates(&index))
                return nil
            }
        }
        if let renameError {
            POSIXFile.unlink(temporary)
            throw .io(operation: "rename", errno: renameError)
        }
    }

    /// Whether a file created now gets `writeTime` (nanoseconds since 1970 on the cache's
    /// clock) as its modification time from the kernel, so `futimens` can be skipped: true
    /// when the cache's clock reads the system's real time (the default wall clock), within
    /// the few milliseconds the kernel's coarse file-time clock may lag. An injected clock
    /// reads something else and gets its time set by hand, as the directory scan expects.
    static func kernelStampsWriteTime(_ writeTime: Int64) -> Bool {
        guard let real = POSIXFile.realTimeNanoseconds() else { return false }
        return abs(real &- writeTime) < 10_000_000
    }

    private enum LinkOutcome {
        case linked
        case failed(errno: Int32)
        /// This way of naming an unnamed file is not available here; try the next one.
        case unavailable
    }

    /// Writes the entry as an unnamed file (`O_TMPFILE`) and links it into place: one
    /// directory update instead of a temporary name's creation and rename (measured on ext4:
    /// about a quarter less time per entry), and a crash leaves nothing behind. `false` when
    /// the filesystem or the process's privileges do not allow it (remembered per cache); the
    /// caller then writes through a temporary name.
    func writeUnnamed(_ file: [UInt8], name: String, storedDate: Date?, writeTime: Int64) throws(DiskCache.Error) -> Bool {
        guard let method = POSIXFile.LinkMethod(rawValue: linkMethod.load(ordering: .relaxed)) else { return false }
        let fd = POSIXFile.openUnnamed(inDirectory: path)
        guard fd >= 0 else {
            // Not offered by the kernel (EISDIR before Linux 3.11) or the filesystem (EOPNOTSUPP).
            let code = POSIXFile.lastError
            if code == POSIXFile.ErrorCode.notSupported || code == POSIXFile.ErrorCode.isDirectory
                || code == POSIXFile.ErrorCode.invalid { linkMethod.store(Self.temporaryNames, ordering: .relaxed) }
            return false
        }
        defer { POSIXFile.close(fd) }
        guard EntryFile.write(file, to: fd, storedDate: storedDate, durable: configuration.durableWrites) else {
            throw .io(operation: "write", errno: POSIXFile.lastError)
        }
        let finalPath = path + "/" + name
        // Linked under the lock for the reason renames are (see the temporary-name path).
        var current = method
        while true {
            let outcome: LinkOutcome = index.withLock { index in changingDirectory(&index) { index in
                if POSIXFile.link(fd, to: finalPath, method: current) {
                    // Nothing to do.
                } else if POSIXFile.lastError == POSIXFile.ErrorCode.exists {
                    // link(2) never replaces: name it temporarily, then rename over the old entry.
                    let temporary = path + "/" + temporaryName()
                    guard POSIXFile.link(fd, to: temporary, method: current) else {
                        return Self.isUnavailable(POSIXFile.lastError) ? .unavailable : .failed(errno: POSIXFile.lastError)
                    }
                    guard POSIXFile.rename(temporary, finalPath) else {
                        let code = POSIXFile.lastError
                        POSIXFile.unlink(temporary)
                        return .failed(errno: code)
                    }
                } else {
                    return Self.isUnavailable(POSIXFile.lastError) ? .unavailable : .failed(errno: POSIXFile.lastError)
                }
                index.recordWrite(name, size: file.count, now: writeTime)
                deleteFiles(evictionCandidates(&index))
                return .linked
            } }
            switch outcome {
            case .linked:
                return true
            case .failed(let code):
                throw .io(operation: "link", errno: code)
            case .unavailable:
                guard let next = POSIXFile.LinkMethod(rawValue: current.rawValue + 1) else {
                    linkMethod.store(Self.temporaryNames, ordering: .relaxed)
                    return false
                }
                linkMethod.store(next.rawValue, ordering: .relaxed)
                current = next
            }
        }
    }

    /// `linkMethod` once no way of linking unnamed files works.
    static let temporaryNames = 2

    /// linkat(2) errors that mean "not allowed this way" rather than an I/O failure:
    /// `AT_EMPTY_PATH` without `CAP_DAC_READ_SEARCH` is ENOENT, no procfs is ENOENT too.
    static func isUnavailable(_ code: Int32) -> Bool {
        let codes = POSIXFile.ErrorCode.self
        return [codes.notFound, codes.notPermitted, codes.accessDenied, codes.invalid, codes.crossDevice].contains(code)
    }
}
