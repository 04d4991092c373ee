/// Why a Redis command did not produce a reply. The data tier reports a read's as an
/// `ImageDataTierError` (which the pipeline answers as a miss) and drops a write's; never a
/// failed load.
public enum RedisError: Error, Sendable, Equatable {
    /// TCP did not connect within ``RedisClient/Configuration/connectTimeout``.
    case connectTimeout
    /// The connection could not be made (refused, unreachable…).
    case connectFailed(String)
    /// No reply within ``RedisClient/Configuration/commandTimeout``; the connection is closed,
    /// since a late reply would be matched to the wrong command.
    case commandTimeout
    /// The connection closed before the reply arrived.
    case connectionClosed
    /// The server rejected the credentials (`WRONGPASS`, `NOAUTH`…), with its message.
    case authentication(String)
    /// The handshake's `HELLO` or `SELECT` failed, with the server's message.
    case handshake(String)
    /// The server sent bytes that are not RESP.
    case protocolViolation(RESP.ProtocolError)
    /// The circuit breaker is open: Redis failed recently and is being probed in the background.
    case circuitOpen
    /// The client was shut down.
    case shutDown

    /// Whether the error says Redis is unreachable or unwell (and so counts against the breaker).
    var isTransportFailure: Bool {
        switch self {
        case .circuitOpen, .shutDown: false
        default: true
        }
    }
}

extension RedisError {
    /// A short account for logs and ``ImageDataTierError``: the server's own message where
    /// there is one, never a password.
    var reason: String {
        switch self {
        case .connectTimeout: "connect timed out"
        case .connectFailed(let why): "connect failed: \(why)"
        case .commandTimeout: "command timed out"
        case .connectionClosed: "connection closed"
        case .authentication(let message): "authentication failed: \(message)"
        case .handshake(let message): "handshake failed: \(message)"
        case .protocolViolation(let error): "protocol violation: \(error)"
        case .circuitOpen: "circuit breaker open"
        case .shutDown: "client shut down"
        }
    }
}
