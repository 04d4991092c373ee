/// Where an image came from: the one tier type of the pipeline, its cache
/// and its results.
public enum ImageTier: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The decoded image was in the memory tier.
    case memory
    /// The bytes came from the data tier (the disk cache by default).
    case disk
    /// The bytes came from a shared data tier behind the local one (Redis, through a
    /// ``LayeredDataTier``): another process of the fleet had fetched them.
    case shared
    /// The bytes came from the loader (the network by default).
    case network

    public var description: String { rawValue }
}
