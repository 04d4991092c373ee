/// The right, held by one process of a fleet, to fetch one resource from the origin
/// while the others wait for what it stores (``ImageDataCaching/claimFetch(forKey:awaiting:)``).
///
/// Opaque to the pipeline: it hands the claim back to the tier that made it
/// (``ImageDataCaching/releaseFetchClaim(_:)``) once the fetched bytes are stored.
public struct ImageDataFetchClaim: Sendable, Hashable {
    /// The tier's name for what is claimed (a Redis lock key, say).
    public let key: String
    /// What proves the claim is this holder's (a random token), so that a claim that expired
    /// and was taken by another process is never released by this one.
    public let token: String

    public init(key: String, token: String) {
        self.key = key
        self.token = token
    }
}

/// A data tier's answer to ``ImageDataCaching/claimFetch(forKey:awaiting:)``: whether this
/// process should go to the origin, and what it must do after.
public enum ImageDataFetchCoordination: Sendable, Hashable {
    /// Go to the origin; nothing to release. The answer of a tier that keeps no claims (the
    /// default, and a tier of one process such as ``DiskDataTier``), of a shared tier that
    /// cannot be reached, and of one whose wait for another holder ran out.
    case uncoordinated
    /// This process holds the claim: go to the origin, store what it gives, then release the
    /// claim (``ImageDataCaching/releaseFetchClaim(_:)``) so that waiters stop waiting.
    case claimed(ImageDataFetchClaim)
    /// An entry under one of the awaited keys was stored (by another process, while this one
    /// waited): read the data tier again instead of going to the origin.
    case stored
}
