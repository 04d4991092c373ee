import Foundation
import GlimpseCache
import Synchronization

extension ImagePipeline {
    /// Until when each image in the memory tier may be served under
    /// ``HTTPCachePolicy/respect``: the memory tier stores images only, so the
    /// freshness of the response each came from (RFC 9111 §4.2) is kept here, by
    /// memory key, as an expiry in seconds since 1970.
    ///
    /// An image with no entry is not served from memory under `respect`; the
    /// disk tier (which keeps freshness with the bytes) or the network answers.
    /// So the table can be cleared whenever it grows too large: that costs a
    /// disk read per image, never a stale answer.
    final class FreshnessTable: Sendable {
        private let expiries = Lock<[String: Int64]>([:])
        private let capacity: Int

        init(capacity: Int = 16_384) {
            self.capacity = capacity
        }

        /// Whether the image under `key` may be served at `now`.
        func isFresh(_ key: String, at now: Date) -> Bool {
            let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
            return expiries.withLock { expiries in
                guard let expiry = expiries[key] else { return false }
                if expiry > seconds { return true }
                expiries[key] = nil
                return false
            }
        }

        /// Records the freshness of the image just stored under `key`; `nil`
        /// (nothing known) or a stale one forgets it.
        func record(_ key: String, freshness: HTTPFreshness?, at now: Date) {
            let remaining = freshness?.remainingLifetime(at: now) ?? 0
            let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
            expiries.withLock { expiries in
                guard remaining > 0 else {
                    expiries[key] = nil
                    return
                }
                if expiries.count >= capacity {
                    expiries = expiries.filter { $0.value > seconds }
                    if expiries.count >= capacity { expiries.removeAll(keepingCapacity: true) }
                }
                expiries[key] = seconds.addingReportingOverflow(remaining).partialValue
            }
        }
    }
}
