import Synchronization
import GlimpseCache

extension LoopbackHTTPServer {
    /// How one request to a ``Route/resource(_:etag:contentType:faults:)`` is
    /// answered badly; requests past the plan are answered well.
    public enum Fault: Sendable {
        /// Answered well.
        case none
        /// An error status, with `Retry-After` when given.
        case status(Int, retryAfter: String? = nil)
        /// The connection is reset after this many bytes of the body it answers with.
        case cutAfter(Int)
        /// The connection is reset half-way through the body it answers with.
        case cutHalfway
        /// The connection is closed cleanly (a FIN) after this many bytes of
        /// the body it answers with, short of its `Content-Length`.
        case closeAfter(Int)
        /// The body goes out chunked, without a `Content-Length`, and the connection
        /// is closed cleanly (a FIN) after this many bytes, before the last chunk.
        case chunkedCloseAfter(Int)
        /// A `Range` is ignored: 200 with the whole body.
        case ignoreRange
        /// A `Range` is answered with a `Content-Range` one byte off.
        case wrongContentRange
        /// From this request on the resource is `body`, with entity tag `etag`,
        /// and this answer ignores `If-Range` (a broken origin that splices).
        case newVersion([UInt8], etag: String)
    }
}

extension LoopbackHTTPServer.Route {
    /// A resource served as an origin with range support serves it: `ETag`,
    /// `Last-Modified`, `Accept-Ranges: bytes`; a `Range: bytes=N-` is answered
    /// with `206` when `If-Range` is absent or matches the current tag, with
    /// the whole body otherwise (RFC 9110 §13.1.5, §14.2). The n-th request
    /// suffers `faults[n]`.
    ///
    /// With `pace`, bodies go out `chunkSize` bytes per `interval`, like a slow link.
    public static func resource(_ body: [UInt8], etag: String = "\"v1\"", contentType: String = "image/png",
                                faults: [LoopbackHTTPServer.Fault] = [],
                                pace: (chunkSize: Int, interval: Duration)? = nil) -> LoopbackHTTPServer.Route {
        let state = ResourceState(body: body, etag: etag)
        return .handler { request in
            let (index, current, tag) = state.next()
            let fault = index < faults.count ? faults[index] : .none
            var body = current
            var etag = tag
            var honoursIfRange = true
            switch fault {
            case .status(let code, let retryAfter):
                var headers: [(name: String, value: String)] = [("Content-Type", "text/plain")]
                if let retryAfter { headers.append(("Retry-After", retryAfter)) }
                return LoopbackHTTPServer.Response(status: code, headers: headers, body: .bytes([]))
            case .newVersion(let newBody, let newTag):
                state.replace(body: newBody, etag: newTag)
                body = newBody
                etag = newTag
                honoursIfRange = false
            case .none, .cutAfter, .cutHalfway, .closeAfter, .chunkedCloseAfter, .ignoreRange, .wrongContentRange:
                break
            }
            var headers: [(name: String, value: String)] = [
                ("Content-Type", contentType), ("ETag", etag), ("Accept-Ranges", "bytes"),
                ("Last-Modified", "Sun, 06 Nov 1994 08:49:37 GMT"),
            ]
            var status = 200
            var payload = body
            if case .ignoreRange = fault {
                // whole body below
            } else if let range = request.header("Range"), range.hasPrefix("bytes="), range.hasSuffix("-"),
                      let start = Int(range.dropFirst(6).dropLast()),
                      !honoursIfRange || request.header("If-Range") == nil || request.header("If-Range") == etag {
                guard start < body.count else { return .status(416) }
                status = 206
                payload = Array(body[start...])
                let shown = fault.isWrongContentRange ? start + 1 : start
                headers.append(("Content-Range", "bytes \(shown)-\(body.count - 1)/\(body.count)"))
            }
            let cut: Int? = switch fault {
            case .cutAfter(let count): count < payload.count ? count : nil
            case .cutHalfway: payload.count / 2
            default: nil
            }
            if case .closeAfter(let count) = fault, count < payload.count {
                return LoopbackHTTPServer.Response(status: status, headers: headers,
                                                   body: .lying(declaredLength: payload.count, bytes: Array(payload.prefix(count))))
            }
            if case .chunkedCloseAfter(let count) = fault, count < payload.count {
                return LoopbackHTTPServer.Response(status: status, headers: headers,
                                                   body: .chunkedClose([Array(payload.prefix(count))]))
            }
            let prefix = cut.map { Array(payload.prefix($0)) }
            let answer: LoopbackHTTPServer.Response.Body = switch (prefix, pace) {
            case (let prefix?, let pace?):
                .dripReset(prefix: prefix, declaredLength: payload.count, chunkSize: pace.chunkSize, interval: pace.interval)
            case (let prefix?, nil): .reset(prefix: prefix, declaredLength: payload.count)
            case (nil, let pace?): .drip(payload, chunkSize: pace.chunkSize, interval: pace.interval)
            case (nil, nil): .bytes(payload)
            }
            return LoopbackHTTPServer.Response(status: status, headers: headers, body: answer)
        }
    }
}

extension LoopbackHTTPServer.Fault {
    fileprivate var isWrongContentRange: Bool {
        if case .wrongContentRange = self { return true }
        return false
    }
}

/// The request count and current version of a resource route; the server
/// calls handlers from its connection threads.
private final class ResourceState: Sendable {
    private let state: Lock<(requests: Int, body: [UInt8], etag: String)>

    init(body: [UInt8], etag: String) {
        state = Lock((0, body, etag))
    }

    func next() -> (index: Int, body: [UInt8], etag: String) {
        state.withLock { state in
            defer { state.requests += 1 }
            return (state.requests, state.body, state.etag)
        }
    }

    func replace(body: [UInt8], etag: String) {
        state.withLock { state in
            state.body = body
            state.etag = etag
        }
    }
}
