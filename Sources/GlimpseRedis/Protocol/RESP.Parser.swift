extension RESP {
    /// An incremental reply parser: append bytes as they arrive, take replies as they complete.
    ///
    /// ``next()`` returns ``Outcome/needMoreData`` for a reply that has not fully arrived, which
    /// is normal on a socket, and throws a ``RESP/ProtocolError`` only for bytes that can never
    /// become RESP. Every length and count is checked against ``Limits`` before anything is
    /// allocated, and an aggregate reserves at most one element per three buffered bytes (the
    /// shortest RESP value, `_\r\n`), so a hostile header cannot make it allocate.
    ///
    /// An incomplete reply is parsed again from its start when more bytes arrive, but not
    /// before the buffer holds as many bytes as the innermost incomplete element declared,
    /// so a large bulk string arriving in many reads costs one header parse per read.
    public struct Parser: Sendable {
        /// Bounds on what the peer may make the parser hold.
        public struct Limits: Sendable, Equatable {
            /// Longest bulk string, bulk error or verbatim string, in bytes.
            public var maxBulkLength: Int
            /// Most elements in one aggregate (pairs count twice in maps).
            public var maxAggregateCount: Int
            /// Deepest nesting of aggregates.
            public var maxDepth: Int
            /// Longest line (simple strings, errors, numbers, headers) before its CRLF.
            public var maxLineLength: Int

            public init(maxBulkLength: Int = 64 << 20, maxAggregateCount: Int = 1 << 20,
                        maxDepth: Int = 32, maxLineLength: Int = 64 << 10) {
                self.maxBulkLength = maxBulkLength
                self.maxAggregateCount = maxAggregateCount
                self.maxDepth = maxDepth
                self.maxLineLength = maxLineLength
            }
        }

        /// A complete reply, or the note that the buffered bytes end inside one.
        public enum Outcome: Sendable, Equatable {
            case value(Value)
            case needMoreData
        }

        public let limits: Limits
        private var buffer: [UInt8] = []
        private var start = 0
        /// No reply can complete before the buffer holds this many bytes.
        private var minimumEnd = 0
        private var failure: ProtocolError?

        public init(limits: Limits = Limits()) {
            self.limits = limits
        }

        /// Bytes received and not yet returned as replies.
        public var bufferedByteCount: Int { buffer.count - start }

        /// Adds bytes read from the stream.
        public mutating func append(_ bytes: some Sequence<UInt8>) {
            compact()
            buffer.append(contentsOf: bytes)
        }

        /// Adds bytes read from the stream.
        public mutating func append(_ bytes: UnsafeRawBufferPointer) {
            compact()
            buffer.append(contentsOf: bytes)
        }

        /// The next complete reply, or ``Outcome/needMoreData``. After a ``RESP/ProtocolError``
        /// every call throws it again.
        public mutating func next() throws(ProtocolError) -> Outcome {
            if let failure { throw failure }
            guard buffer.count > start, buffer.count >= minimumEnd else { return .needMoreData }
            var scanner = Scanner(bytes: buffer, position: start, limits: limits)
            do {
                guard let value = try scanner.value(depth: 0) else {
                    minimumEnd = scanner.minimumEnd
                    return .needMoreData
                }
                start = scanner.position
                minimumEnd = 0
                return .value(value)
            } catch {
                failure = error
                throw error
            }
        }

        private mutating func compact() {
            guard start > 0 else { return }
            if start == buffer.count {
                // Keep a small buffer's capacity for the next reply, not a large value's.
                if buffer.capacity > 1 << 20 { buffer = [] } else { buffer.removeAll(keepingCapacity: true) }
                minimumEnd = 0
            } else if start >= 4096, start * 2 >= buffer.count {
                buffer.removeFirst(start)
                minimumEnd = max(0, minimumEnd - start)
            } else {
                return
            }
            start = 0
        }
    }
}

extension RESP.Parser {
    /// One parse attempt over the buffered bytes; `nil` results mean "not yet complete".
    private struct Scanner {
        let bytes: [UInt8]
        var position: Int
        let limits: Limits
        var minimumEnd = 0

        private static let cr: UInt8 = 13
        private static let lf: UInt8 = 10

