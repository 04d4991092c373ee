import Foundation
import GlimpseCache

/// The data tier: encoded bytes (originals, and processed images per the
/// pipeline's ``ImagePipeline/DataCachePolicy``) with their HTTP metadata, by key.
///
/// ``DiskCache`` is the default; a shared second-level cache (Redis, an object
/// store) conforms here. The tier stores bytes only and knows nothing of image
/// formats. Calls may block: the pipeline reads on its processing executor and
/// writes in batches on a background thread, never on the cooperative pool.
public protocol ImageDataCaching: Sendable {
    /// The bytes and metadata stored under `key`, or `nil` (a bad entry is a miss).
    func cachedData(forKey key: String) -> (data: [UInt8], metadata: DiskCache.Metadata)?
    /// Whether an entry exists under `key` (without reading it).
    func containsData(forKey key: String) -> Bool
    /// Stores entries in order (of two for one key, the last wins). Failures
    /// are not reported: a missing entry only costs a later download.
    func storeData(_ entries: [DiskCache.BatchEntry])
    /// Removes the entry under `key`.
    func removeData(forKey key: String)
    /// Removes every entry.
    func removeAllData()
    /// Entries held now (0 when the tier cannot tell).
    var entryCount: Int { get }
    /// Bytes held now (0 when the tier cannot tell).
    var totalSize: Int { get }
}

extension DiskCache: ImageDataCaching {
    public func cachedData(forKey key: String) -> (data: [UInt8], metadata: DiskCache.Metadata)? {
        guard let found = entry(forKey: key) else { return nil }
        return ([UInt8](found.data), found.metadata)
    }

    public func containsData(forKey key: String) -> Bool { contains(key) }

    public func storeData(_ entries: [DiskCache.BatchEntry]) {
        // Small entries share one file, linked once per entry (see `setData(batch:)`).
        _ = setData(batch: entries)
    }

    public func removeData(forKey key: String) { remove(key) }

    public func removeAllData() { removeAll() }

    public var entryCount: Int { count }
}
