import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import GlimpseCache

/// URLSession's delegate, which it retains until invalidated. The bridge holds
/// the downloader weakly, so that the downloader can be released (and then
/// invalidates the session) while the session still holds the bridge.
final class SessionDelegateBridge: NSObject, URLSessionDataDelegate, Sendable {
    private struct WeakOwner: Sendable {
        weak var downloader: ImageDownloader?
    }

    private let weakOwner = Lock(WeakOwner())

    func attach(_ downloader: ImageDownloader) {
        weakOwner.withLock { $0.downloader = downloader }
    }

    /// The downloader, while it exists.
    var owner: ImageDownloader? { weakOwner.withLock { $0.downloader } }

    private var downloader: ImageDownloader? { owner }

    // Each event arrives on URLSession's own thread (``SessionDelegateQueue``).
    // Whatever may call URLSession back synchronously (creating, resuming or
    // cancelling tasks, answering a challenge) or run user code goes to the
    // downloader's serial `eventQueue`; response heads and body pieces are
    // handled where they arrive when the downloader allows it. A transfer's
    // events keep their order either way: its completion always follows its
    // pieces onto the event queue, and once one piece goes there (for the
    // progressive decoder) every later piece of that transfer follows.

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        guard let downloader else {
            completionHandler(.cancel)
            // Not on URLSession's own thread (see above); the downloader's queue is gone with it.
            return DispatchQueue.global().async { dataTask.cancel() }
        }
        guard downloader.handlesEventsInline else {
            return downloader.eventQueue.async { [self] in
                receive(response, task: dataTask, downloader: downloader, completionHandler: completionHandler)
            }
        }
        receive(response, task: dataTask, downloader: downloader, completionHandler: completionHandler)
    }

    private func receive(_ response: URLResponse, task: URLSessionDataTask, downloader: ImageDownloader,
                         completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        guard downloader.taskReceived(response, task: task) else {
            completionHandler(.cancel)
            // Cancelled explicitly: corelibs' URLSession ignores the disposition
            // (it logs "Ignoring disposition from completion handler") and would
            // go on receiving — and after a 401 without a usable credential its
            // authentication path never completes the task.
            downloader.eventQueue.async { task.cancel() }
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let downloader else { return }
        if downloader.handlesEventsInline, downloader.taskReceived(data, task: dataTask, onSessionThread: true) { return }
        downloader.eventQueue.async { downloader.taskReceived(data, task: dataTask) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let downloader else { return }
        downloader.eventQueue.async { downloader.taskCompleted(task, error: error) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        guard let downloader else { return completionHandler(nil) }
        downloader.taskWillRedirect(task, status: response.statusCode, to: request, completion: completionHandler)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                    completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        guard let downloader else {
            return DispatchQueue.global().async { completionHandler(.performDefaultHandling, nil) }
        }
        // corelibs answers the challenge by suspending and resuming the task,
        // which must not happen on its own thread.
        downloader.eventQueue.async {
            guard case .credential(let credential)? = downloader.configuration.credentials,
                  challenge.previousFailureCount == 0 else {
                return completionHandler(.performDefaultHandling, nil)
            }
            completionHandler(.useCredential, credential)
        }
    }
}
