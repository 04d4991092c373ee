import Dispatch
import Foundation

/// The URLSession delegate queue of an ``ImageDownloader``: an `OperationQueue`
/// whose block operations run, in order, on a serial dispatch queue.
///
/// corelibs' URLSession hands every delegate event to its delegate queue with
/// `addOperation(_:)` and a block: each response head, each piece of a body
/// (libcurl passes at most 16 KiB at a time, so a 50 KB image is four pieces),
/// each completion. A serial `OperationQueue` wraps every block in a
/// `BlockOperation` and runs it through its scheduling (locks, KVO-style state
/// changes, one dispatch to start it and another when it finishes). With one
/// event per transfer (a completion handler) that is noise; with six it made
/// the downloader measurably slower than bare URLSession data tasks, and it
/// runs partly on the session's own thread, which serves every transfer.
///
/// Forwarding the blocks to a serial dispatch queue keeps what the downloader
/// relies on — events arrive in the order URLSession sends them and never
/// overlap — for the cost of one `async`. Only the block form is forwarded:
/// it is the only one corelibs' URLSession uses; `Operation`s still go
/// through `OperationQueue` (serial too, but not ordered with the blocks).
final class SessionDelegateQueue: OperationQueue, @unchecked Sendable {
    // @unchecked restates OperationQueue's own (corelibs declares it so and
    // Swift requires subclasses to repeat it). The only state added here is an
    // immutable `DispatchQueue`, which is Sendable.
    private let serial: DispatchQueue

    init(label: String) {
        serial = DispatchQueue(label: label)
        super.init()
        name = label
        maxConcurrentOperationCount = 1
    }

    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        serial.async(execute: block)
    }
}
