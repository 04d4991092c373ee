import ArgumentParser
import Logging

/// `--log-level`: the lowest swift-log level written to standard error. Glimpse logs
/// nothing above `debug` in normal operation, so `info` shows only what goes wrong.
enum LogLevelArgument: String, ExpressibleByArgument, CaseIterable {
    case trace
    case debug
    case info

    var level: Logger.Level {
        switch self {
        case .trace: .trace
        case .debug: .debug
        case .info: .info
        }
    }

    /// A logger labelled `glimpse` on swift-log's standard-error stream handler, made
    /// for this command only (the process's global bootstrap is left alone).
    var logger: Logger {
        var logger = Logger(label: "glimpse") { label in StreamLogHandler.standardError(label: label) }
        logger.logLevel = level
        return logger
    }
}
