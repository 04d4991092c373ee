/// The bench commands' arithmetic on timings, in one place: durations read off
/// `ContinuousClock` as seconds or milliseconds, and the two medians the lines use.
enum Measurements {
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
    }

    static func milliseconds(since start: ContinuousClock.Instant) -> Double {
        milliseconds(ContinuousClock.now - start)
    }

    /// The median: the middle value, or the mean of the two middle ones; 0 for no values.
    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The upper middle of the sorted values, as `refencode` takes its median, for the lines
    /// that must read like its own; 0 for no values.
    static func upperMiddle(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }
}
