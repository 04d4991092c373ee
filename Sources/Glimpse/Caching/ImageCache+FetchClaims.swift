extension ImageCache {
    /// Releases of fetch claims under way, so that ``fetchClaimsReleased()`` can wait for them.
    struct ClaimReleases: Sendable {
        var next: UInt64 = 0
        var running: [UInt64: Task<Void, Never>] = [:]
    }

    /// Asks the data tier for the fleet's claim on fetching the resource under `dataKey` (an
    /// original's ``ImageCacheKey/base``), waiting (bounded, by the tier) for an entry under
    /// any of `keys` when another process holds it: see
    /// ``ImageDataCaching/claimFetch(forKey:awaiting:)``.
    /// ``ImageDataFetchCoordination/uncoordinated`` without a data tier.
    public func claimFetch(forDataKey dataKey: String, awaiting keys: [String]) async -> ImageDataFetchCoordination {
        guard let data else { return .uncoordinated }
        return await data.claimFetch(forKey: dataKey, awaiting: keys)
    }

    /// Releases `claim` in the background, once every write queued before the call has been
    /// handed to the data tier: the holder's entries go first, so that the processes waiting
    /// for them find them when the claim goes. Never on the caller's path.
    public func releaseFetchClaim(_ claim: ImageDataFetchClaim) {
        guard let data else { return }
        claimReleases.withLock { releases in
            let id = releases.next
            releases.next &+= 1
            // Strong self: the release must happen even when the cache is let go meanwhile.
            releases.running[id] = Task {
                await self.pendingWritesFinished()
                await data.releaseFetchClaim(claim)
                _ = self.claimReleases.withLock { $0.running.removeValue(forKey: id) }
            }
        }
    }

    /// Returns once every claim release started before the call is done (a process about to
    /// exit waits for this, so that it leaves no claim for the others to wait out).
    public func fetchClaimsReleased() async {
        for task in claimReleases.withLock({ Array($0.running.values) }) { await task.value }
    }
}
