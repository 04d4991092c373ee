import Glimpse
import Hummingbird

/// `GET /thumb?url=URL&w=WIDTH`: the thumbnail's bytes from ``ImagePipeline/data(for:format:)``,
/// straight from the memory or disk tier when they are there.
struct ThumbnailRoute: Sendable {
    let pipeline: ImagePipeline
    let defaultWidth: Int

    @Sendable func respond(_ request: Request, context: some RequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        guard let text = query.get("url"), let url = URL(string: text), url.scheme != nil else {
            throw HTTPError(.badRequest, message: "url: expected an absolute http or https URL")
        }
        let width = query.get("w", as: Int.self) ?? defaultWidth
        guard (1...4096).contains(width) else { throw HTTPError(.badRequest, message: "w: expected 1…4096") }
        let format = ImagePipeline.preferredFormat(accepting: request.headers[.accept])
        let thumbnail: ImagePipeline.EncodedImage
        do {
            thumbnail = try await pipeline.data(for: ImageRequest(url: url, processors: [.resize(width: width)]),
                                                format: format)
        } catch {
            throw HTTPError(Self.status(for: error), message: "\(error)")
        }
        var headers: HTTPFields = [:]
        headers[.contentType] = thumbnail.contentType
        headers[.cacheControl] = "public, max-age=86400"
        // The format depends on the Accept field, so shared caches must key on it.
        headers[.vary] = "Accept"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: thumbnail.bytes)))
    }

    /// The status a client sees: its own mistakes as 4xx (a refused address is 403, as
    /// imgproxy answers), the origin's and the network's as 502/504.
    static func status(for error: ImageLoadError) -> HTTPResponse.Status {
        switch error {
        case .download(.invalidURL): .badRequest
        case .download(.addressNotAllowed), .download(.redirectNotAllowed): .forbidden
        case .download(.badStatus(let code)) where code == 404 || code == 410: .notFound
        case .download(.tooLarge): .contentTooLarge
        case .download(.invalidContentType), .download(.emptyBody), .decoding: .unprocessableContent
        case .download(.timedOut), .download(.deadlineExceeded), .download(.tooSlow): .gatewayTimeout
        case .failedRecently(let reason): status(for: reason)
        case .shutDown: .serviceUnavailable
        default: .badGateway
        }
    }
}
