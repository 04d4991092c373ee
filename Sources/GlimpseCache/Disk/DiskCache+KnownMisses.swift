extension DiskCache {
    // A cold load asks the disk for an entry that is not there: `open(2)` of a name the
    // directory lacks walks the path and searches the directory's hash tree (measured on ext4:
    // about 5 µs in a directory that grows, more than the rest of the miss together). When the
    // directory has not changed since the index last knew every file in it, the index's answer
    // is the directory's answer, and a `fstat(2)` of the held directory (0.3 µs) proves that.
    //
    // Other processes stay visible: any entry they create (link, rename) changes the stamp, and
    // from then on every miss asks the filesystem again, as before. This cache's own changes
    // are taken into the stamp, provided the stamp was the known one just before them. Where a
    // change within the same instant cannot be told from none (coarse directory times, see
    // `DirectoryStamp`), the shortcut stays off. A wrong "absent" would cost a download and a
    // rewrite of the entry, never a wrong image.

    /// Whether the file for `name` certainly does not exist, decided without looking it up:
    /// the index is loaded, does not hold `name`, and the directory is unchanged since it held
    /// every entry.
    func isKnownMiss(_ name: String) -> Bool {
        index.withLock { index in
            guard index.isLoaded, let known = index.knownStamp, !index.list.contains(name) else { return false }
            // Read under the lock: this cache's own changes update the known stamp under it too.
            return DirectoryStamp(of: directoryDescriptor) == known
        }
    }

    /// Runs `change`, a change this cache makes to its directory (entries linked, renamed or
    /// unlinked), under the index lock, and takes it into the known stamp when the directory
    /// had the known stamp just before: nobody else changed it since.
    func changingDirectory<T>(_ index: inout Index, _ change: (inout Index) -> T) -> T {
        guard let known = index.knownStamp else { return change(&index) }
        let before = DirectoryStamp(of: directoryDescriptor)
        let result = change(&index)
        index.knownStamp = before == known ? DirectoryStamp(of: directoryDescriptor) : nil
        return result
    }

    /// `changingDirectory` for a change made without holding the index lock (the journal's
    /// files): the stamp moves on only if no other change of this cache came in between either.
    func changingDirectoryUnlocked<T>(_ change: () -> T) -> T {
        guard index.withLock({ $0.knownStamp != nil }) else { return change() }
        let before = DirectoryStamp(of: directoryDescriptor)
        let result = change()
        let after = DirectoryStamp(of: directoryDescriptor)
        index.withLock { takeChange(from: before, to: after, &$0) }
        return result
    }

    /// Takes a change this cache made without the index lock, between the directory stamps
    /// `before` and `after`, into the known stamp; any other change since the known stamp (of
    /// this cache or not) turns the shortcut off.
    func takeChange(from before: DirectoryStamp?, to after: DirectoryStamp?, _ index: inout Index) {
        index.knownStamp = before != nil && before == index.knownStamp ? after : nil
    }

    /// Before the initial scan lists the directory: takes its stamp as the known one, if this
    /// filesystem makes every change visible in the stamp. Entries created after this moment
    /// by others change the stamp; those created before are in the listing.
    func startTrackingDirectory() {
        guard DirectoryStamp.isFineGrained(directory: directoryDescriptor, path: path, scratchName: temporaryName) else {
            return
        }
        index.withLock { $0.knownStamp = DirectoryStamp(of: directoryDescriptor) }
    }
}
