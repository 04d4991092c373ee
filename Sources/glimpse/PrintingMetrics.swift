import CoreMetrics
import Foundation
import GlimpseCache

/// `glimpse fetch --metrics`: an in-process swift-metrics back-end that keeps every value
/// and prints one line per metric at exit — `metric,NAME,DIMENSIONS,VALUE`, dimensions as
/// `k=v;k=v` (empty without any). Counters print their total, gauges their last value;
/// timers and aggregating recorders print `NAME_count` and `NAME_sum` (timers in
/// milliseconds: `NAME_sum_ms`); a gauge or timer that never recorded prints nothing.
///
/// Injected through the configurations, not bootstrapped: nothing else in the process
/// reports to it.
final class PrintingMetrics: MetricsFactory, Sendable {
    /// One handler per label and dimensions: a metric made twice adds to one value.
    private let handlers = Lock<[String: Handler]>([:])

    final class Handler: CounterHandler, RecorderHandler, TimerHandler, Sendable {
        enum Kind: Sendable { case counter, gauge, aggregate, timer }

        let label: String
        let dimensions: String
        let kind: Kind
        private let value = Lock<(count: Int64, sum: Double, last: Double)>((0, 0, 0))

        init(label: String, dimensions: String, kind: Kind) {
            self.label = label
            self.dimensions = dimensions
            self.kind = kind
        }

        func increment(by amount: Int64) { add(Double(amount)) }
        func reset() { value.withLock { $0 = (0, 0, 0) } }
        func record(_ value: Int64) { add(Double(value)) }
        func record(_ value: Double) { add(value) }
        func recordNanoseconds(_ duration: Int64) { add(Double(duration)) }

        private func add(_ amount: Double) {
            value.withLock { value in
                value.count += 1
                value.sum += amount
                value.last = amount
            }
        }

        /// The metric's lines: none for a gauge or timer that never recorded (the pipeline
        /// makes one timer per format up front), a counter's total even when 0.
        var lines: [String] {
            let (count, sum, last) = value.withLock { $0 }
            if count == 0, kind != .counter { return [] }
            switch kind {
            case .counter: return [Self.line(label, dimensions, Self.number(sum))]
            case .gauge: return [Self.line(label, dimensions, Self.number(last))]
            case .aggregate:
                return [Self.line(label + "_count", dimensions, "\(count)"),
                        Self.line(label + "_sum", dimensions, Self.number(sum))]
            case .timer:
                return [Self.line(label + "_count", dimensions, "\(count)"),
                        Self.line(label + "_sum_ms", dimensions, String(format: "%.3f", sum / 1e6))]
            }
        }

        private static func line(_ name: String, _ dimensions: String, _ value: String) -> String {
            "metric,\(name),\(dimensions),\(value)"
        }

        private static func number(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        }
    }

    private func handler(_ label: String, _ dimensions: [(String, String)], _ kind: Handler.Kind) -> Handler {
        let text = dimensions.map { "\($0.0)=\($0.1)" }.joined(separator: ";")
        let key = "\(kind)|\(label)|\(text)"
        return handlers.withLock { handlers in
            if let existing = handlers[key] { return existing }
            let made = Handler(label: label, dimensions: text, kind: kind)
            handlers[key] = made
            return made
        }
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        handler(label, dimensions, .counter)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        handler(label, dimensions, aggregate ? .aggregate : .gauge)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        handler(label, dimensions, .timer)
    }

    func destroyCounter(_ handler: any CounterHandler) {}
    func destroyRecorder(_ handler: any RecorderHandler) {}
    func destroyTimer(_ handler: any TimerHandler) {}

    /// Every metric's lines, sorted by name and dimensions.
    var lines: [String] {
        handlers.withLock { Array($0.values) }.flatMap(\.lines).sorted()
    }
}
