import Foundation

/// Derives a default memory-cache budget from the memory the process may actually use.
///
/// In a container the cgroup limit, not the host's RAM, is what the kernel enforces, so it
/// is preferred: cgroup v2 `memory.max` (Linux `Documentation/admin-guide/cgroup-v2.rst`,
/// "Memory Interface Files"), then cgroup v1 `memory.limit_in_bytes`, else physical memory.
public enum MemoryBudget {
    /// The ceiling of the default image cost limit: 512 MiB.
    public static let imageCostCap = 512 << 20

    /// A quarter of the usable memory, capped at `imageCostCap`.
    public static func defaultImageCostLimit(fraction: Double = 0.25) -> Int {
        imageCostLimit(availableMemory: availableMemory(), fraction: fraction)
    }

    /// Pure form of `defaultImageCostLimit`, for tests.
    public static func imageCostLimit(availableMemory: UInt64, fraction: Double, cap: Int = imageCostCap) -> Int {
        let share = Double(availableMemory) * min(max(fraction, 0), 1)
        guard share.isFinite, share < Double(cap) else { return cap }
        return max(Int(share), 0)
    }

    /// The memory the process may use: the tightest cgroup limit found, else physical memory.
    public static func availableMemory(
        cgroupRoot: String = "/sys/fs/cgroup",
        selfCgroupFile: String = "/proc/self/cgroup",
        physicalMemory: UInt64 = ProcessInfo.processInfo.physicalMemory
    ) -> UInt64 {
        var candidates: [String] = [
            cgroupRoot + "/memory.max",
            cgroupRoot + "/memory/memory.limit_in_bytes",
        ]
        // The process's own cgroup may sit below the root the container sees.
        if let text = try? String(contentsOfFile: selfCgroupFile, encoding: .utf8) {
            for line in text.split(separator: "\n") {
                let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
                guard fields.count == 3, fields[2] != "/" else { continue }
                if fields[0] == "0" {
                    candidates.append(cgroupRoot + fields[2] + "/memory.max")
                } else if fields[1].split(separator: ",").contains("memory") {
                    candidates.append(cgroupRoot + "/memory" + fields[2] + "/memory.limit_in_bytes")
                }
            }
        }
        var limit = physicalMemory
        for path in candidates {
            if let text = try? String(contentsOfFile: path, encoding: .utf8),
               let value = parseCgroupLimit(text) {
                limit = min(limit, value)
            }
        }
        return limit
    }

    /// Parses a cgroup memory limit file: a byte count, or `max` (v2) for none. v1 reports
    /// "no limit" as a huge page-aligned number, which the caller's `min` with physical memory
    /// absorbs.
    public static func parseCgroupLimit(_ text: String) -> UInt64? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed != "max", let value = UInt64(trimmed), value > 0 else { return nil }
        return value
    }
}
