import Foundation

/// The process's peak resident memory, over a stretch of work: Linux's high-water mark
/// (`VmHWM` in /proc/self/status, proc(5)), which writing `5` to /proc/self/clear_refs
/// resets to the current resident size. `getrusage`'s `ru_maxrss` cannot be reset, so a
/// figure after a warm-up would report the warm-up's peak. Elsewhere there is no figure.
enum PeakResidentMemory {
    /// Starts a new stretch: the high-water mark drops to what is resident now.
    /// `false` when the kernel offers no reset (not Linux, or an old kernel).
    static func reset() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do {
            try handle.write(contentsOf: Data("5".utf8))
            return true
        } catch {
            return false
        }
    }

    /// The peak resident bytes since the last ``reset()``, or `nil` without /proc.
    static func bytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            // "VmHWM:	  123456 kB"
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2, let kibibytes = Int(fields[1]) else { return nil }
            return kibibytes * 1024
        }
        return nil
    }
}
