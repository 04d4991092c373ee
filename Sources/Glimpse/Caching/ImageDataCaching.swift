/// The data tier: encoded bytes (originals, and processed images per the
/// pipeline's ``ImagePipeline/DataCachePolicy``) with a small record each
/// (``ImageDataMetadata``), by key. The seam a shared second-level cache
/// (Redis, an object store) plugs into; ``DiskDataTier`` (a ``DiskCache``) is
/// the default.
///
/// ``ImageCache`` is the tier's only caller in the pipeline: it coalesces
/// concurrent reads of one key into one call, gathers writes into batches and
/// bounds the bytes they hold, and counts hits, misses and errors.
///
/// ## Contract
///
/// - **Keys** are opaque strings of any length (URLs, a URL plus a variant
///   after a U+001F separator). A tier that cannot store them as they are maps
///   them (a digest) without ever answering one key with another's entry.
/// - **A miss** is `nil` from ``entry(forKey:)``: no entry, an expired one, or
///   one the tier knows to be damaged. The pipeline then loads from the network.
/// - **A corrupt entry** (bytes that fail the tier's own checksum, a truncated
///   value) must be answered as a miss, never as bytes, and should be removed
///   by the tier. Bytes that pass the tier's checks but do not decode as an
///   image are the pipeline's business: it removes the entry itself.
/// - **An error** (``ImageDataTierError``: the server is unreachable, a
///   timeout) means the tier could not answer. The pipeline treats a failed
///   read as a miss and a failed write or removal as done (a missing entry only
///   costs a later download), counts both in ``ImageCache/Statistics``, and
///   never fails a load because of its data tier.
/// - **Order**: entries passed to one ``store(_:)`` call are applied in order
///   (of two for one key, the last wins), and ``ImageCache`` never has two
///   ``store(_:)`` calls in flight, so a later call also wins over an earlier one.
/// - **Threads**: every requirement is called from Swift concurrency, often
///   from the cooperative pool. A conformance must never block the calling
///   thread: file or socket I/O runs on threads of its own (as
///   ``DiskDataTier`` does) or on non-blocking I/O (an event loop), and
///   the call suspends until it is done.
/// - **Cancellation** of the calling task may end a call early with a miss or
///   an error; a write that was started should still finish.
/// - **Fetch claims** (``claimFetch(forKey:awaiting:)``) are for tiers shared by
///   several processes: on a miss in every tier the pipeline asks for one before
///   going to the origin, so that one process of a fleet fetches while the others
///   wait for what it stores. A tier of one process keeps the defaults (no
///   coordination). A claim must expire by itself (its holder may die), and the
///   wait must be bounded and must suspend, never block.
public protocol ImageDataCaching: Sendable {
    /// The entry stored under `key`; `nil` on a miss (none, expired or corrupt).
    func entry(forKey key: String) async throws(ImageDataTierError) -> ImageDataEntry?
    /// Whether an entry exists under `key`, preferably without reading its bytes.
    func containsEntry(forKey key: String) async throws(ImageDataTierError) -> Bool
    /// Stores `entries` in order; returns once they are stored (or failed).
    func store(_ entries: [ImageDataEntry]) async throws(ImageDataTierError)
    /// Removes the entry under `key`, if any.
    func removeEntry(forKey key: String) async throws(ImageDataTierError)
    /// Removes every entry of this tier.
    func removeAllEntries() async throws(ImageDataTierError)
    /// Entries held now, from what the tier already knows (no I/O); 0 when it cannot tell.
    var entryCount: Int { get }
    /// Bytes held now, from what the tier already knows (no I/O); 0 when it cannot tell.
    var totalSize: Int { get }
    /// Entries the tier removed by itself to keep within its limits (size, count, age) since
    /// it was made, from what it already knows (no I/O); 0 when it cannot tell (the default).
    var evictionCount: Int { get }
    /// Asks the fleet for the right to fetch the resource under `key` (an original's
    /// ``ImageCacheKey/base``) from the origin, after a miss in every tier. A process that does
    /// not get it waits, for a bounded time, for an entry under any of `keys` (the original's and
    /// the processed variant's keys) and answers ``ImageDataFetchCoordination/stored`` when one
    /// appears. Never fails: a tier that cannot coordinate answers
    /// ``ImageDataFetchCoordination/uncoordinated`` (the default).
    func claimFetch(forKey key: String, awaiting keys: [String]) async -> ImageDataFetchCoordination
    /// Gives up `claim` after what was fetched under it has been stored (or the fetch failed);
    /// a claim that already expired, or was taken by another process since, is left alone.
    func releaseFetchClaim(_ claim: ImageDataFetchClaim) async
}

extension ImageDataCaching {
    /// Not known: a tier that evicts without telling (Redis with `maxmemory`) reports none.
    public var evictionCount: Int { 0 }

    /// No coordination: every process fetches for itself.
    public func claimFetch(forKey key: String, awaiting keys: [String]) async -> ImageDataFetchCoordination {
        .uncoordinated
    }

    /// Nothing to release: ``claimFetch(forKey:awaiting:)`` never claims by default.
    public func releaseFetchClaim(_ claim: ImageDataFetchClaim) async {}
}
