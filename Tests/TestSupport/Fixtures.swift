import Foundation

/// Locates test data through this file's path, never the working directory.
public enum Fixtures {
    /// The repository root (two levels above `Tests/TestSupport`).
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Fixtures/` at the repository root.
    public static let directory: URL = repositoryRoot.appendingPathComponent("Fixtures")

    /// `../shared` beside the repository, when present (tests that need it skip otherwise).
    /// A worktree one level further down (`wt/<branch>`) finds `../../shared`.
    public static let shared: URL? = {
        let parent = repositoryRoot.deletingLastPathComponent()
        for base in [parent, parent.deletingLastPathComponent()] {
            let url = base.appendingPathComponent("shared")
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("corpus").path) { return url }
        }
        return nil
    }()

    /// `../shared/corpus/<subpath>` when present.
    public static func corpus(_ subpath: String) -> URL? {
        guard let url = shared?.appendingPathComponent("corpus").appendingPathComponent(subpath),
              FileManager.default.fileExists(atPath: url.path) else { return nil }
        return url
    }

    /// A file under `Fixtures/`.
    public static func url(_ subpath: String) -> URL { directory.appendingPathComponent(subpath) }

    /// The bytes of a file under `Fixtures/`.
    public static func bytes(_ subpath: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: url(subpath)))
    }

    /// The bytes of any file.
    public static func bytes(at url: URL) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: url))
    }

    /// Files in `directory` whose names end with one of `extensions`, sorted by name.
    public static func files(in directory: URL, extensions: [String]) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { name in extensions.contains { name.lowercased().hasSuffix($0) } }
            .sorted()
            .map { directory.appendingPathComponent($0) }
    }
}
