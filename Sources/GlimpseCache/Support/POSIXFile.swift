#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The disk cache's only door to the operating system: thin, retrying wrappers over the POSIX
/// calls it needs, with the flags and error numbers it compares against. The cache talks to
/// the kernel directly because `rename(2)` atomicity, `O_EXCL` temporary files and `pread(2)`
/// into caller-owned buffers are the whole point, and FileManager hides them.
///
/// Every C-library spelling that differs between glibc, musl and Darwin (stat's time fields,
/// Linux-only open flags) is resolved here, so no other file of the module imports a C library.
enum POSIXFile {
    /// `open(2)` flags.
    struct OpenFlags: OptionSet, Sendable {
        let rawValue: Int32

        static let readOnly = OpenFlags(rawValue: O_RDONLY)
        static let writeOnly = OpenFlags(rawValue: O_WRONLY)
        static let create = OpenFlags(rawValue: O_CREAT)
        static let exclusive = OpenFlags(rawValue: O_EXCL)
        static let append = OpenFlags(rawValue: O_APPEND)
        static let directory = OpenFlags(rawValue: O_DIRECTORY)

        /// `O_NOATIME` (Linux open(2)): glibc hides it behind `_GNU_SOURCE`, so it is spelled
        /// out (the asm-generic value, used by x86-64 and arm64). Nothing elsewhere.
        #if os(Linux)
        static let noAccessTime = OpenFlags(rawValue: 0o1_000_000)
        #else
        static let noAccessTime: OpenFlags = []
        #endif
    }

    /// The `errno` values the cache tells apart.
    enum ErrorCode {
        static let exists = EEXIST
        static let notFound = ENOENT
        static let notPermitted = EPERM
        static let accessDenied = EACCES
        static let invalid = EINVAL
        static let crossDevice = EXDEV
        static let notSupported = EOPNOTSUPP
        static let isDirectory = EISDIR
    }

    #if os(Linux)
    /// `O_TMPFILE` (Linux open(2), since 3.11): an unnamed regular file in a directory, given a
    /// name later with `linkat(2)`. Hidden behind `_GNU_SOURCE` too; asm-generic value
    /// (`__O_TMPFILE | O_DIRECTORY`), shared by x86-64 and arm64.
    private static let unnamedFile: Int32 = 0o20_200_000
    /// `AT_EMPTY_PATH` (linkat(2)): link the file `fd` refers to itself.
    private static let emptyPath: Int32 = 0x1000
    #endif

    /// Opens an unnamed file for writing in `directory` (`O_TMPFILE`); -1 with `errno` set
    /// when the kernel or filesystem does not offer it (always, outside Linux: `EOPNOTSUPP`).
    static func openUnnamed(inDirectory directory: String, mode: mode_t = 0o644) -> Int32 {
        #if os(Linux)
        return open(directory, flags: .writeOnly, extra: unnamedFile, mode: mode)
        #else
        errno = EOPNOTSUPP
        return -1
        #endif
    }

    /// How `link(_:to:)` names an unnamed file; found by trying, once per cache.
    enum LinkMethod: Int {
        /// `linkat(fd, "", …, AT_EMPTY_PATH)`: needs `CAP_DAC_READ_SEARCH`.
        case emptyPath = 0
        /// `linkat` of `/proc/self/fd/N` with `AT_SYMLINK_FOLLOW`: needs procfs.
        case procfs = 1
    }

    /// Gives the open unnamed file `fd` the name `path`; fails with `EEXIST` when `path`
    /// exists (link(2) never replaces).
    static func link(_ fd: Int32, to path: String, method: LinkMethod) -> Bool {
        #if os(Linux)
        switch method {
        case .emptyPath:
            return linkat(fd, "", AT_FDCWD, path, emptyPath) == 0
        case .procfs:
            return linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0
        }
        #else
        // Unreachable in practice: `openUnnamed` never opens a file to link here.
        errno = EOPNOTSUPP
        return false
        #endif
    }

    static func open(_ path: String, flags: OpenFlags, mode: mode_t = 0o644) -> Int32 {
        open(path, flags: flags, extra: 0, mode: mode)
    }

    private static func open(_ path: String, flags: OpenFlags, extra: Int32, mode: mode_t) -> Int32 {
        while true {
            let fd = path.withCString { systemOpen($0, flags.rawValue | extra | O_CLOEXEC, mode) }
            if fd >= 0 || errno != EINTR { return fd }
        }
    }

    static func close(_ fd: Int32) {
        _ = systemClose(fd)
    }

    /// Reads exactly `count` bytes at `offset`; `false` on error or early end of file.
    static func readFully(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int, offset: Int) -> Bool {
        transferFully(count) { done in pread(fd, buffer + done, count - done, off_t(offset + done)) }
    }

    /// Writes all bytes of every buffer in order; `false` on error.
    static func writeFully(_ fd: Int32, _ buffers: [UnsafeRawBufferPointer]) -> Bool {
        for buffer in buffers {
            guard let base = buffer.baseAddress else { continue }
            guard transferFully(buffer.count, { done in systemWrite(fd, base + done, buffer.count - done) }) else {
                return false
            }
        }
        return true
    }

