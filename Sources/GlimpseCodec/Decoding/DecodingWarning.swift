/// Damage a lenient decoder recovered from, carried by the decoded image in
/// ``Image/warnings`` (empty for a clean file).
///
/// A warning names the same ``DecodingDefect`` a strict decoder would have
/// failed on (or, for data that simply stops, the premature end itself), so
/// callers match one set of cases whichever mode they decode in:
/// ```swift
/// if image.warnings.contains(where: { $0.defect == .png(.missingIEND) }) { … }
/// ```
public struct DecodingWarning: Sendable, Hashable, CustomStringConvertible {
    /// What was wrong, and so what the decoder recovered from.
    public var defect: DecodingDefect

    public init(_ defect: DecodingDefect) {
        self.defect = defect
    }

    public var description: String { defect.description }
}
