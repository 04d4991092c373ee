import Foundation
import FuzzTargets

/// Inputs to start from: the regressions kept for the target, the repository's
/// fixtures and, when present, `../shared/corpus` (read in place, never copied).
struct SeedCorpus {
    var regressions: [(name: String, bytes: [UInt8])] = []
    var seeds: [(name: String, bytes: [UInt8])] = []

    /// Files larger than this are skipped as seeds: mutating them is slow and
    /// finds nothing the small ones do not.
    static let maximumSeedSize = 512 * 1024

    init(target: FuzzTarget, repository: URL, extraDirectories: [URL]) {
        let regressionDirectory = repository.appendingPathComponent("Fuzz/Regressions/\(target.rawValue)")
        regressions = Self.files(under: regressionDirectory, extensions: nil, limit: Int.max)
        var directories = [repository.appendingPathComponent("Fixtures")]
        // ../shared beside the repository, or ../../shared from a worktree (wt/<branch>).
        let parent = repository.deletingLastPathComponent()
        if let shared = [parent, parent.deletingLastPathComponent()].map({ $0.appendingPathComponent("shared/corpus") })
            .first(where: { FileManager.default.fileExists(atPath: $0.path) }) {
            directories.append(shared)
        }
        directories += extraDirectories
        for directory in directories {
            seeds += Self.files(under: directory, extensions: target.seedExtensions, limit: Self.maximumSeedSize)
        }
    }

    private static func files(under directory: URL, extensions: [String]?, limit: Int) -> [(name: String, bytes: [UInt8])] {
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey]) else {
            return []
        }
        var found: [(String, [UInt8])] = []
        for case let url as URL in enumerator {
            let name = url.lastPathComponent.lowercased()
            if name.hasPrefix(".") { continue }
            if let extensions, !extensions.contains(where: { name.hasSuffix($0) }) { continue }
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                  let data = try? Data(contentsOf: url), data.count <= limit else { continue }
            found.append((url.path, [UInt8](data)))
        }
        return found.sorted { $0.0 < $1.0 }
    }
}
