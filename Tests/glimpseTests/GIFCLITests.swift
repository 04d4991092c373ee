import Foundation
import GlimpseCodec
import TestSupport
import Testing

@Suite("glimpse decode to GIF")
struct GIFCLITests {
    @Test func decodeWritesEveryFrameToAGIF() throws {
        let input = Fixtures.url("gif/disposal.gif")
        let original = try GIF.Decoder.decode(try Fixtures.bytes("gif/disposal.gif"))
        let output = try CLI.temporaryFile([], name: "out.gif")
        let result = try CLI.run(["decode", input.path, "-o", output.path])
        #expect(result.status == 0, "\(result.standardError)")
        let written = try GIF.Decoder.decode(try Fixtures.bytes(at: output))
        #expect(written.frames.count == original.frames.count)
        #expect(written.frames.map(\.pixels) == original.frames.map(\.pixels))
        #expect(written.frames.map(\.duration) == original.frames.map(\.duration))
    }
}
