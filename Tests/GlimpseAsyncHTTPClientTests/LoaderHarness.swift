import AsyncHTTPClient
import Foundation
import Glimpse
import GlimpseAsyncHTTPClient
import GlimpseCache
import LoopbackHTTPServer

/// A loopback server, an `HTTPClient` that leaves redirects to the loader, and the
/// loader under test, for one test.
struct LoaderHarness: Sendable {
    let server: LoopbackHTTPServer
    let client: HTTPClient
    let loader: AsyncHTTPClientImageLoader

    static func make(_ configure: (inout ImageDownloader.Configuration) -> Void = { _ in }) throws -> LoaderHarness {
        let server = try LoopbackHTTPServer()
        let client = HTTPClient(eventLoopGroupProvider: .singleton,
                                configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))
        var configuration = ImageDownloader.Configuration()
        configuration.retryPolicy = .never
        configure(&configuration)
        return LoaderHarness(server: server, client: client,
                             loader: AsyncHTTPClientImageLoader(client: client, configuration: configuration))
    }

    func url(_ path: String) -> URL { server.url(path) }

    /// Loads `request` and returns its one result.
    func load(_ request: ImageDownloadRequest) async -> Result<ImageDownloadResult, ImageDownloadError> {
        await withCheckedContinuation { continuation in
            _ = loader.loadData(for: request, handlers: ImageDataLoadingHandlers(completion: { continuation.resume(returning: $0) }))
        }
    }

    func load(_ path: String) async -> Result<ImageDownloadResult, ImageDownloadError> {
        await load(ImageDownloadRequest(url: url(path)))
    }

    func finish() async {
        await loader.shutdown()
        try? await client.shutdown()
        server.shutdown()
    }
}

/// Collects a load's callbacks in the order they arrived, and its result.
final class LoadRecorder: Sendable {
    enum Event: Sendable, Equatable {
        case progress(Int64, Int64?)
        case piece(Int)
        case completion
    }

    private let state = Lock<(events: [Event], pieces: [UInt8], result: Result<ImageDownloadResult, ImageDownloadError>?)>(([], [], nil))

    var handlers: ImageDataLoadingHandlers {
        ImageDataLoadingHandlers(
            progress: { [self] received, expected in state.withLock { $0.events.append(.progress(received, expected)) } },
            data: { [self] piece in state.withLock { $0.events.append(.piece(piece.count)); $0.pieces += piece } },
            completion: { [self] result in state.withLock { $0.events.append(.completion); $0.result = result } })
    }

    var events: [Event] { state.withLock { $0.events } }
    var pieces: [UInt8] { state.withLock { $0.pieces } }
    var result: Result<ImageDownloadResult, ImageDownloadError>? { state.withLock { $0.result } }
}
extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }

    var value: Success? { try? get() }
}

/// A body that is not all one byte, so that a splice or an offset error shows.
func patternBody(_ count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
}
