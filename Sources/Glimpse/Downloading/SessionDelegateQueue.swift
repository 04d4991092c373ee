import Foundation

/// The URLSession delegate queue of an ``ImageDownloader``: it runs the blocks
/// URLSession hands it at once, on the thread that hands them over, and leaves
/// the choice of thread to ``SessionDelegateBridge``.
///
/// corelibs' URLSession reports every delegate event with `addOperation(_:)`
/// and a block, from its own serial work queue: each response head, each piece
/// of a body (libcurl hands over at most 16 KiB, so a 50 KB image is four
/// pieces), each completion. A serial `OperationQueue` wraps every block in a
/// `BlockOperation` and runs it through its scheduling (locks, KVO-style state
/// changes, a dispatch to start it and another when it ends) on a thread that
/// usually has to be woken first. With one event per transfer (a completion
/// handler) that is noise; with six it kept the downloader near 0.75× bare
/// URLSession data tasks in `glimpse bench-download`.
///
/// Running the blocks where they are reported keeps their order and makes
/// them never overlap (URLSession's work queue is serial), but that thread
/// must never wait for URLSession: creating or resuming a task waits for that
/// same queue (profiles show `DispatchQueue.sync` under both), and cancelling
/// is kept off it as well. The bridge therefore handles response
/// heads and body pieces in place (short, under the downloader's lock) and
/// sends everything else to the downloader's serial `eventQueue`.
///
/// Only the block form is overridden: it is the only one URLSession uses.
final class SessionDelegateQueue: OperationQueue, @unchecked Sendable {
    // @unchecked restates OperationQueue's own (corelibs declares it so and
    // Swift requires subclasses to repeat it); nothing is added here.

    override init() {
        super.init()
        name = "Glimpse.ImageDownloader.session"
        maxConcurrentOperationCount = 1
    }

    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        block()
    }
}