        mutating func value(depth: Int) throws(RESP.ProtocolError) -> RESP.Value? {
            guard position < bytes.count else {
                minimumEnd = position + 1
                return nil
            }
            let type = bytes[position]
            let lineStart = position + 1
            guard let line = try self.line(from: lineStart) else { return nil }
            switch type {
            case UInt8(ascii: "+"):
                return .simpleString(String(decoding: bytes[line], as: UTF8.self))
            case UInt8(ascii: "-"):
                return .error(String(decoding: bytes[line], as: UTF8.self))
            case UInt8(ascii: ":"):
                return .integer(try Self.integer(bytes[line]))
            case UInt8(ascii: "_"):
                guard line.isEmpty else { throw .invalidScalar(type: type) }
                return .null
            case UInt8(ascii: "#"):
                guard line.count == 1 else { throw .invalidScalar(type: type) }
                switch bytes[line.lowerBound] {
                case UInt8(ascii: "t"): return .boolean(true)
                case UInt8(ascii: "f"): return .boolean(false)
                default: throw .invalidScalar(type: type)
                }
            case UInt8(ascii: ","):
                // Doubles are ASCII ("1.5", "-3e10", "inf", "-inf", "nan"); Double's own
                // parser accepts exactly those plus spellings Redis never sends.
                let text = String(decoding: bytes[line], as: UTF8.self)
                guard !line.isEmpty, line.count <= 64, let number = Double(text) else { throw .invalidScalar(type: type) }
                return .double(number)
            case UInt8(ascii: "("):
                let digits = bytes[line]
                let body = digits.first == UInt8(ascii: "-") ? digits.dropFirst() : digits[...]
                guard !body.isEmpty, body.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
                    throw .invalidScalar(type: type)
                }
                return .bigNumber(String(decoding: digits, as: UTF8.self))
            case UInt8(ascii: "$"), UInt8(ascii: "!"), UInt8(ascii: "="):
                let length = try Self.integer(bytes[line])
                if length == -1, type == UInt8(ascii: "$") { return .null }
                guard length >= 0, length <= Int64(limits.maxBulkLength) else {
                    throw .invalidLength(Int(clamping: length), limit: limits.maxBulkLength)
                }
                guard let payload = try self.payload(from: position, count: Int(length)) else { return nil }
                switch type {
                case UInt8(ascii: "$"):
                    return .bulkString(Array(bytes[payload]))
                case UInt8(ascii: "!"):
                    return .error(String(decoding: bytes[payload], as: UTF8.self))
                default:
                    guard payload.count >= 4, bytes[payload.lowerBound + 3] == UInt8(ascii: ":") else {
                        throw .invalidScalar(type: type)
                    }
                    let format = String(decoding: bytes[payload.lowerBound..<payload.lowerBound + 3], as: UTF8.self)
                    return .verbatimString(format: format, text: Array(bytes[(payload.lowerBound + 4)..<payload.upperBound]))
                }
            case UInt8(ascii: "*"), UInt8(ascii: "~"), UInt8(ascii: ">"):
                let count = try Self.integer(bytes[line])
                if count == -1, type == UInt8(ascii: "*") { return .null }
                guard let elements = try self.elements(Self.aggregateCount(count, limits: limits), depth: depth) else { return nil }
                switch type {
                case UInt8(ascii: "*"): return .array(elements)
                case UInt8(ascii: "~"): return .set(elements)
                default: return .push(elements)
                }
            case UInt8(ascii: "%"), UInt8(ascii: "|"):
                let count = try Self.integer(bytes[line])
                guard count >= 0, count <= Int64(limits.maxAggregateCount / 2) else {
                    throw .aggregateTooLarge(Int(clamping: count), limit: limits.maxAggregateCount)
                }
                guard let flat = try self.elements(Int(count) * 2, depth: depth) else { return nil }
                let pairs = stride(from: 0, to: flat.count, by: 2).map { RESP.Value.Pair(key: flat[$0], value: flat[$0 + 1]) }
                guard type == UInt8(ascii: "|") else { return .map(pairs) }
                // Attributes describe the reply that follows them, which is part of this value.
                guard let reply = try value(depth: depth + 1) else { return nil }
                return .attributed(attributes: pairs, value: reply)
            default:
                throw .unknownType(type)
            }
        }

        /// The line's range without CRLF, moving past it; `nil` when its end has not arrived.
        private mutating func line(from lineStart: Int) throws(RESP.ProtocolError) -> Range<Int>? {
            let searchEnd = min(bytes.count, lineStart + limits.maxLineLength + 1)
            var index = lineStart
            while index < searchEnd, bytes[index] != Self.cr { index += 1 }
            guard index < searchEnd else {
                if searchEnd == lineStart + limits.maxLineLength + 1 { throw .lineTooLong(limit: limits.maxLineLength) }
                minimumEnd = bytes.count + 1
                return nil
            }
            guard index + 1 < bytes.count else {
                minimumEnd = index + 2
                return nil
            }
            guard bytes[index + 1] == Self.lf else { throw .invalidLineEnding }
            position = index + 2
            return lineStart..<index
        }

        /// `count` payload bytes and their CRLF, moving past both.
        private mutating func payload(from payloadStart: Int, count: Int) throws(RESP.ProtocolError) -> Range<Int>? {
            let end = payloadStart + count
            guard bytes.count >= end + 2 else {
                minimumEnd = end + 2
                return nil
            }
            guard bytes[end] == Self.cr, bytes[end + 1] == Self.lf else { throw .missingTerminator }
            position = end + 2
            return payloadStart..<end
        }

        private mutating func elements(_ count: Int, depth: Int) throws(RESP.ProtocolError) -> [RESP.Value]? {
            guard depth < limits.maxDepth else { throw .nestingTooDeep(limit: limits.maxDepth) }
            var elements: [RESP.Value] = []
            elements.reserveCapacity(min(count, (bytes.count - position) / 3))
            for _ in 0..<count {
                guard let element = try value(depth: depth + 1) else { return nil }
                elements.append(element)
            }
            return elements
        }

        private static func aggregateCount(_ count: Int64, limits: Limits) throws(RESP.ProtocolError) -> Int {
            guard count >= 0, count <= Int64(limits.maxAggregateCount) else {
                throw .aggregateTooLarge(Int(clamping: count), limit: limits.maxAggregateCount)
            }
            return Int(count)
        }

        /// A signed decimal that fits 64 bits, with no sign-only or empty spelling.
        private static func integer(_ digits: ArraySlice<UInt8>) throws(RESP.ProtocolError) -> Int64 {
            var body = digits[...]
            let negative = body.first == UInt8(ascii: "-")
            if negative || body.first == UInt8(ascii: "+") { body = body.dropFirst() }
            guard !body.isEmpty, body.count <= 19 else { throw .invalidNumber }
            var magnitude: UInt64 = 0
            for byte in body {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { throw .invalidNumber }
                magnitude = magnitude * 10 + UInt64(byte - UInt8(ascii: "0"))  // 19 digits < 2^64
            }
            if negative {
                guard magnitude <= UInt64(Int64.max) + 1 else { throw .invalidNumber }
                return magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude)
            }
            guard magnitude <= UInt64(Int64.max) else { throw .invalidNumber }
            return Int64(magnitude)
        }
    }
}
