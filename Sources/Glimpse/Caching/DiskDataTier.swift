import Foundation
import GlimpseCache

/// The default data tier: a ``DiskCache`` behind the asynchronous
/// ``ImageDataCaching`` contract.
///
/// No file system call runs on the caller's thread: reads, lookups and
/// removals run on the disk cache's own I/O queue (``DiskCache/async``), and
/// writes on one thread of lower scheduling priority (`BackgroundWriter`, nice
/// +10), which takes each batch in one `DiskCache.setData(batch:)` (small
/// entries share a file, one link each). A damaged or expired entry is a
/// miss, and the disk cache removes it; the disk tier never throws.
public final class DiskDataTier: ImageDataCaching {
    /// The disk cache it reads and writes.
    public let disk: DiskCache
    /// Measured on `bench-pipeline`: background writes on an equal-priority queue took CPU
    /// time the loads were waiting for (Linux's libdispatch ignores quality of service).
    private let writer = BackgroundWriter(name: "Glimpse.DiskDataTier.writer")

    public init(_ disk: DiskCache) {
        self.disk = disk
    }

    public func entry(forKey key: String) async -> ImageDataEntry? {
        guard let found = await disk.async.entry(forKey: key) else { return nil }
        return ImageDataEntry(key: key, data: [UInt8](found.data), metadata: ImageDataMetadata(found.metadata))
    }

    public func containsEntry(forKey key: String) async -> Bool {
        await disk.async.contains(key)
    }

    public func store(_ entries: [ImageDataEntry]) async {
        let batch = entries.map { DiskCache.BatchEntry(key: $0.key, data: $0.data, metadata: DiskCache.Metadata($0.metadata)) }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            writer.async { [disk] in
                // A failed write (full disk, an entry over the size limit) only costs a later download.
                _ = disk.setData(batch: batch)
                continuation.resume()
            }
        }
    }

    public func removeEntry(forKey key: String) async {
        await disk.async.remove(key)
    }

    public func removeAllEntries() async {
        await disk.async.removeAll()
    }

    /// 0 until the disk cache's first scan of its folder is done (its figures wait for that).
    public var entryCount: Int { disk.isIndexLoaded ? disk.count : 0 }

    public var totalSize: Int { disk.isIndexLoaded ? disk.totalSize : 0 }
    /// ``DiskCache/evictionCount``.
    public var evictionCount: Int { disk.evictionCount }
}

/// The disk cache's record has no field for a variant's source format: it rides in the content
/// type as a parameter (RFC 9110 §8.3.1 media type parameters), `image/jpeg; glimpse-source=webp`.
private let sourceParameter = "; glimpse-source="

extension ImageDataMetadata {
    /// The pipeline's record of a disk cache record (a shared tier that stores the same
    /// record, such as GlimpseRedis's, reads it back with this).
    public init(_ metadata: DiskCache.Metadata) {
        var contentType = metadata.contentType
        var sourceFormat: ImageFormat?
        if let stored = contentType, let range = stored.range(of: sourceParameter) {
            contentType = String(stored[..<range.lowerBound])
            sourceFormat = ImageFormat(rawValue: String(stored[range.upperBound...]))
        }
        self.init(etag: metadata.etag, lastModified: metadata.lastModified, contentType: contentType,
                  originalURL: metadata.originalURL, storedDate: metadata.storedDate, freshness: metadata.freshness,
                  sourceFormat: sourceFormat)
    }
}

extension DiskCache.Metadata {
    /// The disk cache's record of `metadata`; its stored date is left for the writer to set.
    public init(_ metadata: ImageDataMetadata) {
        let contentType = metadata.sourceFormat.map { (metadata.contentType ?? "") + sourceParameter + $0.rawValue }
            ?? metadata.contentType
        // The disk cache sets the stored date itself on every write.
        self.init(etag: metadata.etag, lastModified: metadata.lastModified, contentType: contentType,
                  originalURL: metadata.originalURL, freshness: metadata.freshness)
    }
}
