import Foundation
import GlimpseCodec
import TestSupport
import Testing

@Suite("glimpse decode -o OUT.png")
struct DecodeToPNGTests {
    @Test("writes PNG through the PNG encoder, 8- and 16-bit")
    func writesPNG() throws {
        let source = Fixtures.url("png/ct6-d16-adam7.png")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-png-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for depth in [8, 16] {
            let output = directory.appendingPathComponent("out\(depth).png")
            let result = try CLI.run(["decode", source.path, "-o", output.path, "--depth", String(depth)])
            #expect(result.status == 0, "\(result.standardError)")
            let options = DecodingOptions(sampleDepth: depth == 16 ? .preserve : .eightBit)
            let written = try PNG.Decoder.decode(try Fixtures.bytes(at: output), options: options)
            let expected = try PNG.Decoder.decode(try Fixtures.bytes(at: source), options: options)
            #expect(written.pixels == expected.pixels)
        }
    }
}
