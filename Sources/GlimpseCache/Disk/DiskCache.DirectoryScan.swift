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
            let listed = POSIXFile.forEachName(inDirectory: directory) { namePointer, length, directoryFD in
                // Safe: the name holds `length` bytes before its NUL (forEachName's contract).
                let bytes = UnsafeRawBufferPointer(start: namePointer, count: length)
                let isTemporary = length != 64 && bytes.starts(with: temporaryPrefix.utf8)
                guard let name = isTemporary ? String(cString: namePointer) : Journal.entryName(bytes),
                      let status = POSIXFile.status(in: directoryFD, name: namePointer), status.isRegular
                else { return }
                if isTemporary {
                    if now - status.modified > staleTemporaryAge { POSIXFile.unlink(directory + "/" + name) }
                    return
                }
                // A batch file's names share its size (their records tile it).
                let size = status.size / max(1, status.links)
                entries.append((name, Index.Entry(size: size, stored: status.modified, lastUsed: status.modified)))
            }
            guard listed else { return Result(entries: [], journalLines: 0) }

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
