import AsyncHTTPClient
import Glimpse
import Hummingbird
import Logging

/// `GET /thumb?url=URL&w=WIDTH` answers with a thumbnail of the image at `URL`, `WIDTH`
/// pixels wide (256 by default, never enlarged), in the format the `Accept` field prefers
/// (WebP when the client accepts it, else JPEG, or PNG for transparent images);
/// `GET /health` answers `ok`. One `ImagePipeline` with the server profile does the work:
/// public addresses only (hosts of one's own by `--allow-host`), decoding limits for hostile
/// files, the thumbnail fast path (JPEG DCT scaling, PNG rows streamed into the resize), and
/// a memory and disk tier that keep the encoded thumbnails, so a repeated request is neither
/// decoded nor encoded again.
@main
struct ThumbnailServer {
    static func main() async throws {
        let settings: Settings
        do {
            settings = try Settings(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            print("ThumbnailServer: \(error)\n\(Settings.usage)")
            return
        }
        var logger = Logger(label: "thumbnail-server")
        logger.logLevel = settings.logLevel

        // Redirects are the loader's to follow, so that each target is checked before connecting.
        let client = settings.usesAsyncHTTPClient
            ? HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
            : nil
        let pipeline = ImagePipeline(configuration: settings.pipelineConfiguration(logger: logger, client: client))
        let router = Router()
        router.get("/health") { _, _ in "ok" }
        router.get("/thumb", use: ThumbnailRoute(pipeline: pipeline, defaultWidth: settings.defaultWidth).respond)

        let app = Application(
            router: router,
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "glimpse-example"),
            onServerRunning: { channel in
                // The load-test script waits for this line (and reads the port when 0 was asked for).
                print("ThumbnailServer: listening on \(channel.localAddress.map { "\($0)" } ?? "?")")
            },
            logger: logger)
        // Until SIGINT or SIGTERM; then the pipeline lets its disk writes finish.
        do {
            try await app.runService()
        } catch {
            await pipeline.shutdown(deadline: .now + .seconds(5))
            try? await client?.shutdown()
            throw error
        }
        await pipeline.shutdown(deadline: .now + .seconds(5))
        try await client?.shutdown()
    }
}
