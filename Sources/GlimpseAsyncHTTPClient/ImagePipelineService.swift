import Glimpse
import ServiceLifecycle

/// An ``ImagePipeline`` as a swift-service-lifecycle `Service`, so that a server's
/// `ServiceGroup` stops it in order: ``run()`` waits until the group shuts down
/// gracefully (SIGTERM, or a service before it in the group ending) or is cancelled,
/// then calls ``ImagePipeline/shutdown(deadline:)`` — new loads fail with
/// ``ImageLoadError/shutDown``, queued disk writes finish within ``shutdownTimeout``,
/// transfers are cancelled, the loader is shut down.
///
/// Services stop in reverse order: list the pipeline after the server that takes
/// requests (so that the server stops first and no request waits on a stopped
/// pipeline) and before what the loader needs (the `HTTPClient`, shut down after it).
///
/// ```swift
/// import AsyncHTTPClient
/// import Glimpse
/// import GlimpseAsyncHTTPClient
/// import Logging
/// import ServiceLifecycle
///
/// func serve(server: some Service, logger: Logger) async throws {
///     let client = HTTPClient(eventLoopGroupProvider: .singleton,
///                             configuration: .init(redirectConfiguration: .disallow))
///     var configuration = ImagePipeline.Configuration.standard()
///     configuration.dataLoader = AsyncHTTPClientImageLoader(client: client)
///     let pipeline = ImagePipeline(configuration: configuration)
///     let group = ServiceGroup(configuration: .init(
///         services: [
///             .init(service: ImagePipelineService(pipeline: pipeline)),
///             .init(service: server),
///         ],
///         gracefulShutdownSignals: [.sigterm],
///         logger: logger))
///     try await group.run()
///     try await client.shutdown()
/// }
/// ```
public struct ImagePipelineService: Service {
    public let pipeline: ImagePipeline
    /// How long shutdown waits for queued disk writes.
    public var shutdownTimeout: Duration

    public init(pipeline: ImagePipeline, shutdownTimeout: Duration = .seconds(10)) {
        self.pipeline = pipeline
        self.shutdownTimeout = shutdownTimeout
    }

    /// Returns once the group shut down (or the task was cancelled) and the pipeline
    /// has shut down after it.
    public func run() async throws {
        // Returns on graceful shutdown, or throws on cancellation: either way, shut down.
        try? await gracefulShutdown()
        await pipeline.shutdown(deadline: .now + shutdownTimeout)
    }
}
