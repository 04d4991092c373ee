import Foundation
import TestSupport

/// Runs the `glimpse-cache-stress` helper built next to the test bundle.
///
/// `swift test` builds every target before running tests, so the helper sits beside the test
/// binary in `.build/<triple>/debug`; when it does not (e.g. a filtered `--skip-build` run),
/// tests that need it skip with a note instead of failing.
enum StressProcess {
    static let executable: URL? = {
        var candidates: [URL] = []
        if let testBinary = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: testBinary).deletingLastPathComponent())
        }
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        candidates.append(Fixtures.repositoryRoot.appendingPathComponent(".build/debug"))
        return candidates
            .map { $0.appendingPathComponent("glimpse-cache-stress") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    static func launch(_ arguments: [String], stdout: Pipe? = nil) throws -> Process? {
        guard let executable else { return nil }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let stdout { process.standardOutput = stdout }
        try process.run()
        return process
    }
}
