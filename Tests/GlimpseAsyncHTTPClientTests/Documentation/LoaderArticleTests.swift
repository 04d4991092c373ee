import AsyncHTTPClient
import Foundation
import Glimpse
import GlimpseAsyncHTTPClient
import Logging
import LoopbackHTTPServer
import ServiceLifecycle
import Synchronization
import Testing
import TestSupport

/// The code of `GlimpseAsyncHTTPClient.docc/GlimpseAsyncHTTPClient.md`, word for word, run
/// against loopback origins: an allowed one, and a second server on 127.0.0.2 that the
/// policy must keep the pipeline from reaching.
@Suite("Documentation: the GlimpseAsyncHTTPClient article")
struct LoaderArticleTests {
    /// "A pipeline for user-supplied URLs"
    func makePipeline(allowing ownHosts: [AddressPolicy.Rule],
                      environment: [String: String] = ProcessInfo.processInfo.environment) -> (ImagePipeline, HTTPClient) {
        let client = HTTPClient(eventLoopGroupProvider: .singleton,
                                configuration: .init(redirectConfiguration: .disallow))
        var downloads = ImageDownloader.Configuration.server
        downloads.addressPolicy = AddressPolicy(.public, allowing: ownHosts)
        var configuration = ImagePipeline.Configuration.server(environment: environment, downloader: downloads)
        configuration.dataLoader = AsyncHTTPClientImageLoader(client: client, configuration: downloads)
        return (ImagePipeline(configuration: configuration), client)
    }

    /// "Stopping in order"
    func serve(_ pipeline: ImagePipeline, client: HTTPClient, server: some Service) async throws {
        let group = ServiceGroup(configuration: .init(
            services: [
                .init(service: ImagePipelineService(pipeline: pipeline)),
                .init(service: server, successTerminationBehavior: .gracefullyShutdownGroup),
            ],
            gracefulShutdownSignals: [.sigterm],
            logger: Logger(label: "images")))
        try await group.run()
        try await client.shutdown()
    }

    /// "Events"
    func countRetries(of loader: AsyncHTTPClientImageLoader, logger: Logger) -> Task<Int, Never> {
        let events = loader.events()
        return Task {
            var retries = 0
            for await event in events {
                guard case .retrying(let url, let attempt, _, let error) = event else { continue }
                retries += 1
                logger.notice("retrying", metadata: ["path": "\(url.path)", "attempt": "\(attempt)", "error": "\(error)"])
            }
            return retries
        }
    }

    @Test func theEventsCodeRuns() async throws {
        let harness = try LoaderHarness.make { $0.retryPolicy = RetryPolicy(maximumRetries: 2, baseDelay: .milliseconds(10)) }
        harness.server.setRoute("/flaky.png", .resource(patternBody(5_000), faults: [.status(503, retryAfter: "0")]))
        let records = LogRecords()
        let retries = countRetries(of: harness.loader, logger: records.logger(label: "images"))
        #expect(await harness.load("/flaky.png").value != nil)
        await harness.loader.shutdown()
        #expect(await retries.value == 1, "the task ended with the loader's shutdown")
        #expect(records.all.map(\.message) == ["retrying"])
        await harness.finish()
    }

    /// A server that loads one image and ends, which ends the group.
    final class OneLoadServer: Service, Sendable {
        let pipeline: ImagePipeline
        let url: URL
        let loaded = Atomic<Bool>(false)

        init(pipeline: ImagePipeline, url: URL) {
            self.pipeline = pipeline
            self.url = url
        }

        func run() async throws {
            _ = try await pipeline.load(url)
            loaded.store(true, ordering: .relaxed)
        }
    }

    @Test func theArticleCodeRuns() async throws {
        let origin = try LoopbackHTTPServer()
        defer { origin.shutdown() }
        let png = try Fixtures.bytes("png/ct6-d08-seq.png")
        origin.setRoute("/a.png", .fixed(.ok(png)))
        let other = try LoopbackHTTPServer(host: "127.0.0.2")
        defer { other.shutdown() }
        other.setRoute("/secret.png", .fixed(.ok(png)))
        origin.setRoute("/away", .fixed(.redirect(302, to: other.url("/secret.png").absoluteString)))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-ahc-article-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }

        let (pipeline, client) = makePipeline(allowing: [.host("127.0.0.1", port: origin.port)],
                                              environment: ["XDG_CACHE_HOME": folder.path])
        let server = OneLoadServer(pipeline: pipeline, url: origin.url("/a.png"))
        do {
            #expect(pipeline.configuration.dataLoader is AsyncHTTPClientImageLoader)
            let loaded = try await pipeline.load(origin.url("/a.png"))
            #expect(loaded.tier == .network && loaded.image.width == 33)
            await #expect(throws: ImageLoadError.self) { try await pipeline.load(other.url("/secret.png")) }
            await #expect(throws: ImageLoadError.self) { try await pipeline.load(origin.url("/away")) }
            #expect(other.requests.isEmpty, "127.0.0.2 was never reached, directly or by the redirect")

            try await serve(pipeline, client: client, server: server)
        } catch {
            // The client must be shut down before it is released, whatever failed.
            await pipeline.shutdown()
            try? await client.shutdown()
            throw error
        }
        let loadedBeforeStopping = server.loaded.load(ordering: .relaxed)
        #expect(loadedBeforeStopping)
        await #expect(throws: ImageLoadError.shutDown) { try await pipeline.load(origin.url("/a.png")) }
    }
}
