import AsyncHTTPClient
import Foundation
import Glimpse
import GlimpseAsyncHTTPClient
import GlimpseCache
import Logging
import LoopbackHTTPServer
import ServiceLifecycle
import Synchronization
import Testing
import TestSupport

/// Graceful shutdown: of the loader, of a pipeline on it, and of the pipeline as a
/// `Service` in a `ServiceGroup`.
@Suite("GlimpseAsyncHTTPClientTests shutdown", .serialized)
struct ShutdownTests {
    let stall = LoopbackHTTPServer.Response(status: 200, headers: [("Content-Type", "image/png")],
                                            body: .stall(declaredLength: 1_000, limit: .seconds(30)))

    @Test func loaderShutdownCancelsTransfersAndRefusesNewLoads() async throws {
        let harness = try LoaderHarness.make()
        harness.server.setRoute("/stall", .fixed(stall))
        let recorder = LoadRecorder()
        _ = harness.loader.loadData(for: ImageDownloadRequest(url: harness.url("/stall")), handlers: recorder.handlers)
        #expect(await eventually { harness.server.requests.count == 1 })
        await harness.loader.shutdown()
        #expect(recorder.result?.failure == .cancelled, "completed before shutdown returned")
        #expect(harness.loader.currentDownloadCount == 0)
        #expect(await harness.load("/stall").failure == .cancelled)
        #expect(harness.server.requests.count == 1, "nothing was sent after shutdown")
        await harness.loader.shutdown()
        await harness.finish()
    }

    /// A pipeline on the AsyncHTTPClient loader with a disk tier in a temporary folder.
    private func pipeline(_ harness: LoaderHarness, directory: URL) throws -> ImagePipeline {
        let disk = try DiskCache(configuration: DiskCache.Configuration(directory: directory))
        let cache = ImageCache(memory: MemoryCache(costLimit: 16 << 20), disk: disk)
        var configuration = ImagePipeline.Configuration.standard()
        configuration.cache = cache
        configuration.dataLoader = harness.loader
        return ImagePipeline(configuration: configuration)
    }

    private func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-ahc-\(UUID().uuidString)", isDirectory: true)
    }

    @Test func pipelineShutdownWritesQueuedDataThenRefusesLoads() async throws {
        let harness = try LoaderHarness.make()
        let png = try Fixtures.bytes("png/ct6-d08-seq.png")
        harness.server.setRoute("/a.png", .fixed(.ok(png)))
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pipeline = try pipeline(harness, directory: directory)
        let loaded = try await pipeline.load(harness.url("/a.png"))
        #expect(loaded.tier == .network)
        #expect(await pipeline.shutdown(deadline: .now + .seconds(30)), "the queued writes finished before the deadline")
        #expect(pipeline.cache.pendingWriteCount == 0)
        // Another cache on the same folder finds the original: it is on disk.
        let reopened = ImageCache(memory: MemoryCache(costLimit: 1 << 20),
                                  disk: try DiskCache(configuration: DiskCache.Configuration(directory: directory)))
        var configuration = ImagePipeline.Configuration.standard()
        configuration.cache = reopened
        configuration.dataLoader = harness.loader
        let second = ImagePipeline(configuration: configuration)
        let key = second.cacheKey(for: ImageRequest(url: harness.url("/a.png"))).base
        #expect(await reopened.containsData(forDataKey: key))
        await #expect(throws: ImageLoadError.shutDown) { try await pipeline.load(harness.url("/a.png")) }
        await #expect(throws: ImageLoadError.shutDown) { try await pipeline.image(for: harness.url("/a.png")) }
        #expect(await pipeline.shutdown(), "a second shutdown answers as the first")
        await harness.finish()
    }

    @Test func pipelineShutdownCancelsLoadsInFlight() async throws {
        let harness = try LoaderHarness.make()
        harness.server.setRoute("/stall", .fixed(stall))
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pipeline = try pipeline(harness, directory: directory)
        let load = Task { try await pipeline.load(harness.url("/stall")) }
        #expect(await eventually { harness.server.requests.count == 1 })
        await pipeline.shutdown()
        await #expect(throws: ImageLoadError.cancelled) { try await load.value }
        #expect(harness.loader.currentDownloadCount == 0)
        await harness.finish()
    }

    @Test func aServiceGroupStopsTheServerBeforeThePipeline() async throws {
        let harness = try LoaderHarness.make()
        let png = try Fixtures.bytes("png/ct6-d08-seq.png")
        harness.server.setRoute("/a.png", .fixed(.ok(png)))
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pipeline = try pipeline(harness, directory: directory)
        let server = StandInServer(pipeline: pipeline, url: harness.url("/a.png"))
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [.init(service: ImagePipelineService(pipeline: pipeline)), .init(service: server)],
            logger: Logger(label: "test")))
        let running = Task { try await group.run() }
        #expect(await eventually { server.started })
        await group.triggerGracefulShutdown()
        try await running.value
        #expect(server.loadedWhileStopping == true, "the server, listed last, stopped first, while the pipeline still loaded")
        await #expect(throws: ImageLoadError.shutDown) { try await pipeline.load(harness.url("/a.png")) }
        await harness.finish()
    }
}

/// A service that stands for the web server: when told to stop, it finishes one last
/// request through the pipeline, as a server draining its connections would.
final class StandInServer: Service, Sendable {
    let pipeline: ImagePipeline
    let url: URL
    private let state = Lock<(started: Bool, loaded: Bool?)>((false, nil))

    init(pipeline: ImagePipeline, url: URL) {
        self.pipeline = pipeline
        self.url = url
    }

    var started: Bool { state.withLock { $0.started } }
    var loadedWhileStopping: Bool? { state.withLock { $0.loaded } }

    func run() async throws {
        state.withLock { $0.started = true }
        try? await gracefulShutdown()
        let loaded = (try? await pipeline.load(url)) != nil
        state.withLock { $0.loaded = loaded }
    }
}
