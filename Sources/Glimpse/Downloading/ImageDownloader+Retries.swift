import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Retrying and resuming: the transport's side of ``TransferStateMachine``.
///
/// A transfer whose attempt failed with something another attempt may cure
/// gives its slot back at once and waits in ``TransferRegistry/Phase/waiting``
/// (so a waiting retry never holds up other downloads), then queues again
/// with its callers' priority. Its callers stay attached throughout, so
/// coalesced callers share the retries and each can still cancel alone.
extension ImageDownloader {
    /// After the wait, queues the transfer again (unless every caller left).
    func scheduleRetry(_ id: TransferID, url: URL, delay: Duration, attempt: Int, error: ImageDownloadError) {
        emit(.retrying(url, attempt: attempt, delay: delay, error: error))
        let nanoseconds = Int(delay.components.seconds) * 1_000_000_000 + Int(delay.components.attoseconds / 1_000_000_000)
        // The watchdog's queue rather than a task: a busy cooperative pool must
        // not stretch the wait.
        watchdog.asyncAfter(deadline: .now() + .nanoseconds(max(0, nanoseconds))) { [weak self] in
            guard let self else { return }
            let toStart: [TransferID] = state.withLock { state in
                guard !state.isInvalidated, let priority = state.registry.endWait(id) else { return [] }
                return state.queue.enqueue(id, priority: priority)
            }
            start(toStart)
        }
    }

    /// What a failed URLSession task means for retrying.
    static func transferFailure(for error: any Error) -> TransferFailure {
        let mapped = map(error)
        switch mapped {
        case .timedOut: return .timedOut
        case .cancelled: return .cancelled
        case .transport(let code, let message) where retriedTransportCodes.contains(code):
            return .connection(code: code, message: message)
        default: return .other(mapped)
        }
    }

    /// How an attempt that URLSession reported complete ended: `nil` when its
    /// body is whole. A body cut short of its declared length is a lost
    /// connection whether the peer reset it or closed it cleanly (a FIN is how
    /// proxies, origin timeouts and keep-alive races look; libcurl reports
    /// "transfer closed with N bytes remaining"), and so is retried and resumed
    /// like a reset. A chunked body cut before its last chunk (RFC 9112 §7.1)
    /// has no declared length; libcurl's "transfer closed" names it.
    static func attemptFailure(_ error: (any Error)?, machine: TransferStateMachine) -> TransferFailure? {
        let lost = "connection closed before the body was complete"
        guard let error else {
            return machine.isShortOfDeclaredLength ? .connection(code: NSURLErrorNetworkConnectionLost, message: lost) : nil
        }
        let failure = transferFailure(for: error)
        guard case .other(.transport(let code, let message)) = failure else { return failure }
        if machine.isShortOfDeclaredLength || message.contains("transfer closed") {
            return .connection(code: code, message: message)
        }
        return failure
    }

    /// `URLError` codes of connections that were refused, reset or lost, or
    /// could not be made for now: what another attempt may cure. DNS and TLS
    /// failures, bad URLs and redirect loops are not among them.
    static let retriedTransportCodes: Set<Int> = [
        NSURLErrorCannotConnectToHost, NSURLErrorNetworkConnectionLost, NSURLErrorNotConnectedToInternet,
        NSURLErrorTimedOut, NSURLErrorCannotLoadFromNetwork, NSURLErrorResourceUnavailable,
    ]

    /// Keeps what a transfer that ends here without its body can resume from,
    /// for a later request of the same resource.
    static func keepResumable(of transfer: TransferRegistry.Transfer, in state: inout State) {
        guard state.resumables.limits.isEnabled else { return }
        var machine = transfer.machine
        // Cancelled is never retried, so this only records what arrived.
        _ = machine.failed(.cancelled, now: Date(), unitRandom: 0)
        if let resumable = machine.resumable {
            state.resumables.store(resumable, for: transfer.key, now: .now)
        }
    }

    /// The delay's random part, in `0..<1`.
    static func unitRandom() -> Double { Double.random(in: 0..<1) }
}
