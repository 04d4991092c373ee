import Glibc

extension DiskCache {
    /// The initial listing of a namespace directory, run off the caller's thread so opening a
    /// directory of any size returns at once; reads are served from the files meanwhile.
    enum DirectoryScan {
        static let temporaryPrefix = ".tmp-"
        /// Temporary files older than this belong to writers that crashed or were killed.
        static let staleTemporaryAge: Int64 = 10 * 60 * 1_000_000_000

        struct Result {
            /// Entries ordered from least to most recently used.
            var entries: [(name: String, entry: Index.Entry)]
            var journalLines: Int
        }

        /// Lists entry files with their sizes and modification times, orders them by the last
        /// use recorded in the journal (else their write time), and deletes stale temporaries.
        static func run(directory: String, now: Int64) -> Result {
            var entries: [(name: String, entry: Index.Entry)] = []
            guard let handle = opendir(directory) else { return Result(entries: [], journalLines: 0) }
            let directoryFD = dirfd(handle)
            while let record = readdir(handle) {
                // Safe: d_name is a NUL-terminated array inside the dirent readdir returned,
                // valid until the next readdir call, and only read within this iteration.
                let scanned: (String?, Bool) = withUnsafePointer(to: &record.pointee.d_name) { tuple in
                    tuple.withMemoryRebound(to: CChar.self, capacity: 256) { namePointer in
                        let length = strlen(namePointer)
                        if length == 64 {
                            let bytes = UnsafeRawBufferPointer(start: namePointer, count: 64)
                            return (Journal.entryName(bytes), false)
                        }
                        let isTemporary = strncmp(namePointer, temporaryPrefix, 5) == 0
                        return (isTemporary ? String(cString: namePointer) : nil, isTemporary)
                    }
                }
                guard let name = scanned.0 else { continue }
                guard let status = POSIXFile.status(in: directoryFD, name: name), status.isRegular else { continue }
                if scanned.1 {
                    if now - status.modified > staleTemporaryAge { POSIXFile.unlink(directory + "/" + name) }
                    continue
                }
                // A batch file's names share its size (their records tile it).
                let size = status.size / max(1, status.links)
                entries.append((name, Index.Entry(size: size, stored: status.modified, lastUsed: status.modified)))
            }
            closedir(handle)

            let journal = Journal.read(directory: directory)
            for index in entries.indices {
                if let used = journal.lastUsed[entries[index].name], used > entries[index].entry.lastUsed {
                    entries[index].entry.lastUsed = used
                }
            }
            entries.sort { $0.entry.lastUsed < $1.entry.lastUsed }
            return Result(entries: entries, journalLines: journal.lines)
        }
    }
}
