import GlimpseCache
import Logging

/// Every record a logger made, for assertions.
final class LogRecords: Sendable {
    struct Record: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]

        /// The message and every metadata key and value, for searching.
        var text: String {
            ([message] + metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
        }
    }

    private let storage = Lock<[Record]>([])

    func append(_ record: Record) { storage.withLock { $0.append(record) } }

    var all: [Record] { storage.withLock { $0 } }

    /// A logger that records everything from `trace` up.
    func logger(label: String = "glimpse-test") -> Logger {
        var logger = Logger(label: label) { _ in RecordingLogHandler(records: self) }
        logger.logLevel = .trace
        return logger
    }
}

/// A swift-log handler that keeps each record in a ``LogRecords``.
struct RecordingLogHandler: LogHandler {
    let records: LogRecords
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let explicit = event.metadata { merged.merge(explicit) { $1 } }
        records.append(LogRecords.Record(level: event.level, message: event.message.description,
                                         metadata: merged.mapValues { $0.description }))
    }
}