    /// Repeats `transfer(done)` until `count` bytes have moved: `read`/`write` may move fewer
    /// bytes than asked, or be interrupted by a signal (`EINTR`). `false` on error or end of file.
    private static func transferFully(_ count: Int, _ transfer: (_ done: Int) -> Int) -> Bool {
        var done = 0
        while done < count {
            let result = transfer(done)
            if result > 0 {
                done += result
            } else if result < 0 && errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }

    /// Sets the open file's access and modification times to `seconds` since 1970 (`futimens`).
    static func setModificationTime(_ fd: Int32, secondsSince1970 seconds: Double) {
        let whole = seconds.rounded(.down)
        let time = timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9))
        _ = [time, time].withUnsafeBufferPointer { futimens(fd, $0.baseAddress) }
    }

    /// `fsync(2)`; `false` on error.
    static func synchronize(_ fd: Int32) -> Bool {
        fsync(fd) == 0
    }

    /// `(size, inode, modification time in nanoseconds since 1970)` of an open file.
    static func status(_ fd: Int32) -> (size: Int, inode: UInt64, modified: Int64)? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return (Int(info.st_size), UInt64(info.st_ino), nanoseconds(modificationTime(info)))
    }

    /// Like `status` for a path relative to an open directory, without following symlinks.
    static func status(in directory: Int32, name: UnsafePointer<CChar>) -> (size: Int, inode: UInt64, modified: Int64, isRegular: Bool, links: Int)? {
        var info = stat()
        guard fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return (Int(info.st_size), UInt64(info.st_ino), nanoseconds(modificationTime(info)),
                (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_nlink))
    }

    /// What `fstat(2)` says of an open directory's changes: its inode, link count, and
    /// modification and status-change times as (seconds, nanoseconds).
    static func changeTimes(_ fd: Int32) -> (inode: UInt64, links: Int, modified: (Int, Int), changed: (Int, Int))? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        let modified = modificationTime(info), changed = statusChangeTime(info)
        return (UInt64(info.st_ino), Int(info.st_nlink), (Int(modified.tv_sec), Int(modified.tv_nsec)),
                (Int(changed.tv_sec), Int(changed.tv_nsec)))
    }

    /// The number of names the open file `fd` has; `nil` when `fstat` fails.
    static func linkCount(_ fd: Int32) -> Int? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return Int(info.st_nlink)
    }

    static func inode(atPath path: String) -> UInt64? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return UInt64(info.st_ino)
    }

    /// Calls `body` with every name in the directory at `path` (NUL-terminated, with its length
    /// in bytes) and the open directory's descriptor, for `status(in:name:)`. `false` when the
    /// directory cannot be opened.
    static func forEachName(inDirectory path: String,
                            _ body: (_ name: UnsafePointer<CChar>, _ length: Int, _ directory: Int32) -> Void) -> Bool {
        guard let handle = opendir(path) else { return false }
        defer { closedir(handle) }
        let directoryFD = dirfd(handle)
        while let record = readdir(handle) {
            // Safe: d_name is a NUL-terminated array inside the dirent readdir returned (256
            // bytes on Linux, 1024 on Darwin), valid until the next readdir call, and only read
            // within this iteration.
            let capacity = MemoryLayout.size(ofValue: record.pointee.d_name)
            withUnsafePointer(to: &record.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: capacity) { name in
                    body(name, strlen(name), directoryFD)
                }
            }
        }
        return true
    }

    static func rename(_ from: String, _ to: String) -> Bool {
        systemRename(from, to) == 0
    }

    @discardableResult
    static func unlink(_ path: String) -> Bool {
        systemUnlink(path) == 0
    }

    static var lastError: Int32 { errno }

    /// The system's real-time clock (`CLOCK_REALTIME`) in nanoseconds since 1970; `nil` if it
    /// cannot be read.
    static func realTimeNanoseconds() -> Int64? {
        var now = timespec()
        guard clock_gettime(CLOCK_REALTIME, &now) == 0 else { return nil }
        return nanoseconds(now)
    }

    private static func nanoseconds(_ time: timespec) -> Int64 {
        Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }

    // The C library's spellings that differ by platform.

    private static func modificationTime(_ info: stat) -> timespec {
        #if canImport(Darwin)
        info.st_mtimespec
        #else
        info.st_mtim
        #endif
    }

    private static func statusChangeTime(_ info: stat) -> timespec {
        #if canImport(Darwin)
        info.st_ctimespec
        #else
        info.st_ctim
        #endif
    }

    // The C functions whose names the wrappers above reuse.

    private static func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
        #if canImport(Glibc)
        Glibc.open(path, flags, mode)
        #elseif canImport(Musl)
        Musl.open(path, flags, mode)
        #elseif canImport(Darwin)
        Darwin.open(path, flags, mode)
        #endif
    }

    private static func systemClose(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.close(fd)
        #elseif canImport(Musl)
        Musl.close(fd)
        #elseif canImport(Darwin)
        Darwin.close(fd)
        #endif
    }

    private static func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(fd, buffer, count)
        #elseif canImport(Musl)
        Musl.write(fd, buffer, count)
        #elseif canImport(Darwin)
        Darwin.write(fd, buffer, count)
        #endif
    }

    private static func systemRename(_ from: String, _ to: String) -> Int32 {
        #if canImport(Glibc)
        Glibc.rename(from, to)
        #elseif canImport(Musl)
        Musl.rename(from, to)
        #elseif canImport(Darwin)
        Darwin.rename(from, to)
        #endif
    }

    private static func systemUnlink(_ path: String) -> Int32 {
        #if canImport(Glibc)
        Glibc.unlink(path)
        #elseif canImport(Musl)
        Musl.unlink(path)
        #elseif canImport(Darwin)
        Darwin.unlink(path)
        #endif
    }
}
