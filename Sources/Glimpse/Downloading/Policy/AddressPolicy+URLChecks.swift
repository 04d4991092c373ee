import Foundation

/// The policy's verdict on a URL, shared by both loaders (``ImageDownloader`` and the
/// `GlimpseAsyncHTTPClient` one) so that they refuse exactly the same hosts.
extension AddressPolicy {
    /// Whether judging `url` needs its host's resolved addresses (a blocking lookup).
    package func needsResolution(of url: URL) -> Bool {
        guard let text = url.host, let host = try? URLHost(parsing: text) else { return false }
        return needsAddresses(of: host, port: Self.port(of: url))
    }

    /// Why `url` may not be connected to under this policy, or `nil`. Resolves the host
    /// with `resolver` when the policy needs its addresses (blocking: call it off the
    /// cooperative pool).
    package func refusal(of url: URL, resolver: HostResolver) -> ImageDownloadError? {
        guard let text = url.host, !text.isEmpty else { return .invalidURL }
        let host: URLHost
        do throws(URLHost.ParseError) {
            host = try URLHost(parsing: text)
        } catch {
            return .invalidURL
        }
        let port = Self.port(of: url)
        var addresses: [HostAddress] = []
        if needsAddresses(of: host, port: port), case .name(let name) = host {
            do throws(ImageDownloadError) {
                addresses = try resolver.resolve(name)
            } catch {
                return error
            }
        }
        return refusal(host: host, port: port, addresses: addresses).map { .addressNotAllowed($0.description) }
    }

    /// The port a URL connects to: its own, else its scheme's (RFC 9110 §4.2).
    package static func port(of url: URL) -> Int {
        if let port = url.port { return port }
        return url.scheme?.lowercased() == "https" ? 443 : 80
    }
}
