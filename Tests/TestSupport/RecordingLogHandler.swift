import GlimpseCache
import Logging

/// Every record a logger made, for assertions.
public final class LogRecords: Sendable {
    public struct Record: Sendable {
        public var level: Logger.Level
        public var message: String
        public var metadata: [String: String]

        /// The message and every metadata key and value, for searching.
        public var text: String {
            ([message] + metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
        }
    }

    private let storage = Lock<[Record]>([])

    public init() {}

    public func append(_ record: Record) { storage.withLock { $0.append(record) } }

    public var all: [Record] { storage.withLock { $0 } }

    /// A logger that records everything from `trace` up.
    public func logger(label: String = "glimpse-test") -> Logger {
        var logger = Logger(label: label) { _ in RecordingLogHandler(records: self) }
        logger.logLevel = .trace
        return logger
    }
}

/// A swift-log handler that keeps each record in a ``LogRecords``.
public struct RecordingLogHandler: LogHandler {
    public let records: LogRecords
    public var logLevel: Logger.Level = .trace
    public var metadata: Logger.Metadata = [:]

    public init(records: LogRecords) {
        self.records = records
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let explicit = event.metadata { merged.merge(explicit) { $1 } }
        records.append(LogRecords.Record(level: event.level, message: event.message.description,
                                         metadata: merged.mapValues { $0.description }))
    }
}
