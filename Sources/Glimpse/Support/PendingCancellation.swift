import Synchronization
import GlimpseCache

/// Carries a cancellable handle (a download token, an image task) from inside
/// a continuation to the calling task's cancellation handler, which may run
/// before the handle exists: a cancellation that arrives first is remembered
/// and applied as soon as the handle is stored.
final class PendingCancellation<Handle: Sendable>: Sendable {
    private struct Slot: ~Copyable {
        var handle: Handle?
        var isCancelled = false
    }

    private let slot = Lock(Slot())
    private let cancelHandle: @Sendable (Handle) -> Void

    init(cancel: @escaping @Sendable (Handle) -> Void) {
        cancelHandle = cancel
    }

    /// Stores the handle, cancelling it at once if cancellation came first.
    func store(_ handle: Handle) {
        let cancelNow = slot.withLock { slot in
            slot.handle = handle
            return slot.isCancelled
        }
        if cancelNow { cancelHandle(handle) }
    }

    /// Cancels the handle now, or as soon as it is stored.
    func cancel() {
        let handle = slot.withLock { slot in
            slot.isCancelled = true
            return slot.handle
        }
        if let handle { cancelHandle(handle) }
    }
}
