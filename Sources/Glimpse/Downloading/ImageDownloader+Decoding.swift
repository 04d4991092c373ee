import Foundation
import Synchronization
import GlimpseCache

/// Source compatibility for ``ImageDownloadRequest/decoding`` (deprecated).
///
/// The transfer moves bytes like every other one (it coalesces with callers
/// that want bytes only); this caller's bytes are then decoded by the same
/// decode stage the pipeline uses, as a job on a bounded executor (never the
/// cooperative pool, never the URLSession or callback threads). Partial images
/// come from the pipeline's progressive feed.
extension ImageDownloader {
    /// Closed by the completion, on the callback queue: a partial image
    /// queued behind it is dropped, so none follows the completion.
    private final class CompletionGate: Sendable {
        private let isClosed = Lock(false)
        func close() { isClosed.withLock { $0 = true } }
        var isOpen: Bool { isClosed.withLock { !$0 } }
    }

    /// The executor of deprecated decoding requests, started on first use.
    private var decodingExecutor: ProcessingExecutor {
        legacyDecoding.withLock { executor in
            if let executor { return executor }
            let started = ProcessingExecutor(width: ImagePipeline.Configuration.defaultProcessingWidth,
                                             name: "glimpse.dldec")
            executor = started
            return started
        }
    }

    func downloadDecoding(_ request: ImageDownloadRequest, decoding: ImageDownloadRequest.Decoding,
                          _ handlers: DownloadCallbacks) -> ImageDownloadToken {
        var bytesOnly = request
        bytesOnly.decodingRequest = nil
        let executor = decodingExecutor
        let registry = configuration.legacyDecoderRegistry
        let stage = DecodeStage(registry: registry, options: decoding.options, maxPixelBytes: nil)
        let gate = CompletionGate()
        let callbackQueue = callbacks
        let outer = handlers
        let deliver: @Sendable (Result<ImageDownloadResult, ImageDownloadError>) -> Void = { result in
            if outer.resumesDirectly {
                outer.completion(result)
            } else {
                callbackQueue.async {
                    gate.close()
                    outer.completion(result)
                }
            }
        }
        var feed: ImagePipeline.ProgressiveFeed?
        if let throttle = decoding.progressive, let partialImage = outer.partialImage {
            feed = ImagePipeline.ProgressiveFeed(
                registry: registry, options: decoding.options, processors: [], executor: executor,
                priority: request.priority, throttle: throttle,
                deliver: { image in callbackQueue.async { if gate.isOpen { partialImage(image) } } })
        }
        let progressive = feed
        // A data transform changes the bytes after the feed saw them.
        let transforms = configuration.hooks.transformData != nil
        var inner = DownloadCallbacks(progress: outer.progress, completion: { result in
            switch result {
            case .failure(let error):
                progressive?.close()
                deliver(.failure(error))
            case .success(let downloaded):
                let decode: @Sendable () -> Void = {
                    do throws(ImageDecodingError) {
                        var withImage = downloaded
                        withImage.image = try stage.decode(downloaded.bytes)
                        deliver(.success(withImage))
                    } catch {
                        deliver(.failure(.decodingFailed(error)))
                    }
                }
                guard let progressive, !transforms else {
                    executor.enqueue(priority: request.priority, decode)
                    return
                }
                // The decoder that made the partial images saw every byte: finishing it is the final image.
                progressive.finish(count: downloaded.bytes.count) { image in
                    guard let image else { return executor.enqueue(priority: request.priority, decode) }
                    var withImage = downloaded
                    withImage.image = image
                    deliver(.success(withImage))
                }
            }
        })
        if let progressive {
            let data = outer.data
            inner.data = { piece in
                progressive.append(piece)
                data?(piece)
            }
        } else {
            inner.data = outer.data
        }
        inner.resumesDirectly = outer.resumesDirectly
        return download(bytesOnly, inner)
    }
}
