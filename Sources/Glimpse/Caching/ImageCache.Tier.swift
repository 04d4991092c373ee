extension ImageCache {
    /// Which tier answered a query.
    public enum Tier: Sendable, Hashable, CustomStringConvertible {
        /// Neither tier had the image.
        case none
        /// The decoded image was in memory.
        case memory
        /// The original bytes were on disk (and were decoded).
        case disk

        public var description: String {
            switch self {
            case .none: "none"
            case .memory: "memory"
            case .disk: "disk"
            }
        }
    }

    /// A set of tiers, for stores, removals and clearing.
    public struct Tiers: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        public static let memory = Tiers(rawValue: 1 << 0)
        public static let disk = Tiers(rawValue: 1 << 1)
        public static let all: Tiers = [.memory, .disk]
    }
}
