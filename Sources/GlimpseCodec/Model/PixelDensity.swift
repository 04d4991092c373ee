/// Physical pixel density (PNG `pHYs` §11.3.5.3, JFIF density fields).
public struct PixelDensity: Sendable, Hashable {
    /// What ``horizontal`` and ``vertical`` count pixels per.
    public enum Unit: Sendable, Hashable {
        /// Only the aspect ratio is known.
        case aspectRatio
        case perInch
        case perCentimeter
        case perMeter
    }

    public var horizontal: Int
    public var vertical: Int
    public var unit: Unit

    public init(horizontal: Int, vertical: Int, unit: Unit) {
        self.horizontal = horizontal
        self.vertical = vertical
        self.unit = unit
    }

    /// Dots per inch, when the unit allows it (rounded to the nearest integer).
    public var dotsPerInch: (x: Int, y: Int)? {
        switch unit {
        case .aspectRatio: nil
        case .perInch: (horizontal, vertical)
        case .perCentimeter: ((horizontal * 254 + 50) / 100, (vertical * 254 + 50) / 100)
        case .perMeter: ((horizontal * 254 + 5_000) / 10_000, (vertical * 254 + 5_000) / 10_000)
        }
    }
}
