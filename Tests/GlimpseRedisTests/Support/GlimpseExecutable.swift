import Foundation

/// The built `glimpse` CLI, beside the test bundle (`swift build --build-tests` builds it), or
/// `nil` when this build has none (the multi-process tests are skipped then).
enum GlimpseExecutable {
    static let url: URL? = {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        // The test binary is inside `<build>/GlimpsePackageTests.xctest` or directly in `<build>`.
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("glimpse")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
               FileManager.default.isExecutableFile(atPath: candidate.path) {
                return candidate
            }
            directory.deleteLastPathComponent()
        }
        return nil
    }()

    /// Starts `glimpse arguments` with its standard output in a pipe (read with ``output(of:)``).
    static func launch(_ arguments: [String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, out)
    }

    /// Everything `process` writes, once it has exited.
    static func output(of process: Process, _ pipe: Pipe) -> String {
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
