extension ImageCache {
    /// A set of tiers, for lookups, stores, removals and clearing.
    public struct Tiers: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        public static let memory = Tiers(rawValue: 1 << 0)
        /// The local data tier: the disk (``DiskDataTier``), the local half of a
        /// ``LayeredDataTier``, or the data tier itself when it is not layered.
        public static let disk = Tiers(rawValue: 1 << 1)
        /// The shared half of a ``LayeredDataTier`` (Redis): what every process of a fleet
        /// reads, so clearing it clears it for all of them. Nothing when the data tier is not
        /// layered.
        public static let shared = Tiers(rawValue: 1 << 2)
        public static let all: Tiers = [.memory, .disk, .shared]
    }

    /// The data tier, or the half of a ``LayeredDataTier``, that `tiers` names: `whole` when
    /// it is all of ``data`` (reads then go through ``entry(forDataKey:)``), and the tier a
    /// hit in the half is reported as.
    func dataTier(for tiers: Tiers) -> (tier: any ImageDataCaching, whole: Bool, reportedAs: ImageTier)? {
        guard let data else { return nil }
        guard let layered = data as? LayeredDataTier else { return tiers.contains(.disk) ? (data, true, .disk) : nil }
        switch (tiers.contains(.disk), tiers.contains(.shared)) {
        case (true, true): return (data, true, .disk)
        case (true, false): return (layered.local, false, .disk)
        case (false, true): return (layered.shared, false, .shared)
        case (false, false): return nil
        }
    }
}
