import Glimpse
import GlimpseCache

extension AsyncHTTPClientImageLoader {
    /// Keeps one caller's promise: progress and pieces only while it is open, one
    /// completion, nothing after it. Deliveries run while its lock is held, so a
    /// cancellation (which closes it) waits for a delivery under way and its
    /// completion follows it. A delivery must therefore not cancel its own load.
    final class CallerGate: Sendable {
        private let isOpen = Lock(true)

        /// Runs `body` unless the caller has completed.
        func deliver(_ body: () -> Void) {
            isOpen.withLock { open in
                if open { body() }
            }
        }

        /// Closes the gate; returns whether it was open (whether to call the completion).
        func close() -> Bool {
            isOpen.withLock { open in
                defer { open = false }
                return open
            }
        }
    }

    struct Caller: Sendable {
        var priority: ImageDownloadPriority
        var handlers: ImageDataLoadingHandlers
        let gate: CallerGate

        /// Completes this caller unless it already completed; returns whether it did.
        @discardableResult
        func complete(_ result: Result<ImageDownloadResult, ImageDownloadError>) -> Bool {
            guard gate.close() else { return false }
            handlers.completion(result)
            return true
        }
    }
}
