import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension LoopbackHTTPServer {
    /// One accepted connection: reads requests, writes responses, until either
    /// side closes. Runs on its own thread and owns its socket.
    struct Connection: Sendable {
        /// No SIGPIPE when the peer has gone: Linux asks per call (`MSG_NOSIGNAL`); Darwin has
        /// no such flag and ignores SIGPIPE per socket instead (`SO_NOSIGPIPE`, set on accept).
        #if canImport(Darwin)
        static let sendFlags: Int32 = 0
        #else
        static let sendFlags = Int32(MSG_NOSIGNAL)
        #endif

        let server: LoopbackHTTPServer
        let socket: Int32
        let id: Int

        private enum Outcome {
            case keepAlive
            case close
            case peerGone
        }

        func run() {
            var buffer: [UInt8] = []
            var aborted = false
            defer { server.connectionClosed(id, socket: socket, abortedByClient: aborted) }
            while true {
                guard let head = readHead(&buffer) else { return }
                guard var request = parse(head) else {
                    _ = sendAll(Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
                    return
                }
                request = server.record(request)
                let response = server.route(for: request)
                let outcome = write(response, method: request.method)
                server.requestEnded()
                switch outcome {
                case .keepAlive:
                    if request.header("Connection")?.lowercased() == "close" { return }
                case .close:
                    return
                case .peerGone:
                    aborted = true
                    return
                }
            }
        }

        /// Reads up to the blank line that ends a request head; `nil` when the
        /// peer closed or the server stops.
        private func readHead(_ buffer: inout [UInt8]) -> [UInt8]? {
            let terminator: [UInt8] = [13, 10, 13, 10]
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                if let end = firstRange(of: terminator, in: buffer) {
                    let head = Array(buffer[..<end])
                    buffer.removeFirst(end + 4)
                    return head
                }
                guard buffer.count < 64 * 1024 else { return nil }
                guard waitReadable() else { return nil }
                let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return nil }
                buffer.append(contentsOf: chunk[..<count])
            }
        }

        /// Waits until the socket is readable (or closed); false when the server stops.
        private func waitReadable() -> Bool {
            while !server.isStopping {
                var pollFD = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
                if poll(&pollFD, 1, 20) > 0 { return true }
            }
            return false
        }

        private func firstRange(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
            guard haystack.count >= needle.count else { return nil }
            for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
                if Array(haystack[start..<(start + needle.count)]) == needle { return start }
            }
            return nil
        }

        private func parse(_ head: [UInt8]) -> RecordedRequest? {
            let text = String(decoding: head, as: UTF8.self)
            var lines = text.components(separatedBy: "\r\n")
            guard !lines.isEmpty else { return nil }
            let requestLine = lines.removeFirst().split(separator: " ")
            guard requestLine.count == 3 else { return nil }
            let target = String(requestLine[1])
            let pieces = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            var headers: [(name: String, value: String)] = []
            for line in lines where !line.isEmpty {
                guard let colon = line.firstIndex(of: ":") else { return nil }
                let name = String(line[..<colon])
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                headers.append((name, value))
            }
            return RecordedRequest(sequence: 0, connection: id, method: String(requestLine[0]),
                                   path: String(pieces[0]), query: pieces.count > 1 ? String(pieces[1]) : nil,
                                   headers: headers)
        }

        private func head(_ response: Response, framing: String?) -> [UInt8] {
            var text = "HTTP/1.1 \(response.status) \(reason(response.status))\r\n"
            for header in response.headers { text += "\(header.name): \(header.value)\r\n" }
            if let framing { text += framing + "\r\n" }
            text += "\r\n"
            return Array(text.utf8)
        }

        /// Sends `bytes` `chunkSize` at a time with `interval` between pieces.
        private func drip(_ bytes: [UInt8], chunkSize: Int, interval: Duration) -> Bool {
            var offset = 0
            let step = max(1, chunkSize)
            while offset < bytes.count {
                let end = min(bytes.count, offset + step)
                guard sendAll(Array(bytes[offset..<end])) else { return false }
                offset = end
                if offset < bytes.count, !pause(interval) { return false }
            }
            return true
        }

        /// `SIOCOUTQNSD` (linux/sockios.h): bytes in the send queue not yet sent.
        private static let unsentBytesRequest: Int32 = 0x894B

        /// Closes with a TCP reset (RST) instead of a FIN.
        private func reset() -> Outcome {
            // A linger-0 close discards whatever the kernel has not yet sent, so wait
            // (up to 20 ms) until every byte has left the send queue: the reset must
            // cut the transfer where the plan says, not earlier. Bytes already sent
            // over loopback sit in the peer's receive queue, which a reset leaves
            // readable. Waiting for acknowledgements instead would wait out the
            // peer's delayed ACKs, and every cut would cost the benchmark's
            // contenders more than the bytes it cuts.
            let deadline = ContinuousClock.now + .milliseconds(20)
            while ContinuousClock.now < deadline, !server.isStopping {
                var unsent: Int32 = 0
                guard ioctl(socket, UInt(Self.unsentBytesRequest), &unsent) == 0, unsent > 0 else { break }
                usleep(200)
            }
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            return .close
        }

        private func write(_ response: Response, method: String) -> Outcome {
            let bodyless = method == "HEAD" || response.status == 304 || response.status == 204
            switch response.body {
            case .bytes(let bytes):
                let framing = bodyless ? nil : "Content-Length: \(bytes.count)"
                guard sendAll(head(response, framing: framing)) else { return .peerGone }
                if !bodyless, !bytes.isEmpty, !sendAll(bytes) { return .peerGone }
                return .keepAlive
            case .chunked(let chunks, let delay):
                guard sendAll(head(response, framing: "Transfer-Encoding: chunked")) else { return .peerGone }
                for chunk in chunks where !chunk.isEmpty {
                    guard sendAll(Array((String(chunk.count, radix: 16) + "\r\n").utf8) + chunk + [13, 10]) else { return .peerGone }
                    if delay > .zero { pause(delay) }
                }
                return sendAll(Array("0\r\n\r\n".utf8)) ? .keepAlive : .peerGone
            case .chunkedClose(let chunks):
                guard sendAll(head(response, framing: "Transfer-Encoding: chunked")) else { return .peerGone }
                for chunk in chunks where !chunk.isEmpty {
                    guard sendAll(Array((String(chunk.count, radix: 16) + "\r\n").utf8) + chunk + [13, 10]) else { return .peerGone }
                }
                return .close
            case .drip(let bytes, let chunkSize, let interval):
                guard sendAll(head(response, framing: "Content-Length: \(bytes.count)")),
                      drip(bytes, chunkSize: chunkSize, interval: interval) else { return .peerGone }
                return .keepAlive
            case .stall(let declaredLength, let limit):
                let framing = declaredLength.map { "Content-Length: \($0)" }
                guard sendAll(head(response, framing: framing)) else { return .peerGone }
                return pause(limit) ? .close : .peerGone
            case .dripReset(let prefix, let declaredLength, let chunkSize, let interval):
                guard sendAll(head(response, framing: "Content-Length: \(declaredLength)")),
                      drip(prefix, chunkSize: chunkSize, interval: interval) else { return .peerGone }
                return reset()
            case .reset(let prefix, let declaredLength):
                guard sendAll(head(response, framing: "Content-Length: \(declaredLength)")), sendAll(prefix) else { return .peerGone }
                return reset()
            case .lying(let declaredLength, let bytes):
                guard sendAll(head(response, framing: "Content-Length: \(declaredLength)")), sendAll(bytes) else { return .peerGone }
                return .close
            case .generated(let count, let chunked, let slicePause):
                let framing = chunked ? "Transfer-Encoding: chunked" : "Content-Length: \(count)"
                guard sendAll(head(response, framing: framing)) else { return .peerGone }
                let slice = (0..<(64 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
                var remaining = count
                while remaining > 0 {
                    let piece = remaining >= slice.count ? slice : Array(slice[..<remaining])
                    let framed = chunked ? Array((String(piece.count, radix: 16) + "\r\n").utf8) + piece + [13, 10] : piece
                    guard sendAll(framed) else { return .peerGone }
                    remaining -= piece.count
                    if slicePause > .zero, remaining > 0, !pause(slicePause) { return .peerGone }
                }
                if chunked, !sendAll(Array("0\r\n\r\n".utf8)) { return .peerGone }
                return .keepAlive
            }
        }

        /// Waits `duration`, watching the socket; false when the peer closed or
        /// reset it (or the server stops) meanwhile.
        @discardableResult
        private func pause(_ duration: Duration) -> Bool {
            let deadline = ContinuousClock.now + duration
            var scratch = [UInt8](repeating: 0, count: 512)
            while ContinuousClock.now < deadline {
                if server.isStopping { return false }
                let left = deadline - ContinuousClock.now
                let milliseconds = Int32(clamping: min(20, max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)))
                var pollFD = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
                if poll(&pollFD, 1, milliseconds) > 0 {
                    // A request does not send a body here, so readable means closed
                    // (recv 0 or an error) — or a pipelined request, which we keep.
                    let count = scratch.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, Int32(MSG_PEEK)) }
                    if count <= 0 { return false }
                    usleep(1_000)
                }
            }
            return true
        }

        private func sendAll(_ bytes: [UInt8]) -> Bool {
            var offset = 0
            while offset < bytes.count {
                let sent = bytes.withUnsafeBytes { raw in
                    send(socket, raw.baseAddress.map { $0 + offset }, raw.count - offset, Self.sendFlags)
                }
                if sent < 0, errno == EINTR { continue }
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }

        private func reason(_ status: Int) -> String {
            switch status {
            case 200: "OK"
            case 206: "Partial Content"
            case 301: "Moved Permanently"
            case 302: "Found"
            case 304: "Not Modified"
            case 307: "Temporary Redirect"
            case 401: "Unauthorized"
            case 404: "Not Found"
            case 416: "Range Not Satisfiable"
            case 500: "Internal Server Error"
            default: "Status"
            }
        }
    }
}
