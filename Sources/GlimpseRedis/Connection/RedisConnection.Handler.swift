import NIOCore

extension RedisConnection {
    /// Commands written and their promises, together, so bytes and reply slots stay in one order.
    struct Request: Sendable {
        var bytes: [UInt8]
        var promises: [EventLoopPromise<RESP.Value>]
    }

    /// The channel handler: writes pipelined requests, parses replies, and completes the oldest
    /// waiting promise with each reply (Redis answers in order on one connection). RESP3 pushes
    /// answer no command and are dropped. Confined to its channel's event loop, as NIO requires.
    final class Handler: ChannelDuplexHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundIn = Request
        typealias OutboundOut = ByteBuffer

        private var parser: RESP.Parser
        private var waiting = CircularBuffer<EventLoopPromise<RESP.Value>>()

        init(limits: RESP.Parser.Limits) {
            parser = RESP.Parser(limits: limits)
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            let request = unwrapOutboundIn(data)
            waiting.append(contentsOf: request.promises)
            context.write(wrapOutboundOut(context.channel.allocator.buffer(bytes: request.bytes)), promise: promise)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            buffer.withUnsafeReadableBytes { parser.append($0) }
            do {
                while case .value(let value) = try parser.next() {
                    if case .push = value.withoutAttributes { continue }
                    guard let promise = waiting.popFirst() else {
                        // A reply to nothing: the stream is out of step, so nothing after it can be trusted.
                        failAll(.connectionClosed)
                        context.close(promise: nil)
                        return
                    }
                    promise.succeed(value)
                }
            } catch {
                failAll(.protocolViolation(error))
                context.close(promise: nil)
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            failAll(.connectionClosed)
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            failAll(.connectionClosed)
            context.close(promise: nil)
        }

        private func failAll(_ error: RedisError) {
            while let promise = waiting.popFirst() { promise.fail(error) }
        }
    }
}
