import Foundation

/// The rules both loaders judge a transfer by — ``ImageDownloader`` on URLSession and
/// the AsyncHTTPClient loader — written once, so that the two cannot drift apart.
extension ImageDownloader.Configuration {
    /// Why a redirect from `from` to `target` (the `hop`th of this attempt) may not be
    /// followed, or `nil`: the checks that need no addresses (RFC 9110 §15.4). The cap
    /// (``maximumRedirects``); a scheme other than `http` or `https` that
    /// ``allowedSchemes`` allows (never a local file, whatever a request may name); and,
    /// under any policy but ``AddressPolicy/Base/any``, a downgrade from `https` to `http`,
    /// which would send on in the clear what the caller asked to be private.
    package func redirectRefusal(from: URL, to target: URL, hop: Int, policy: AddressPolicy) -> ImageDownloadError? {
        if hop > maximumRedirects { return .tooManyRedirects(maximumRedirects) }
        let scheme = target.scheme?.lowercased()
        guard scheme == "http" || scheme == "https", allowedSchemes.allows(scheme) else {
            return .redirectNotAllowed(target.absoluteString)
        }
        if policy.base != .any, from.scheme?.lowercased() == "https", scheme == "http" {
            return .redirectNotAllowed(target.absoluteString)
        }
        return nil
    }

    /// Whether an attempt that has received `received` bytes in `elapsed` since it began
    /// is below ``minimumTransferRate``: never during the grace period, which connection
    /// set-up and the origin's first byte take part of.
    package func isBelowMinimumRate(received: Int, elapsed: Duration) -> Bool {
        guard let rate = minimumTransferRate, elapsed >= rate.grace else { return false }
        let (seconds, attoseconds) = elapsed.components
        let elapsedSeconds = Double(seconds) + Double(attoseconds) / 1e18
        return Double(received) < Double(rate.bytesPerSecond) * elapsedSeconds
    }
}
