/// Why a data tier (``ImageDataCaching``) could not answer: its server or
/// store is unreachable, timed out or refused. Never "not found": that is a
/// miss. The pipeline treats it as a miss (reads) or as done (writes).
public struct ImageDataTierError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A short account for logs (`"connection refused"`, `"timed out after 50 ms"`).
    public var reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { "data tier: \(reason)" }
}
