import Foundation

/// A one-line progress bar on standard error, drawn only when standard
/// output is a terminal (result lines go to standard output and clear it first).
struct ProgressBar {
    let total: Int
    let isEnabled: Bool

    init(total: Int) {
        self.total = total
        isEnabled = Terminal.isInteractive && isatty(STDERR_FILENO) == 1
    }

    func draw(_ done: Int) {
        guard isEnabled, total > 0 else { return }
        let width = 30
        let filled = width * min(done, total) / total
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        FileHandle.standardError.write(Data("\r[\(bar)] \(done)/\(total)".utf8))
    }

    func clear() {
        guard isEnabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}
