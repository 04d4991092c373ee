/// How soon a queued download starts relative to the others. Higher
/// priorities start first; equal priorities follow the configured
/// ``ImageDownloader/Configuration/ExecutionOrder``.
public enum ImageDownloadPriority: Int, Sendable, Hashable, Comparable, CaseIterable {
    case veryLow
    case low
    case normal
    case high
    case veryHigh

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension ImageDownloadPriority {
    /// `URLSessionTask.priority`: 0 (`lowPriority`) … 1 (`highPriority`), 0.5 the default.
    var sessionPriority: Float { Float(rawValue) / Float(Self.veryHigh.rawValue) }
}
