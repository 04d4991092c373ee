import Foundation

/// Writing to the standard streams.
enum Terminal {
    /// One line on standard error.
    static func standardError(_ line: String) {
        FileHandle.standardError.write(Data((line.hasSuffix("\n") ? line : line + "\n").utf8))
    }

    /// An `error: …` line on standard error.
    static func error(_ message: String) {
        standardError("error: \(message)")
    }

    /// A `warning: …` line on standard error.
    static func warning(_ message: String) {
        standardError("warning: \(message)")
    }

    /// Whether standard output is a terminal (for progress bars).
    static var isInteractive: Bool { isatty(STDOUT_FILENO) == 1 }
}
