// Linux (glibc) only, like the rest of Glimpse's I/O.
import Glibc

/// Thin, retrying wrappers over the POSIX calls the disk cache needs. The cache talks to the
/// kernel directly because `rename(2)` atomicity, `O_EXCL` temporary files and `pread(2)`
/// into caller-owned buffers are the whole point, and FileManager hides them.
enum POSIXFile {
    /// `O_NOATIME` (Linux open(2)); Glibc hides it behind `_GNU_SOURCE`. The value is the
    /// asm-generic one used by x86-64 and arm64.
    static let noAccessTime: Int32 = 0o1_000_000

    /// `O_TMPFILE` (Linux open(2), since 3.11): an unnamed regular file in a directory, given a
    /// name later with `linkat(2)`. Hidden behind `_GNU_SOURCE` too; asm-generic value
    /// (`__O_TMPFILE | O_DIRECTORY`), shared by x86-64 and arm64.
    static let unnamedFile: Int32 = 0o20_200_000
    /// `AT_EMPTY_PATH` (linkat(2)): link the file `fd` refers to itself.
    static let emptyPath: Int32 = 0x1000
    /// `AT_SYMLINK_FOLLOW` (linkat(2)).
    static let followLink: Int32 = 0x400

    /// Opens an unnamed file for writing in `directory` (`O_TMPFILE`); -1 with `errno` set
    /// when the kernel or filesystem does not offer it.
    static func openUnnamed(inDirectory directory: String, mode: mode_t = 0o644) -> Int32 {
        open(directory, flags: O_WRONLY | unnamedFile, mode: mode)
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
        switch method {
        case .emptyPath:
            return linkat(fd, "", AT_FDCWD, path, emptyPath) == 0
        case .procfs:
            return linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, path, followLink) == 0
        }
    }

    static func open(_ path: String, flags: Int32, mode: mode_t = 0o644) -> Int32 {
        while true {
            let fd = path.withCString { Glibc.open($0, flags | O_CLOEXEC, mode) }
            if fd >= 0 || errno != EINTR { return fd }
        }
    }

    static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// Reads exactly `count` bytes at `offset`; `false` on error or early end of file.
    static func readFully(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int, offset: Int) -> Bool {
        transferFully(count) { done in pread(fd, buffer + done, count - done, off_t(offset + done)) }
    }

    /// Writes all bytes of every buffer in order; `false` on error.
    static func writeFully(_ fd: Int32, _ buffers: [UnsafeRawBufferPointer]) -> Bool {
        for buffer in buffers {
            guard let base = buffer.baseAddress else { continue }
            guard transferFully(buffer.count, { done in Glibc.write(fd, base + done, buffer.count - done) }) else {
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

    /// `(size, inode, modification time in nanoseconds since 1970)` of an open file.
    static func status(_ fd: Int32) -> (size: Int, inode: UInt64, modified: Int64)? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return (Int(info.st_size), UInt64(info.st_ino), nanoseconds(info.st_mtim))
    }

    /// Like `status` for a path relative to an open directory, without following symlinks.
    static func status(in directory: Int32, name: UnsafePointer<CChar>) -> (size: Int, inode: UInt64, modified: Int64, isRegular: Bool, links: Int)? {
        var info = stat()
        guard fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return (Int(info.st_size), UInt64(info.st_ino), nanoseconds(info.st_mtim), (info.st_mode & S_IFMT) == S_IFREG,
                Int(info.st_nlink))
    }

    static func inode(atPath path: String) -> UInt64? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return UInt64(info.st_ino)
    }

    static func rename(_ from: String, _ to: String) -> Bool {
        Glibc.rename(from, to) == 0
    }

    @discardableResult
    static func unlink(_ path: String) -> Bool {
        Glibc.unlink(path) == 0
    }

    static var lastError: Int32 { errno }

    private static func nanoseconds(_ time: timespec) -> Int64 {
        Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }
}
