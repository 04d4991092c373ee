/// The first parts of failed transfers, kept so that a later request for the
/// same resource asks only for the rest. A value type, held in the
/// downloader's locked state; bounded by total size and age, oldest out first.
package struct ResumableDataStore: Sendable {
    package typealias Key = ImageDownloadRequest.TransferKey

    private var entries: [Key: (data: ResumableData, stored: ContinuousClock.Instant)] = [:]
    /// Keys from oldest to newest.
    private var order: [Key] = []
    package private(set) var totalBytes = 0
    package let limits: ImageDownloader.Configuration.Resumption

    package init(limits: ImageDownloader.Configuration.Resumption) {
        self.limits = limits
    }

    package var count: Int { entries.count }

    /// Keeps `data` for `key`, replacing what was kept for it, then drops the
    /// oldest entries over the size limit.
    package mutating func store(_ data: ResumableData, for key: Key, now: ContinuousClock.Instant) {
        guard limits.isEnabled, data.body.count <= limits.maximumTotalBytes else { return }
        remove(key)
        entries[key] = (data, now)
        order.append(key)
        totalBytes += data.body.count
        while totalBytes > limits.maximumTotalBytes, let oldest = order.first {
            remove(oldest)
        }
    }

    /// Hands out and forgets what was kept for `key`, if it is recent enough.
    package mutating func take(_ key: Key, now: ContinuousClock.Instant) -> ResumableData? {
        guard let entry = entries[key] else { return nil }
        remove(key)
        return now - entry.stored <= limits.lifetime ? entry.data : nil
    }

    private mutating func remove(_ key: Key) {
        guard let entry = entries.removeValue(forKey: key) else { return }
        totalBytes -= entry.data.body.count
        order.removeAll { $0 == key }
    }
}
