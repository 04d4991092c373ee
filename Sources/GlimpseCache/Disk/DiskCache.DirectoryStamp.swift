extension DiskCache {
    /// What `fstat(2)` says about the cache directory that changes whenever an entry is created,
    /// renamed or removed in it: the modification and status-change times (POSIX.1-2017
    /// `<sys/stat.h>`: a directory's `st_mtim` and `st_ctim` are updated when entries are added
    /// or removed), with the inode to notice a directory replaced under its path.
    ///
    /// Comparing two stamps tells whether anyone changed the directory in between only if a
    /// change is guaranteed to produce a new time. Linux 6.13 and later give directories
    /// "multigrain" times on the common filesystems: once a time has been read, the next change
    /// gets a fine-grained one. Older kernels stamp with a coarse clock (a few milliseconds), so
    /// two changes within one tick look like one; `isFineGrained(directory:)` tells them apart by
    /// trying.
    struct DirectoryStamp: Equatable, Sendable {
        var inode: UInt64
        var modifiedSeconds: Int
        var modifiedNanoseconds: Int
        var changedSeconds: Int
        var changedNanoseconds: Int

        /// The stamp of the open directory `fd`; `nil` when `fd` is not open, `fstat` fails, or
        /// the directory has been deleted (no links left), which no later change would show.
        init?(of fd: Int32) {
            guard fd >= 0 else { return nil }
            guard let times = POSIXFile.changeTimes(fd), times.links > 0 else { return nil }
            inode = times.inode
            (modifiedSeconds, modifiedNanoseconds) = times.modified
            (changedSeconds, changedNanoseconds) = times.changed
        }

        /// Whether every change to the directory right after its stamp was read yields a new
        /// stamp here: creates and removes a scratch file (a temporary name, which the directory
        /// scan would clean up after a crash) twice in quick succession and checks that each
        /// step moved the stamp. A coarse clock fails this almost surely (four changes would
        /// have to straddle four ticks within microseconds); so does a directory this process
        /// may not write to.
        static func isFineGrained(directory fd: Int32, path: String, scratchName: () -> String) -> Bool {
            for _ in 0..<2 {
                let scratch = path + "/" + scratchName()
                guard let before = DirectoryStamp(of: fd) else { return false }
                let file = POSIXFile.open(scratch, flags: [.writeOnly, .create, .exclusive], mode: 0o600)
                guard file >= 0 else { return false }
                POSIXFile.close(file)
                let created = DirectoryStamp(of: fd)
                let removed = POSIXFile.unlink(scratch)
                let after = DirectoryStamp(of: fd)
                guard removed, let created, let after, created != before, after != created else { return false }
            }
            return true
        }
    }
}
