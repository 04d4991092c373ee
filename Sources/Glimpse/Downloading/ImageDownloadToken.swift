/// One caller's handle on a download: cancel it or change its priority.
/// Cancelling detaches only this caller; the HTTP transfer stops when its
/// last caller cancels.
public struct ImageDownloadToken: Sendable, Hashable {
    let id: UInt64
    /// `nil` for requests refused before they were queued.
    let downloader: ImageDownloader?

    /// Cancels this caller: its completion receives ``ImageDownloadError/cancelled``
    /// (unless it already completed) and nothing after that.
    /// - Returns: whether the caller was still waiting.
    @discardableResult
    public func cancel() -> Bool {
        downloader?.cancel(caller: id) ?? false
    }

    /// Changes this caller's priority; it affects the transfer while it is queued.
    public func setPriority(_ priority: ImageDownloadPriority) {
        downloader?.setPriority(priority, caller: id)
    }

    /// Whether the caller still waits for its completion.
    public var isActive: Bool { downloader?.isActive(caller: id) ?? false }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.id == rhs.id && lhs.downloader.map(ObjectIdentifier.init) == rhs.downloader.map(ObjectIdentifier.init)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(downloader.map(ObjectIdentifier.init))
    }
}
