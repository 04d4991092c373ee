/// A handle on one callback-style load: cancel it.
///
/// Cancelling detaches only this caller (its completion receives
/// ``ImageLoadError/cancelled``); the shared work — the download above all —
/// stops only when no other caller waits for it.
public struct ImageTask: Sendable {
    let id: UInt64
    /// `nil` when the load completed before the call returned (a memory hit or an early failure).
    let manager: ImageManager?

    /// Cancels this caller.
    /// - Returns: whether it was still waiting.
    @discardableResult
    public func cancel() -> Bool {
        manager?.cancel(waiter: id) ?? false
    }
}
