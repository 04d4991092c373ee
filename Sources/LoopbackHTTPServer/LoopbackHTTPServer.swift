import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GlimpseCache

/// `SOCK_STREAM` as `socket(2)` takes it: glibc imports it as an enum case, musl and Darwin
/// as a plain integer.
#if canImport(Glibc)
package let streamSocketType = Int32(SOCK_STREAM.rawValue)
#else
package let streamSocketType = SOCK_STREAM
#endif

/// A small, scriptable HTTP/1.1 server (RFC 9112) on POSIX sockets, bound to
/// 127.0.0.1 on an ephemeral port. It exists so that tests and benchmarks
/// speak to the downloader over real sockets, and it misbehaves on request:
/// slow drips, stalls, resets, lying `Content-Length`s. It may bind another
/// loopback address (`127.0.0.2`: Linux routes all of 127.0.0.0/8 to `lo`), so
/// that tests have two origins that differ by address.
///
/// Each connection is served by its own thread, with keep-alive. The server
/// records every request and counts open connections and requests in flight
/// (with their maxima), and which connections have closed.
///
/// Its threads keep it alive: it runs until ``shutdown()``.
public final class LoopbackHTTPServer: Sendable {
    /// Counters observed from the server side.
    public struct Statistics: Sendable {
        public var requests: [RecordedRequest] = []
        /// Connections currently open.
        public var openConnections = 0
        /// The most connections open at once.
        public var maxOpenConnections = 0
        /// Connections accepted in total.
        public var acceptedConnections = 0
        /// Requests whose response is being written.
        public var activeRequests = 0
        /// The most requests in flight at once.
        public var maxActiveRequests = 0
        /// Connections that have closed (by either side), by id.
        public var closedConnections: Set<Int> = []
        /// Connections the client closed or reset while the server was still
        /// writing or stalling a response.
        public var abortedByClient: Set<Int> = []
    }

    struct State: Sendable {
        var routes: [String: Route] = [:]
        var fallback: Route?
        var statistics = Statistics()
        var clientSockets: [Int: Int32] = [:]
        var threads = 0
        var stopping = false
    }

    let state: Lock<State>
    let listener: Int32
    /// The port the server listens on.
    public let port: Int
    /// The IPv4 loopback address it listens on (`127.0.0.1` by default).
    public let host: String

    /// Starts a server on `host` (an address in 127.0.0.0/8) with an ephemeral port.
    public init(host: String = "127.0.0.1", routes: [String: Route] = [:], fallback: Route? = nil) throws(ServerError) {
        guard host.hasPrefix("127."), inet_addr(host) != INADDR_NONE else { throw .notLoopback(host) }
        let fd = socket(AF_INET, streamSocketType, 0)
        guard fd >= 0 else { throw .socket(errno) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr(host)
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 256) == 0 else {
            let code = errno
            close(fd)
            throw .socket(code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            let code = errno
            close(fd)
            throw .socket(code)
        }
        listener = fd
        self.host = host
        port = Int(UInt16(bigEndian: address.sin_port))
        var initial = State()
        initial.routes = routes
        initial.fallback = fallback
        initial.threads = 1
        state = Lock(initial)
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "LoopbackHTTPServer.accept"
        thread.start()
    }

    /// Why the server could not start.
    public enum ServerError: Error, Sendable {
        case socket(Int32)
        /// Only loopback addresses are served.
        case notLoopback(String)
    }

    /// `http://<host>:<port>`.
    public var baseURL: URL {
        // The literal is well-formed for every loopback address and port number.
        URL(string: "http://\(host):\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// The URL of `path` (which starts with `/` and may carry a query).
    public func url(_ path: String) -> URL {
        URL(string: "http://\(host):\(port)\(path)") ?? baseURL
    }

    /// Sets (or replaces) the route for `path`.
    public func setRoute(_ path: String, _ route: Route) {
        state.withLock { $0.routes[path] = route }
    }

    /// Sets the route used when no path matches (404 when `nil`).
    public func setFallback(_ route: Route?) {
        state.withLock { $0.fallback = route }
    }

    /// A copy of the counters.
    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// The requests received so far, in order of arrival.
    public var requests: [RecordedRequest] { state.withLock { $0.statistics.requests } }

    /// Forgets recorded requests and resets the maxima to the current values.
    public func resetStatistics() {
        state.withLock {
            $0.statistics.requests = []
            $0.statistics.maxActiveRequests = $0.statistics.activeRequests
            $0.statistics.maxOpenConnections = $0.statistics.openConnections
        }
    }

    /// Polls the counters every few milliseconds until `condition` holds or
    /// `timeout` passes; returns whether it held (checked once more at the end,
    /// since a busy process may resume the polling task late).
    public func waitUntil(timeout: Duration = .seconds(30), _ condition: (Statistics) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(statistics) { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition(statistics)
    }

    /// Stops accepting, closes every connection and waits (up to two seconds)
    /// for the server's threads to end. Idempotent.
    public func shutdown() {
        state.withLock { state in
            guard !state.stopping else { return }
            state.stopping = true
            // Wakes the connection threads: their poll/recv/send return at once.
            // Under the lock, so that no descriptor is closed and reused meanwhile.
            for fd in state.clientSockets.values { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
        }
        let deadline = ContinuousClock.now + .seconds(2)
        while state.withLock({ $0.threads }) > 0, ContinuousClock.now < deadline {
            usleep(1_000)
        }
    }

    var isStopping: Bool { state.withLock { $0.stopping } }

    private func acceptLoop() {
        defer {
            close(listener)
            state.withLock { $0.threads -= 1 }
        }
        while !isStopping {
            var pollFD = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pollFD, 1, 20)
            guard ready > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            var yes: Int32 = 1
            setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            #if canImport(Darwin)
            setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
            #endif
            let id: Int? = state.withLock { state in
                guard !state.stopping else { return nil }
                let id = state.statistics.acceptedConnections
                state.statistics.acceptedConnections += 1
                state.statistics.openConnections += 1
                state.statistics.maxOpenConnections = max(state.statistics.maxOpenConnections, state.statistics.openConnections)
                state.clientSockets[id] = client
                state.threads += 1
                return id
            }
            guard let id else {
                close(client)
                continue
            }
            let connection = Connection(server: self, socket: client, id: id)
            let thread = Thread { connection.run() }
            thread.name = "LoopbackHTTPServer.connection.\(id)"
            thread.start()
        }
    }

    func route(for request: RecordedRequest) -> Response {
        let route = state.withLock { $0.routes[request.path] ?? $0.fallback }
        switch route {
        case .fixed(let response): return response
        case .handler(let handler): return handler(request)
        case nil: return .status(404)
        }
    }

    func record(_ request: RecordedRequest) -> RecordedRequest {
        state.withLock { state in
            var request = request
            request.sequence = state.statistics.requests.count
            state.statistics.requests.append(request)
            state.statistics.activeRequests += 1
            state.statistics.maxActiveRequests = max(state.statistics.maxActiveRequests, state.statistics.activeRequests)
            return request
        }
    }

    func requestEnded() {
        state.withLock { $0.statistics.activeRequests -= 1 }
    }

    func connectionClosed(_ id: Int, socket: Int32, abortedByClient: Bool) {
        state.withLock { state in
            close(socket)
            state.statistics.openConnections -= 1
            state.statistics.closedConnections.insert(id)
            if abortedByClient { state.statistics.abortedByClient.insert(id) }
            state.clientSockets[id] = nil
            state.threads -= 1
        }
    }
}
