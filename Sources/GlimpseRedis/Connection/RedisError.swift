/// Why a Redis command did not produce a reply. The data tier treats every one as a skipped
/// tier (a miss, or a write left undone), never as a failed load.
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
