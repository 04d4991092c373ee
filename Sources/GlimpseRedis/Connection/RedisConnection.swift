import NIOCore
import NIOPosix

/// One TCP connection to Redis after its handshake (`HELLO 3` or RESP2 `AUTH`, then `SELECT`).
///
/// ``send(_:)`` pipelines: all commands go out in one write and the replies come back in
/// order. Everything waits by suspending on NIO futures, never by blocking a thread.
public struct RedisConnection: Sendable {
    let channel: any Channel
    let commandTimeout: Duration
    /// Whether the server agreed to RESP3.
    public let speaksRESP3: Bool

    /// Whether the socket is still open.
    public var isActive: Bool { channel.isActive }

    /// Connects and runs the handshake, all within the configuration's timeouts.
    public static func connect(
        _ configuration: RedisClient.Configuration, on group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws(RedisError) -> RedisConnection {
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(TimeAmount(configuration.connectTimeout))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    // Replies hold at most one entry; the limit only stops a confused peer.
                    try channel.pipeline.syncOperations.addHandler(Handler(limits: .init()))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.connect(host: configuration.host, port: configuration.port).get()
        } catch ChannelError.connectTimeout {
            throw .connectTimeout
        } catch {
            throw .connectFailed(String(describing: error))
        }
        do {
            return try await handshake(channel: channel, configuration: configuration)
        } catch {
            channel.close(promise: nil)
            throw error
        }
    }

    private static func handshake(
        channel: any Channel, configuration: RedisClient.Configuration
    ) async throws(RedisError) -> RedisConnection {
        var connection = RedisConnection(channel: channel, commandTimeout: configuration.commandTimeout, speaksRESP3: false)
        var authenticated = false
        if configuration.prefersRESP3 {
            var hello = RESP.Command("HELLO", "3")
            if let password = configuration.password {
                hello.arguments += ["AUTH", configuration.username ?? "default", password].map { Array($0.utf8) }
            }
            let reply = try await connection.send([hello])[0]
            if case .error(let message) = reply {
                // NOPROTO: no RESP3 here; "unknown command": a server older than Redis 6.
                guard message.hasPrefix("NOPROTO") || message.hasPrefix("ERR unknown command") else {
                    throw Self.classify(message)
                }
            } else {
                connection = RedisConnection(channel: channel, commandTimeout: configuration.commandTimeout, speaksRESP3: true)
                authenticated = true
            }
        }
        var setup: [RESP.Command] = []
        if !authenticated, let password = configuration.password {
            setup.append(configuration.username.map { RESP.Command("AUTH", $0, password) } ?? RESP.Command("AUTH", password))
        }
        if configuration.database != 0 { setup.append(RESP.Command("SELECT", configuration.database)) }
        guard !setup.isEmpty else { return connection }
        for reply in try await connection.send(setup) {
            if case .error(let message) = reply { throw Self.classify(message) }
        }
        return connection
    }

    private static func classify(_ message: String) -> RedisError {
        let code = message.prefix { $0 != " " }
        let isAuthentication = ["WRONGPASS", "NOAUTH", "NOPERM"].contains(code) || message.contains("AUTH")
            || message.contains("password")
        return isAuthentication ? .authentication(message) : .handshake(message)
    }

    /// Sends `commands` in one write and returns their replies in order (error replies are
    /// values: ``RESP/Value/error(_:)``). On timeout the connection is closed.
    ///
    /// The promises, the write, the timeout and the wait for the replies are set up in one task
    /// on the channel's event loop, which resumes the caller when the last reply (or a failure)
    /// arrives: one hop from the caller's thread to the loop and one back. (Registering each
    /// callback from the caller's thread costs a hop of its own: measured on
    /// `glimpse bench-shared-cache`, see Benchmarks.md.)
    public func send(_ commands: [RESP.Command]) async throws(RedisError) -> [RESP.Value] {
        guard !commands.isEmpty else { return [] }
        var bytes: [UInt8] = []
        for command in commands { RESP.Encoder.append(command, to: &bytes) }
        let channel = self.channel, timeout = TimeAmount(commandTimeout), count = commands.count, written = bytes
        let result: Result<[RESP.Value], RedisError> = await withCheckedContinuation { continuation in
            channel.eventLoop.execute {
                let loop = channel.eventLoop
                let promises = (0..<count).map { _ in loop.makePromise(of: RESP.Value.self) }
                channel.writeAndFlush(Request(bytes: written, promises: promises)).whenFailure { _ in
                    // Completing a promise twice is ignored, so this is safe if the handler had them.
                    for promise in promises { promise.fail(RedisError.connectionClosed) }
                }
                let timer = loop.scheduleTask(in: timeout) {
                    for promise in promises { promise.fail(RedisError.commandTimeout) }
                    channel.close(promise: nil)
                }
                let replies = count == 1 ? promises[0].futureResult.map { [$0] }
                    : EventLoopFuture.whenAllSucceed(promises.map(\.futureResult), on: loop)
                replies.whenComplete { outcome in
                    timer.cancel()
                    switch outcome {
                    case .success(let values): continuation.resume(returning: .success(values))
                    case .failure(let error as RedisError): continuation.resume(returning: .failure(error))
                    case .failure: continuation.resume(returning: .failure(.connectionClosed))
                    }
                }
            }
        }
        if case .failure(.commandTimeout) = result {
            // The timeout task closes the channel too; waiting for it means a caller that
            // sees the timeout never sees this connection as still usable.
            try? await channel.close()
        }
        return try result.get()
    }

    /// Closes the socket; waiting commands fail with ``RedisError/connectionClosed``.
    public func close() async {
        try? await channel.close()
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds.multipliedReportingOverflow(by: 1_000_000_000).partialValue + attoseconds / 1_000_000_000)
    }
}
