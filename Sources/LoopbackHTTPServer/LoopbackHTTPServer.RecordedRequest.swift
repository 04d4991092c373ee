extension LoopbackHTTPServer {
    /// A request as the server parsed it (RFC 9112 §3 request line, §5 fields).
    public struct RecordedRequest: Sendable {
        /// Order of arrival, from 0.
        public var sequence: Int
        /// The connection it arrived on, from 0.
        public var connection: Int
        public var method: String
        /// The request target without the query.
        public var path: String
        /// The query, without `?`, or `nil`.
        public var query: String?
        public var headers: [(name: String, value: String)]

        /// The first value of a header, matched case-insensitively.
        public func header(_ name: String) -> String? {
            let lowered = name.lowercased()
            return headers.first { $0.name.lowercased() == lowered }?.value
        }
    }
}
