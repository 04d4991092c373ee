import GlimpseRedis
import Testing

@Suite("RESP parser")
struct RESPParserTests {
    static let all = RecordedReplies.resp2 + RecordedReplies.resp3

    /// Every split point of every reply: the first part alone is never a reply, the rest completes it.
    @Test("Recorded replies parse split at every byte boundary", arguments: all)
    func splitAtEveryBoundary(_ reply: RecordedReplies.Reply) throws {
        let bytes = reply.bytes
        for split in 0...bytes.count {
            var parser = RESP.Parser()
            parser.append(bytes[..<split])
            if split < bytes.count {
                #expect(try parser.next() == .needMoreData, "split at \(split)")
            }
            parser.append(bytes[split...])
            #expect(try parser.next() == .value(reply.value), "split at \(split)")
            #expect(try parser.next() == .needMoreData)
            #expect(parser.bufferedByteCount == 0)
        }
    }

    @Test("Recorded replies parse fed one byte at a time", arguments: all)
    func byteByByte(_ reply: RecordedReplies.Reply) throws {
        var parser = RESP.Parser()
        var values: [RESP.Value] = []
        for byte in reply.bytes {
            parser.append(CollectionOfOne(byte))
            if case .value(let value) = try parser.next() { values.append(value) }
        }
        #expect(values == [reply.value])
    }

    @Test("Pipelined replies come out in order from one buffer")
    func pipelined() throws {
        var parser = RESP.Parser()
        for reply in Self.all { parser.append(reply.bytes) }
        var values: [RESP.Value] = []
        while case .value(let value) = try parser.next() { values.append(value) }
        #expect(values == Self.all.map(\.value))
    }

    @Test("The attribute's reply is the value without attributes")
    func attributes() throws {
        let attributed = try #require(RecordedReplies.resp3.first { $0.command == "DEBUG PROTOCOL attrib" })
        #expect(attributed.value.withoutAttributes.bytes == Array("Some real reply following the attribute".utf8))
    }

    @Test("RESP3 doubles: infinities, NaN and exponents")
    func doubles() throws {
        #expect(try parse(",inf\r\n") == .double(.infinity))
        #expect(try parse(",-inf\r\n") == .double(-.infinity))
        #expect(try parse(",1e3\r\n") == .double(1000))
        guard case .double(let nan) = try parse(",nan\r\n") else { Issue.record("not a double"); return }
        #expect(nan.isNaN)
    }

    @Test("Bulk errors, null arrays and integer extremes")
    func rarerForms() throws {
        #expect(try parse("!21\r\nSYNTAX invalid syntax\r\n") == .error("SYNTAX invalid syntax"))
        #expect(try parse("*-1\r\n") == .null)
        #expect(try parse(":-9223372036854775808\r\n") == .integer(.min))
        #expect(try parse(":9223372036854775807\r\n") == .integer(.max))
        #expect(try parse("$0\r\n\r\n") == .bulkString([]))
        #expect(try parse("$4\r\na\r\nb\r\n") == .bulkString(Array("a\r\nb".utf8)))
    }

    @Test("Malformed bytes are typed, permanent errors")
    func malformed() {
        let cases: [(String, RESP.ProtocolError)] = [
            ("?x\r\n", .unknownType(UInt8(ascii: "?"))),
            (":12a\r\n", .invalidNumber),
            (":9223372036854775808\r\n", .invalidNumber),
            (":\r\n", .invalidNumber),
            (":1\rx", .invalidLineEnding),
            ("$3\r\nabcd\r\n", .missingTerminator),
            ("$-2\r\n", .invalidLength(-2, limit: 64 << 20)),
            ("#x\r\n", .invalidScalar(type: UInt8(ascii: "#"))),
            (",1.5.5\r\n", .invalidScalar(type: UInt8(ascii: ","))),
            ("(12x\r\n", .invalidScalar(type: UInt8(ascii: "("))),
            ("=2\r\nab\r\n", .invalidScalar(type: UInt8(ascii: "="))),
            ("_x\r\n", .invalidScalar(type: UInt8(ascii: "_"))),
        ]
        for (wire, expected) in cases {
            var parser = RESP.Parser()
            parser.append(Array(wire.utf8))
            #expect(throws: expected, "\(wire.debugDescription)") { try parser.next() }
            // The stream cannot resynchronise: the error stays.
            parser.append(Array("+OK\r\n".utf8))
            #expect(throws: expected) { try parser.next() }
        }
    }

    @Test("Limits are checked from the header, before the payload arrives")
    func limits() {
        let limits = RESP.Parser.Limits(maxBulkLength: 1024, maxAggregateCount: 100, maxDepth: 8, maxLineLength: 32)
        func failure(_ wire: String) -> RESP.ProtocolError? {
            var parser = RESP.Parser(limits: limits)
            parser.append(Array(wire.utf8))
            do { _ = try parser.next() } catch { return error }
            return nil
        }
        #expect(failure("$1025\r\n") == .invalidLength(1025, limit: 1024))
        #expect(failure("$99999999999999\r\n") == .invalidLength(99_999_999_999_999, limit: 1024))
        #expect(failure("*101\r\n") == .aggregateTooLarge(101, limit: 100))
        #expect(failure("%51\r\n") == .aggregateTooLarge(51, limit: 100))
        #expect(failure(String(repeating: "*1\r\n", count: 9) + ":1\r\n") == .nestingTooDeep(limit: 8))
        #expect(failure(String(repeating: "*1\r\n", count: 7) + ":1\r\n") == nil)
        #expect(failure("+" + String(repeating: "a", count: 33)) == .lineTooLong(limit: 32))
        #expect(failure("+" + String(repeating: "a", count: 31)) == nil)
        // A huge declared count with few bytes behind it only waits.
        #expect(failure("*100\r\n:1\r\n") == nil)
    }

    @Test("A large bulk string arriving in many reads")
    func largeBulkInChunks() throws {
        let payload = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var wire = Array("$\(payload.count)\r\n".utf8) + payload + [13, 10]
        wire += Array("+OK\r\n".utf8)
        var parser = RESP.Parser()
        var values: [RESP.Value] = []
        var offset = 0
        while offset < wire.count {
            let end = min(wire.count, offset + 4093)
            parser.append(wire[offset..<end])
            offset = end
            while case .value(let value) = try parser.next() { values.append(value) }
        }
        #expect(values == [.bulkString(payload), .simpleString("OK")])
    }

    private func parse(_ wire: String) throws -> RESP.Value? {
        var parser = RESP.Parser()
        parser.append(Array(wire.utf8))
        guard case .value(let value) = try parser.next() else { return nil }
        return value
    }
}
