import Foundation

/// A fresh directory under the system temporary directory, removed when the test is done.
struct TemporaryDirectory: ~Copyable {
    let url: URL
    var path: String { url.path }

    init(_ label: String = #function) {
        let name = "glimpse-cache-tests-\(label.filter { $0.isLetter || $0.isNumber })-\(UUID().uuidString)"
        url = FileManager.default.temporaryDirectory.appendingPathComponent(name, isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
