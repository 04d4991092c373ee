import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Redirects (RFC 9110 §15.4): each target passes the same checks as the
/// request before URLSession follows it, so a redirect can never reach what
/// the first URL could not.
extension ImageDownloader {
    /// Called by ``SessionDelegateBridge`` for each redirect URLSession would
    /// follow; answers `completion` with the request to follow, or `nil`
    /// after failing the transfer.
    func taskWillRedirect(_ task: URLSessionTask, status: Int, to request: URLRequest,
                          completion: @escaping @Sendable (URLRequest?) -> Void) {
        let hop: (id: TransferID, url: URL, count: Int)? = state.withLock { state in
            let key = ObjectIdentifier(task)
            guard let entry = state.transferOfTask[key], state.registry.contains(entry.transfer) else { return nil }
            state.transferOfTask[key]?.redirects += 1
            return (entry.transfer, entry.url, entry.redirects + 1)
        }
        guard let hop, let target = request.url else { return completion(nil) }
        let policy = addressPolicy(of: hop.id)
        let from = task.currentRequest?.url ?? hop.url
        let refuse: @Sendable (ImageDownloadError) -> Void = { [self] error in
            instruments.refused(target, redirect: true, error)
            fail(hop.id, with: error, task: task)
            completion(nil)
            // Not on URLSession's own thread, which reports the redirect.
            eventQueue.async { task.cancel() }
        }
        if let refusal = configuration.redirectRefusal(from: from, to: target, hop: hop.count, policy: policy) {
            return refuse(refusal)
        }
        let decide: @Sendable () -> Void = { [self] in
            if let refusal = check(target, under: policy) { return refuse(refusal) }
            state.withLock { $0.registry.update(hop.id) { $0.lastActivity = .now } }
            emit(.redirected(hop.url, to: target, statusCode: status, hop: hop.count))
            completion(request)
        }
        if needsResolution(target, under: policy) {
            processing.async(execute: decide)
        } else {
            decide()
        }
    }
}
