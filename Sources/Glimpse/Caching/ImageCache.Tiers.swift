extension ImageCache {
    /// A set of tiers, for lookups, stores, removals and clearing.
    public struct Tiers: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        public static let memory = Tiers(rawValue: 1 << 0)
        public static let disk = Tiers(rawValue: 1 << 1)
        public static let all: Tiers = [.memory, .disk]
    }
}
