import Foundation
import GlimpseRedis

/// A `redis-server` of the test's own on a loopback port, no persistence; stopped by the test.
final class RedisServer: @unchecked Sendable {
    // @unchecked: `process` is replaced only by `start`/`stop`, which each test calls from its
    // own task in sequence; nothing shares an instance across tasks while it changes.

    /// `redis-server` on PATH, or `nil` (the suites that need it are skipped).
    static let executable: String? = {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") + ["/usr/bin", "/usr/sbin"]
        return paths.map { "\($0)/redis-server" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static var isAvailable: Bool { executable != nil }

    private(set) var port = 0
    let extraArguments: [String]
    private var process: Process?

    /// Starts a server on a free port (a random one, retried if another process holds it).
    init(arguments: [String] = []) async throws {
        extraArguments = arguments
        var lastError: (any Error)?
        for _ in 0..<8 {
            let candidate = Int.random(in: 20_000..<60_000)
            do {
                port = candidate
                try await start()
                return
            } catch {
                lastError = error
            }
        }
        throw lastError ?? CocoaError(.fileNoSuchFile)
    }

    /// A client configuration for this server. Timeouts are wider than the defaults (50 ms
    /// connect, 100 ms command): parallel suites in a debug build on two shared cores stall a
    /// reply for longer than that, and only the timeout tests are about timing.
    var configuration: RedisClient.Configuration {
        RedisClient.Configuration(host: "127.0.0.1", port: port, connectTimeout: .seconds(1), commandTimeout: .seconds(2))
    }

    /// Starts (or restarts) the server on `port`; returns once it answers `PING`.
    func start() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable ?? "/usr/bin/redis-server")
        process.arguments = ["--save", "", "--appendonly", "no", "--port", String(port), "--bind", "127.0.0.1",
                             "--enable-debug-command", "local"] + extraArguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        var probe = configuration
        probe.connectTimeout = .milliseconds(200)
        probe.password = extraArguments.firstIndex(of: "--requirepass").map { extraArguments[$0 + 1] }
        for _ in 0..<200 {
            guard process.isRunning else { break }
            if let connection = try? await RedisConnection.connect(probe) {
                // The server that answered must be ours, not another test's on the same port
                // (ours then fails to bind and exits).
                let info = try? await connection.send([RESP.Command("INFO", "server")])[0].bytes
                await connection.close()
                let ours = String(decoding: info ?? [], as: UTF8.self).contains("process_id:\(process.processIdentifier)\r")
                guard ours else { break }
                return
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        stop()
        throw CocoaError(.executableLoad)
    }

    /// Kills the server with SIGKILL, like a crashed host. (Also how tests stop it: a child of
    /// the test process may inherit a mask that blocks SIGTERM, and it keeps no data anyway.)
    func kill() {
        guard let process, process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    func stop() { kill() }

    deinit { stop() }
}
