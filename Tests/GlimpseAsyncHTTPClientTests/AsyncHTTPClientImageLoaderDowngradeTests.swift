import AsyncHTTPClient
import Foundation
import Glimpse
import GlimpseAsyncHTTPClient
import LoopbackHTTPServer
import Testing
import TestSupport

/// A redirect from `https` to `http`, end to end: nginx with TLS on 127.0.0.1 redirects to a
/// plain loopback server. Under a policy other than `.any` the loader refuses the hop before
/// connecting (the plain server sees nothing), though both addresses are allowed; under `.any`
/// it follows, which shows the TLS hop itself worked. (The URLSession downloader applies the
/// same rule, `ImageDownloader.Configuration.redirectRefusal`; corelibs' URLSession reads only
/// the system's CA file, so it cannot be pointed at a test certificate.)
@Suite("GlimpseAsyncHTTPClientTests https to http", .serialized, .enabled(if: NginxOrigin.binary != nil))
struct AsyncHTTPClientImageLoaderDowngradeTests {
    static func origins() throws -> (tls: NginxOrigin, plain: LoopbackHTTPServer)? {
        let plain = try LoopbackHTTPServer()
        plain.setRoute("/a.png", .fixed(.ok(patternBody(1_000))))
        guard let tls = try NginxOrigin(tls: true, directives: """
            location = /away { return 302 http://127.0.0.1:\(plain.port)/a.png; }
            """) else {
            plain.shutdown()
            return nil
        }
        return (tls, plain)
    }

    /// A client that trusts the test's self-signed certificate by not verifying it, and
    /// leaves redirects to the loader.
    static func loader(_ policy: AddressPolicy) -> (AsyncHTTPClientImageLoader, HTTPClient) {
        let client = HTTPClient(eventLoopGroupProvider: .singleton,
                                configuration: .init(certificateVerification: .none, redirectConfiguration: .disallow))
        var configuration = ImageDownloader.Configuration()
        configuration.retryPolicy = .never
        configuration.addressPolicy = policy
        return (AsyncHTTPClientImageLoader(client: client, configuration: configuration), client)
    }

    static func load(_ loader: AsyncHTTPClientImageLoader, _ url: URL) async -> Result<ImageDownloadResult, ImageDownloadError> {
        await withCheckedContinuation { continuation in
            _ = loader.loadData(for: ImageDownloadRequest(url: url),
                                handlers: ImageDataLoadingHandlers(completion: { continuation.resume(returning: $0) }))
        }
    }

    @Test func aRedirectFromHTTPSToHTTPIsRefusedUnderAPublicPolicy() async throws {
        let (tls, plain) = try #require(try Self.origins(), "nginx with TLS did not start (openssl missing?)")
        defer { tls.stop(); plain.shutdown() }
        let policy = AddressPolicy(.public, allowing: [.host("127.0.0.1", port: tls.port), .host("127.0.0.1", port: plain.port)])
        let (loader, client) = Self.loader(policy)
        let target = "http://127.0.0.1:\(plain.port)/a.png"
        #expect(await Self.load(loader, tls.url("away")).failure == .redirectNotAllowed(target))
        #expect(plain.requests.isEmpty, "the plain server was never connected to")
        await loader.shutdown()
        try await client.shutdown()
    }

    @Test func underAnyTheSameRedirectIsFollowed() async throws {
        let (tls, plain) = try #require(try Self.origins(), "nginx with TLS did not start (openssl missing?)")
        defer { tls.stop(); plain.shutdown() }
        let (loader, client) = Self.loader(.any)
        let result = await Self.load(loader, tls.url("away"))
        #expect(result.value?.bytes == patternBody(1_000))
        #expect(plain.requests.map(\.path) == ["/a.png"])
        await loader.shutdown()
        try await client.shutdown()
    }
}
