import AsyncHTTPClient
import Dispatch
import Foundation
import Glimpse

/// The address policy, redirects and errors, judged as ``ImageDownloader`` judges them.
extension AsyncHTTPClientImageLoader {
    /// Why `url` may not be connected to under `policy`, or `nil`. A name the policy
    /// must see the addresses of is resolved on a dispatch queue: `getaddrinfo` blocks,
    /// and must not on one of the cooperative pool's few threads.
    func check(_ url: URL, under policy: AddressPolicy) async -> ImageDownloadError? {
        let resolver = configuration.hostResolver
        guard policy.needsResolution(of: url) else { return policy.refusal(of: url, resolver: resolver) }
        return await withCheckedContinuation { (continuation: CheckedContinuation<ImageDownloadError?, Never>) in
            DispatchQueue.global().async {
                continuation.resume(returning: policy.refusal(of: url, resolver: resolver))
            }
        }
    }

    /// `URLError` codes, so that both loaders report a failed connection alike.
    static let connectionLost = -1005
    static let cannotConnect = -1004

    /// What a thrown error means for retrying: timeouts and failed or lost connections
    /// are worth another attempt; cancellation is not.
    static func failure(for error: any Error) -> TransferFailure {
        if error is CancellationError { return .cancelled }
        if let client = error as? HTTPClientError {
            switch client {
            case .cancelled, .requestStreamCancelled:
                return .cancelled
            case .readTimeout, .writeTimeout, .connectTimeout, .tlsHandshakeTimeout, .getConnectionFromPoolTimeout:
                return .timedOut
            case .deadlineExceeded:
                // As ImageDownloader's transfer deadline: not retried, since another attempt
                // would hold the slot as long again.
                return .other(.deadlineExceeded)
            case .remoteConnectionClosed:
                return .connection(code: connectionLost, message: "connection closed before the body was complete")
            default:
                return .other(.transport(code: cannotConnect, message: String(describing: client)))
            }
        }
        // NIO's connection errors (refused, reset, unreachable) and everything the
        // channel reports below HTTP: a connection another attempt may get.
        return .connection(code: cannotConnect, message: String(describing: error))
    }
}
