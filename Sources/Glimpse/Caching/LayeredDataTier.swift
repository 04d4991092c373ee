import Logging

/// Two data tiers as one: a local tier (the disk, ``DiskDataTier``) in front of a shared
/// tier every process of a fleet reads (Redis, `GlimpseRedis.RedisDataTier`), so that the
/// pipeline's tiers are memory → local disk → shared → origin.
///
/// - **Reads** ask the local tier, then the shared one; a shared hit is written to the local
///   tier (the next read stays local) and answered with ``ImageDataEntry/tier``
///   ``ImageTier/shared``, which the pipeline's ``ImageResult/tier`` reports.
/// - **Writes** go to both, in order: the local tier first (awaited, as the local tier
///   itself does), then the shared one. A shared tier keeps Redis latency off the caller's
///   path by its contract: `RedisDataTier.store(_:)` only queues its writes.
/// - **Fetch claims** (single flight across the fleet) are the shared tier's: the local one
///   is seen by this process only.
/// - **Failures** of either tier are not errors here: a failed read of one tier goes on to
///   the next, and a failed write of one still writes the other; only when both reads fail
///   is the error thrown (the pipeline counts it and loads from the origin).
public final class LayeredDataTier: ImageDataCaching {
    /// The tier of this process (the disk cache).
    public let local: any ImageDataCaching
    /// The tier shared with other processes (Redis).
    public let shared: any ImageDataCaching
    /// Where a failure of either tier is logged (`debug`: each is a fallback to the
    /// other tier or the origin, not an error of the load).
    public let logger: Logger

    public init(local: any ImageDataCaching, shared: any ImageDataCaching,
                logger: Logger = GlimpseObservability.noOpLogger) {
        self.local = local
        self.shared = shared
        self.logger = logger
    }

    private func fellBack(_ tier: String, _ operation: String, _ error: ImageDataTierError) {
        logger.debug("data tier failed; falling back", metadata: [
            GlimpseObservability.MetadataKey.tier: "\(tier)",
            GlimpseObservability.MetadataKey.operation: "\(operation)",
            GlimpseObservability.MetadataKey.error: "\(error)",
        ])
    }

    public func entry(forKey key: String) async throws(ImageDataTierError) -> ImageDataEntry? {
        var localError: ImageDataTierError?
        do throws(ImageDataTierError) {
            if let entry = try await local.entry(forKey: key) { return entry }
        } catch {
            fellBack("disk", "read", error)
            localError = error
        }
        let found: ImageDataEntry?
        do throws(ImageDataTierError) {
            found = try await shared.entry(forKey: key)
        } catch {
            fellBack("shared", "read", error)
            throw localError ?? error
        }
        guard var entry = found else { return nil }
        entry.tier = .shared
        // A shared hit fills the local tier; a failure only costs another shared read.
        try? await local.store([entry])
        return entry
    }

    public func containsEntry(forKey key: String) async throws(ImageDataTierError) -> Bool {
        if (try? await local.containsEntry(forKey: key)) == true { return true }
        return try await shared.containsEntry(forKey: key)
    }

    public func store(_ entries: [ImageDataEntry]) async throws(ImageDataTierError) {
        let localResult = await Self.attempt { () async throws(ImageDataTierError) in try await local.store(entries) }
        let sharedResult = await Self.attempt { () async throws(ImageDataTierError) in try await shared.store(entries) }
        if case .failure(let error) = localResult { fellBack("disk", "write", error) }
        if case .failure(let error) = sharedResult { fellBack("shared", "write", error) }
        try localResult.get()
        try sharedResult.get()
    }

    public func removeEntry(forKey key: String) async throws(ImageDataTierError) {
        let localResult = await Self.attempt { () async throws(ImageDataTierError) in try await local.removeEntry(forKey: key) }
        let sharedResult = await Self.attempt { () async throws(ImageDataTierError) in try await shared.removeEntry(forKey: key) }
        try localResult.get()
        try sharedResult.get()
    }

    public func removeAllEntries() async throws(ImageDataTierError) {
        let localResult = await Self.attempt { () async throws(ImageDataTierError) in try await local.removeAllEntries() }
        let sharedResult = await Self.attempt { () async throws(ImageDataTierError) in try await shared.removeAllEntries() }
        try localResult.get()
        try sharedResult.get()
    }

    /// The shared tier's claim: only it is seen by the other processes.
    public func claimFetch(forKey key: String, awaiting keys: [String]) async -> ImageDataFetchCoordination {
        await shared.claimFetch(forKey: key, awaiting: keys)
    }

    public func releaseFetchClaim(_ claim: ImageDataFetchClaim) async {
        await shared.releaseFetchClaim(claim)
    }

    /// The local tier's figures: what this process holds.
    public var entryCount: Int { local.entryCount }
    public var totalSize: Int { local.totalSize }
    /// The local tier's evictions (the shared tier's are its server's business).
    public var evictionCount: Int { local.evictionCount }

    /// Runs `operation`, keeping its error for later so the other tier is still written.
    private static func attempt(
        _ operation: () async throws(ImageDataTierError) -> Void
    ) async -> Result<Void, ImageDataTierError> {
        do throws(ImageDataTierError) {
            try await operation()
            return .success(())
        } catch {
            return .failure(error)
        }
    }
}
