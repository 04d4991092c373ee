import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The whole-attempt deadline and the minimum rate, checked by the watchdog
/// beside the idle timeout: an origin that trickles a byte a second never
/// looks idle, and would otherwise hold a slot for as long as it likes.
extension ImageDownloader {
    /// Fails running attempts past their deadline or below the minimum rate.
    /// Neither is retried: another attempt would hold the slot as long again.
    func expireOverdueTransfers() {
        let now = ContinuousClock.now
        let expired: [(TransferRegistry.Transfer, URLSessionDataTask, ImageDownloadError)] = state.withLock { state in
            var expired: [(TransferRegistry.Transfer, URLSessionDataTask, ImageDownloadError)] = []
            for (key, entry) in state.transferOfTask where entry.failure == nil {
                let verdict: (URLSessionDataTask, ImageDownloadError)? = state.registry.read(entry.transfer) { transfer in
                    guard case .running(let task) = transfer.phase, ObjectIdentifier(task) == key,
                          transfer.pendingRetry == nil else { return nil }
                    let elapsed = now - entry.started
                    if let deadline = transfer.request.transferDeadline ?? configuration.transferDeadline, elapsed >= deadline {
                        return (task, .deadlineExceeded)
                    }
                    if configuration.isBelowMinimumRate(received: transfer.machine.receivedThisAttempt, elapsed: elapsed) {
                        return (task, .tooSlow)
                    }
                    return nil
                } ?? nil
                guard let (task, error) = verdict, let removed = state.registry.remove(entry.transfer) else { continue }
                Self.keepResumable(of: removed, in: &state)
                state.transferOfTask[key]?.failure = error
                expired.append((removed, task, error))
            }
            return expired
        }
        for (transfer, task, error) in expired {
            deliver(.failure(error), to: transfer.orderedCallers)
            // The slot is freed when URLSession reports the cancelled task complete.
            task.cancel()
        }
    }
}
