import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// URLSession's delegate, which it retains until invalidated. The bridge holds
/// the downloader weakly, so that the downloader can be released (and then
/// invalidates the session) while the session still holds the bridge.
final class SessionDelegateBridge: NSObject, URLSessionDataDelegate, Sendable {
    private struct WeakOwner: Sendable {
        weak var downloader: ImageDownloader?
    }

    private let weakOwner = Mutex(WeakOwner())

    func attach(_ downloader: ImageDownloader) {
        weakOwner.withLock { $0.downloader = downloader }
    }

    /// The downloader, while it exists.
    var owner: ImageDownloader? { weakOwner.withLock { $0.downloader } }

    private var downloader: ImageDownloader? { owner }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        guard let downloader, downloader.taskReceived(response, task: dataTask) else {
            completionHandler(.cancel)
            // Cancelled explicitly: corelibs' URLSession ignores the disposition
            // (it logs "Ignoring disposition from completion handler") and would
            // go on receiving — and after a 401 without a usable credential its
            // authentication path never completes the task.
            dataTask.cancel()
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        downloader?.taskReceived(data, task: dataTask)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        downloader?.taskCompleted(task, error: error)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                    completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        guard let downloader, case .credential(let credential)? = downloader.configuration.credentials,
              challenge.previousFailureCount == 0 else {
            return completionHandler(.performDefaultHandling, nil)
        }
        completionHandler(.useCredential, credential)
    }
}
