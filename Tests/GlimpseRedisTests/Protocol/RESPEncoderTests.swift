import GlimpseRedis
import Testing

@Suite("RESP encoder")
struct RESPEncoderTests {
    @Test("Commands are arrays of bulk strings, binary-safe")
    func commands() {
        #expect(RESP.Encoder.encode(RESP.Command("PING")) == Array("*1\r\n$4\r\nPING\r\n".utf8))
        #expect(RESP.Encoder.encode(RESP.Command("SET", "k", [0, 13, 10, 255], "PX", 100))
            == Array("*5\r\n$3\r\nSET\r\n$1\r\nk\r\n$4\r\n".utf8) + [0, 13, 10, 255] + Array("\r\n$2\r\nPX\r\n$3\r\n100\r\n".utf8))
        #expect(RESP.Encoder.encode(RESP.Command("GET", "")) == Array("*2\r\n$3\r\nGET\r\n$0\r\n\r\n".utf8))
    }

    @Test("Pipelining appends commands to one buffer")
    func pipelining() {
        var bytes: [UInt8] = []
        RESP.Encoder.append(RESP.Command("PING"), to: &bytes)
        RESP.Encoder.append(RESP.Command("GET", "k"), to: &bytes)
        #expect(bytes == Array("*1\r\n$4\r\nPING\r\n*2\r\n$3\r\nGET\r\n$1\r\nk\r\n".utf8))
    }

    @Test("Recorded RESP2 replies re-encode to the bytes the server sent", arguments: RecordedReplies.resp2)
    func reencodeRESP2(_ reply: RecordedReplies.Reply) {
        var bytes: [UInt8] = []
        RESP.Encoder.append(reply.value, resp3: false, to: &bytes)
        #expect(bytes == reply.bytes)
    }

    @Test("Recorded RESP3 replies re-encode to the bytes the server sent", arguments: RecordedReplies.resp3)
    func reencodeRESP3(_ reply: RecordedReplies.Reply) {
        var bytes: [UInt8] = []
        RESP.Encoder.append(reply.value, resp3: true, to: &bytes)
        #expect(bytes == reply.bytes)
    }
}
