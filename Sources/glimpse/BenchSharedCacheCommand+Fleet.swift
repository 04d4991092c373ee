import Foundation
import LoopbackHTTPServer

extension BenchSharedCacheCommand {
    /// origin-requests: `processes` copies of this executable run `glimpse fetch` on the same
    /// `urls` cold URLs (a path of this run's own), each with a disk folder of its own, all on
    /// one Redis namespace; the in-process origin counts what reaches it.
    func originRequests(origin: LoopbackHTTPServer, namespace: String) async throws {
        let executable = try Self.ownExecutable()
        let run = "cold-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let list = (0..<urls).map { origin.url("/\(run)/\($0).jpg").absoluteString }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-bench-shared-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let before = origin.requests.count
        let start = ContinuousClock.now
        let outputs = try await withThrowingTaskGroup(of: (Int32, String).self) { group in
            for index in 0..<processes {
                let arguments = ["fetch"] + list + [
                    "--shared-cache", sharedCache, "--shared-cache-namespace", namespace,
                    "--cache-dir", root.appendingPathComponent("instance-\(index)").path,
                    "--concurrency", "16", "--thumbnail", "256x256", "--shared-cache-lock-wait", String(lockWait),
                ]
                let output = root.appendingPathComponent("instance-\(index).out")
                group.addTask { try await Self.runChild(executable, arguments, output: output) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let wall = Measurements.milliseconds(since: start)
        var tiers: [String: Int] = [:]
        var failed = 0
        for (status, text) in outputs {
            if status != 0 { failed += 1 }
            for line in text.split(separator: "\n") {
                guard let range = line.range(of: "tier=") else { continue }
                tiers[String(line[range.upperBound...].prefix { $0 != " " }), default: 0] += 1
            }
        }
        let requests = origin.requests.count - before
        line("origin-requests", Double(requests), "requests", format: "%.0f")
        let summary = tiers.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        Terminal.standardError(String(format: "\(processes) processes × \(urls) cold URLs in %.0f ms: \(summary)", wall))
        if failed > 0 { throw CommandFailure("\(failed) of the \(processes) fetch processes failed") }
    }

    /// This executable, to run again as the fleet's processes.
    static func ownExecutable() throws(CommandFailure) -> URL {
        #if os(Linux)
        let url = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        #else
        let url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        #endif
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw CommandFailure("cannot find this executable to run it again (\(url.path))")
        }
        return url
    }

    /// Runs `executable arguments` with standard output into `output`; its exit status and output.
    static func runChild(_ executable: URL, _ arguments: [String], output: URL) async throws -> (Int32, String) {
        guard FileManager.default.createFile(atPath: output.path, contents: nil),
              let handle = FileHandle(forWritingAtPath: output.path) else {
            throw CommandFailure("\(output.path): cannot create")
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        // Resumed from Foundation's termination thread: no cooperative thread waits.
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: CommandFailure("cannot run \(executable.path): \(error)"))
            }
        }
        try? handle.close()
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        return (status, text)
    }
}
