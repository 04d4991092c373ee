import GlimpseRedis
import Testing

/// Replies recorded from redis-server 7.0.15 on a loopback socket (the bytes as sent, commands
/// encoded by hand); RESP3 ones after `HELLO 3`. `DEBUG PROTOCOL <type>` makes the server
/// send each RESP3 type (it needs `--enable-debug-command yes`).
enum RecordedReplies {
    struct Reply: Sendable, CustomTestStringConvertible {
        let command: String
        let wire: String
        let value: RESP.Value
        var bytes: [UInt8] { Array(wire.utf8) }
        var testDescription: String { command }
    }

    static let resp2: [Reply] = [
        Reply(command: "PING", wire: "+PONG\r\n", value: .simpleString("PONG")),
        Reply(command: "SET k hello", wire: "+OK\r\n", value: .simpleString("OK")),
        Reply(command: "GET k", wire: "$5\r\nhello\r\n", value: .bulkString(Array("hello".utf8))),
        Reply(command: "GET missing", wire: "$-1\r\n", value: .null),
        Reply(command: "INCR n", wire: ":1\r\n", value: .integer(1)),
        Reply(command: "LRANGE l 0 -1", wire: "*3\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nc\r\n",
              value: .array([.bulkString([97]), .bulkString([98]), .bulkString([99])])),
        Reply(command: "HGETALL h", wire: "*4\r\n$1\r\nf\r\n$1\r\nv\r\n$1\r\ng\r\n$1\r\nw\r\n",
              value: .array([.bulkString([102]), .bulkString([118]), .bulkString([103]), .bulkString([119])])),
        Reply(command: "NOSUCH", wire: "-ERR unknown command 'NOSUCH', with args beginning with: \r\n",
              value: .error("ERR unknown command 'NOSUCH', with args beginning with: ")),
        Reply(command: "SMEMBERS none", wire: "*0\r\n", value: .array([])),
        Reply(command: "DEBUG PROTOCOL map (RESP2)", wire: "*6\r\n:0\r\n:0\r\n:1\r\n:1\r\n:2\r\n:0\r\n",
              value: .array([.integer(0), .integer(0), .integer(1), .integer(1), .integer(2), .integer(0)])),
        Reply(command: "EVAL \"return {1,'two',{3}}\" 0", wire: "*3\r\n:1\r\n$3\r\ntwo\r\n*1\r\n:3\r\n",
              value: .array([.integer(1), .bulkString(Array("two".utf8)), .array([.integer(3)])])),
    ]

    static let resp3: [Reply] = [
        Reply(command: "HELLO 3",
              wire: "%7\r\n$6\r\nserver\r\n$5\r\nredis\r\n$7\r\nversion\r\n$6\r\n7.0.15\r\n$5\r\nproto\r\n:3\r\n"
                  + "$2\r\nid\r\n:4\r\n$4\r\nmode\r\n$10\r\nstandalone\r\n$4\r\nrole\r\n$6\r\nmaster\r\n$7\r\nmodules\r\n*0\r\n",
              value: .map([
                  pair("server", .bulkString(Array("redis".utf8))), pair("version", .bulkString(Array("7.0.15".utf8))),
                  pair("proto", .integer(3)), pair("id", .integer(4)), pair("mode", .bulkString(Array("standalone".utf8))),
                  pair("role", .bulkString(Array("master".utf8))), pair("modules", .array([])),
              ])),
        Reply(command: "GET missing", wire: "_\r\n", value: .null),
        Reply(command: "HGETALL h", wire: "%2\r\n$1\r\nf\r\n$1\r\nv\r\n$1\r\ng\r\n$1\r\nw\r\n",
              value: .map([pair("f", .bulkString([118])), pair("g", .bulkString([119]))])),
        Reply(command: "DEBUG PROTOCOL string", wire: "$11\r\nHello World\r\n", value: .bulkString(Array("Hello World".utf8))),
        Reply(command: "DEBUG PROTOCOL integer", wire: ":12345\r\n", value: .integer(12345)),
        Reply(command: "DEBUG PROTOCOL double", wire: ",3.141\r\n", value: .double(3.141)),
        Reply(command: "DEBUG PROTOCOL bignum", wire: "(1234567999999999999999999999999999999\r\n",
              value: .bigNumber("1234567999999999999999999999999999999")),
        Reply(command: "DEBUG PROTOCOL set", wire: "~3\r\n:0\r\n:1\r\n:2\r\n", value: .set([.integer(0), .integer(1), .integer(2)])),
        Reply(command: "DEBUG PROTOCOL map", wire: "%3\r\n:0\r\n#f\r\n:1\r\n#t\r\n:2\r\n#f\r\n",
              value: .map([.init(key: .integer(0), value: .boolean(false)), .init(key: .integer(1), value: .boolean(true)),
                           .init(key: .integer(2), value: .boolean(false))])),
        Reply(command: "DEBUG PROTOCOL attrib",
              wire: "|1\r\n$14\r\nkey-popularity\r\n*2\r\n$7\r\nkey:123\r\n:90\r\n$39\r\nSome real reply following the attribute\r\n",
              value: .attributed(attributes: [pair("key-popularity", .array([.bulkString(Array("key:123".utf8)), .integer(90)]))],
                                 value: .bulkString(Array("Some real reply following the attribute".utf8)))),
        Reply(command: "DEBUG PROTOCOL push (the push)", wire: ">2\r\n$16\r\nserver-cpu-usage\r\n:42\r\n",
              value: .push([.bulkString(Array("server-cpu-usage".utf8)), .integer(42)])),
        Reply(command: "DEBUG PROTOCOL verbatim", wire: "=29\r\ntxt:This is a verbatim\nstring\r\n",
              value: .verbatimString(format: "txt", text: Array("This is a verbatim\nstring".utf8))),
        Reply(command: "DEBUG PROTOCOL true", wire: "#t\r\n", value: .boolean(true)),
        Reply(command: "DEBUG PROTOCOL false", wire: "#f\r\n", value: .boolean(false)),
        Reply(command: "ZSCORE z m", wire: ",1.5\r\n", value: .double(1.5)),
    ]

    private static func pair(_ key: String, _ value: RESP.Value) -> RESP.Value.Pair {
        .init(key: .bulkString(Array(key.utf8)), value: value)
    }
}
