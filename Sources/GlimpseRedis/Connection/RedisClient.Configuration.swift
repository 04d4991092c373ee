extension RedisClient {
    /// Where Redis is and how long to wait for it. Defaults are small: a tier that is slow
    /// must cost little more than a miss.
    public struct Configuration: Sendable, Equatable {
        /// Host name or address (`127.0.0.1`, `::1`, `redis.internal`).
        public var host: String
        public var port: Int
        /// ACL user for `AUTH`/`HELLO … AUTH` (Redis 6+); `nil` for the default user.
        public var username: String?
        /// Password for `AUTH`; `nil` sends none.
        public var password: String?
        /// Database index for `SELECT` (0 is not selected explicitly).
        public var database: Int
        /// Longest wait for TCP to connect.
        public var connectTimeout: Duration
        /// Longest wait for a reply (the handshake's replies included).
        public var commandTimeout: Duration
        /// Connections kept open; commands are pipelined on each.
        public var poolSize: Int
        /// Try `HELLO 3` first (falling back to RESP2 when the server does not know it).
        public var prefersRESP3: Bool
        /// When the breaker opens and how often it probes.
        public var breaker: RedisCircuitBreaker.Configuration

        public init(host: String = "127.0.0.1", port: Int = 6379, username: String? = nil, password: String? = nil,
                    database: Int = 0, connectTimeout: Duration = .milliseconds(50),
                    commandTimeout: Duration = .milliseconds(100), poolSize: Int = 4, prefersRESP3: Bool = true,
                    breaker: RedisCircuitBreaker.Configuration = .init()) {
            self.host = host
            self.port = port
            self.username = username
            self.password = password
            self.database = database
            self.connectTimeout = connectTimeout
            self.commandTimeout = commandTimeout
            self.poolSize = max(1, poolSize)
            self.prefersRESP3 = prefersRESP3
            self.breaker = breaker
        }
    }
}
