import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The ``AddressPolicy`` check of a request before its task exists.
extension ImageDownloader {
    /// Checks the request's host, then hands it to URLSession (on
    /// ``sessionCalls``); a refused transfer fails without a connection.
    /// Names are resolved on ``processing``: `getaddrinfo` blocks, and must not
    /// on the caller's thread, which may be one of the cooperative pool's few.
    func screen(_ id: TransferID, _ request: URLRequest, url: URL) {
        let policy = addressPolicy(of: id)
        let launch: @Sendable () -> Void = { [self] in
            if let refusal = check(url, under: policy) {
                instruments.refused(url, redirect: false, refusal)
                abandonPrepared(id, with: refusal)
                emit(.stopped(url, error: refusal))
                return
            }
            sessionCalls.async { [self] in resumeTask(id, request, url: url) }
        }
        if needsResolution(url, under: policy) {
            processing.async(execute: launch)
        } else {
            launch()
        }
    }

    /// The request's own policy, else the configuration's.
    func addressPolicy(of id: TransferID) -> AddressPolicy {
        state.withLock { $0.registry.read(id) { $0.request.addressPolicy } ?? nil } ?? configuration.addressPolicy
    }

    func needsResolution(_ url: URL, under policy: AddressPolicy) -> Bool {
        policy.needsResolution(of: url)
    }

    /// Why `url` may not be connected to under `policy`, or `nil`. Resolves
    /// the host when the policy needs its addresses (blocking).
    func check(_ url: URL, under policy: AddressPolicy) -> ImageDownloadError? {
        policy.refusal(of: url, resolver: configuration.hostResolver)
    }

    /// The port a URL connects to: its own, else its scheme's (RFC 9110 §4.2).
    static func port(of url: URL) -> Int { AddressPolicy.port(of: url) }
}
