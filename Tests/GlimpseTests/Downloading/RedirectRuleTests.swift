import Foundation
@testable import Glimpse
import Testing

/// The redirect and minimum-rate rules both loaders share
/// (`ImageDownloader.Configuration+TransferRules`), judged without a network.
@Suite struct RedirectRuleTests {
    let secure = URL(string: "https://images.example/a.png")!
    let plain = URL(string: "http://images.example/a.png")!

    @Test func aDowngradeFromHTTPSToHTTPIsRefusedUnlessThePolicyIsAny() {
        let configuration = ImageDownloader.Configuration()
        let allowed = AddressPolicy(.public, allowing: [.host("images.example", port: nil)])
        #expect(configuration.redirectRefusal(from: secure, to: plain, hop: 1, policy: .public)
            == .redirectNotAllowed(plain.absoluteString))
        #expect(configuration.redirectRefusal(from: secure, to: plain, hop: 1, policy: allowed)
            == .redirectNotAllowed(plain.absoluteString), "an allowed host does not make the clear text private")
        #expect(configuration.redirectRefusal(from: secure, to: plain, hop: 1, policy: .any) == nil)
        #expect(configuration.redirectRefusal(from: plain, to: secure, hop: 1, policy: .public) == nil, "an upgrade is fine")
    }

    @Test func theCapAndTheSchemes() {
        var configuration = ImageDownloader.Configuration()
        configuration.maximumRedirects = 2
        #expect(configuration.redirectRefusal(from: plain, to: plain, hop: 2, policy: .any) == nil)
        #expect(configuration.redirectRefusal(from: plain, to: plain, hop: 3, policy: .any) == .tooManyRedirects(2))
        let file = URL(fileURLWithPath: "/etc/passwd")
        #expect(configuration.redirectRefusal(from: plain, to: file, hop: 1, policy: .any) == .redirectNotAllowed(file.absoluteString))
        let ftp = URL(string: "ftp://images.example/a.png")!
        #expect(configuration.redirectRefusal(from: plain, to: ftp, hop: 1, policy: .any) == .redirectNotAllowed(ftp.absoluteString))
        configuration.allowedSchemes = [.https]
        #expect(configuration.redirectRefusal(from: secure, to: plain, hop: 1, policy: .any) == .redirectNotAllowed(plain.absoluteString))
    }

    @Test func theMinimumRateWaitsForItsGrace() {
        var configuration = ImageDownloader.Configuration()
        #expect(!configuration.isBelowMinimumRate(received: 0, elapsed: .seconds(100)), "no rate, no limit")
        configuration.minimumTransferRate = .init(bytesPerSecond: 1_000, grace: .seconds(5))
        #expect(!configuration.isBelowMinimumRate(received: 0, elapsed: .milliseconds(4_999)))
        #expect(configuration.isBelowMinimumRate(received: 4_999, elapsed: .seconds(5)))
        #expect(!configuration.isBelowMinimumRate(received: 5_000, elapsed: .seconds(5)))
        #expect(configuration.isBelowMinimumRate(received: 9_999, elapsed: .milliseconds(10_000)))
    }
}
