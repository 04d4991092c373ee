import NIOCore
import NIOPosix
import GlimpseCache

/// A small pool of pipelined connections to one Redis, behind a circuit breaker.
///
/// Commands go round-robin over ``Configuration/poolSize`` connections, each opened on first
/// use and reopened after it fails. Transport failures (connect or command timeouts, refused
/// or dropped connections, bad credentials) count against the ``RedisCircuitBreaker``; once it
/// opens, ``send(_:)`` fails at once with ``RedisError/circuitOpen`` and a background task
/// probes Redis with backoff, closing the breaker when a `PING` is answered. Nothing here
/// blocks a thread: waits suspend on NIO futures or `Task.sleep`.
public final class RedisClient: Sendable {
    public let configuration: Configuration
    private let group: any EventLoopGroup
    private let state: Lock<State>

    private enum Slot {
        case empty
        case connecting(EventLoopFuture<RedisConnection>)
        case ready(RedisConnection)
    }

    private struct State {
        var slots: [Slot]
        var next = 0
        var breaker: RedisCircuitBreaker
        var isShutDown = false
    }

    /// A client for `configuration` on `group` (NIO's shared one by default). No connection is
    /// opened until the first command.
    public init(configuration: Configuration, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.configuration = configuration
        self.group = group
        state = Lock(State(slots: Array(repeating: .empty, count: configuration.poolSize),
                            breaker: RedisCircuitBreaker(configuration: configuration.breaker)))
    }

    /// The breaker's state now.
    public var breakerState: RedisCircuitBreaker.State { state.withLock { $0.breaker.state } }

    /// Sends `commands` pipelined on one connection; replies in order.
    public func send(_ commands: [RESP.Command]) async throws(RedisError) -> [RESP.Value] {
        let (index, slot) = try checkOut()
        do {
            let connection: RedisConnection
            switch slot {
            case .ready(let open): connection = open
            case .connecting(let pending): connection = try await self.connection(index, pending)
            }
            let replies = try await connection.send(commands)
            state.withLock { $0.breaker.recordSuccess() }
            return replies
        } catch {
            recordFailure(error, slot: index)
            throw error
        }
    }

    /// Sends one command; its reply.
    public func send(_ command: RESP.Command) async throws(RedisError) -> RESP.Value {
        try await send([command])[0]
    }

    /// Closes every connection and stops probing; later commands fail with ``RedisError/shutDown``.
    public func shutdown() async {
        let slots = state.withLock { state in
            state.isShutDown = true
            defer { state.slots = state.slots.map { _ in .empty } }
            return state.slots
        }
        for slot in slots {
            switch slot {
            case .ready(let connection): await connection.close()
            case .connecting(let future): if let connection = try? await future.get() { await connection.close() }
            case .empty: break
            }
        }
    }

    /// A checked-out slot: its open connection (used at once: waiting on a succeeded future
    /// would still hop to its event loop and back), or the connect under way.
    private enum CheckedOut {
        case ready(RedisConnection)
        case connecting(EventLoopFuture<RedisConnection>)
    }

    /// Picks the next slot: its open connection, the connect under way, or a new connect.
    private func checkOut() throws(RedisError) -> (Int, CheckedOut) {
        try state.withLock { state throws(RedisError) in
            guard !state.isShutDown else { throw .shutDown }
            guard !state.breaker.isOpen else { throw .circuitOpen }
            let index = state.next % state.slots.count
            state.next &+= 1
            switch state.slots[index] {
            case .ready(let connection) where connection.isActive:
                return (index, .ready(connection))
            case .connecting(let future):
                return (index, .connecting(future))
            default:
                let future = startConnect(on: group.next())
                state.slots[index] = .connecting(future)
                return (index, .connecting(future))
            }
        }
    }

    private func startConnect(on loop: any EventLoop) -> EventLoopFuture<RedisConnection> {
        let promise = loop.makePromise(of: RedisConnection.self)
        let configuration = configuration, group = group
        promise.completeWithTask { try await RedisConnection.connect(configuration, on: group) }
        return promise.futureResult
    }

    private func connection(_ index: Int, _ pending: EventLoopFuture<RedisConnection>) async throws(RedisError) -> RedisConnection {
        let connection: RedisConnection
        do {
            connection = try await pending.get()
        } catch let error as RedisError {
            throw error
        } catch {
            throw .connectFailed(String(describing: error))
        }
        state.withLock { state in
            if case .connecting(let future) = state.slots[index], future === pending { state.slots[index] = .ready(connection) }
        }
        return connection
    }

    private func recordFailure(_ error: RedisError, slot index: Int) {
        guard error.isTransportFailure else { return }
        let opened = state.withLock { state in
            if case .connecting = state.slots[index] { state.slots[index] = .empty }
            if case .ready(let connection) = state.slots[index], !connection.isActive { state.slots[index] = .empty }
            return !state.isShutDown && state.breaker.recordFailure()
        }
        if opened { Task { await self.probe() } }
    }

    /// Runs while the breaker is open: connect and `PING` with backoff until Redis answers.
    private func probe() async {
        var attempt = 0
        while true {
            let delay = state.withLock { $0.breaker.probeDelay(attempt: attempt) }
            try? await Task.sleep(for: delay)
            guard !state.withLock({ $0.isShutDown }) else { return }
            if let connection = try? await RedisConnection.connect(configuration, on: group),
               case .simpleString = try? await connection.send([RESP.Command("PING")])[0] {
                let kept = state.withLock { state in
                    state.breaker.recordSuccess()
                    guard !state.isShutDown, case .empty = state.slots[0] else { return false }
                    state.slots[0] = .ready(connection)
                    return true
                }
                if !kept { await connection.close() }
                return
            }
            attempt += 1
        }
    }
}
