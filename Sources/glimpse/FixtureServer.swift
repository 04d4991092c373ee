import Foundation
import LoopbackHTTPServer

/// The repository's `Fixtures/` images served from an embedded loopback
/// server, for `demo` and `bench-pipeline`.
struct FixtureServer {
    struct File: Sendable {
        /// Path under `Fixtures/`, e.g. `png/size-9x9-seq.png`.
        var name: String
        var bytes: [UInt8]
        var contentType: String
    }

    let server: LoopbackHTTPServer
    let files: [File]

    /// `Fixtures/` next to this source file's package (a fresh clone run with
    /// `swift run`), else `./Fixtures`.
    static func locateFixtures(filePath: String = #filePath) -> URL? {
        let candidates = [
            URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Fixtures", isDirectory: true),
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Fixtures", isDirectory: true),
        ]
        return candidates.first { url in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
        }
    }

    static let contentTypes = ["png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif"]

    /// Reads every PNG, JPEG and GIF under `directory` (sorted by name).
    static func images(in directory: URL) -> [File] {
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
            return []
        }
        var files: [File] = []
        for case let url as URL in enumerator {
            guard let type = contentTypes[url.pathExtension.lowercased()],
                  let data = FileManager.default.contents(atPath: url.path) else { continue }
            let name = String(url.standardizedFileURL.path.dropFirst(directory.standardizedFileURL.path.count))
                .trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            files.append(File(name: name, bytes: [UInt8](data), contentType: type))
        }
        return files.sorted { $0.name < $1.name }
    }

    /// Serves `files` at `/<name>` and, for benchmarks, `/n/<i>/<name>` (distinct URLs for one file).
    init(files: [File]) throws(CommandFailure) {
        var byName: [String: File] = [:]
        for file in files { byName["/" + file.name] = file }
        let table = byName
        do {
            server = try LoopbackHTTPServer(fallback: .handler { request in
                var path = request.path
                if path.hasPrefix("/n/"), let slash = path.dropFirst(3).firstIndex(of: "/") {
                    path = String(path[slash...])
                }
                guard let file = table[path] else { return .status(404) }
                return .ok(file.bytes, contentType: file.contentType)
            })
        } catch {
            throw CommandFailure("cannot start the loopback server: \(error)")
        }
        self.files = files
    }

    func url(_ file: File) -> URL { server.url("/" + file.name) }

    func url(_ file: File, copy: Int) -> URL { server.url("/n/\(copy)/" + file.name) }
}
