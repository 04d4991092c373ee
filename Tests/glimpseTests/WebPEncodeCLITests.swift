import Foundation
import GlimpseCodec
import TestSupport
import Testing

@Suite("glimpse writes WebP")
struct WebPEncodeCLITests {
    static func temporary(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-webp-\(UUID().uuidString)-\(name)")
    }

    @Test func encodeWritesLosslessWebP() throws {
        let input = Fixtures.url("webp/anim-blend.webp")
        let output = Self.temporary("out.webp")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try CLI.run(["encode", input.path, "-o", output.path, "--lossless", "--effort", "3"])
        #expect(result.status == 0, "\(result.standardError)")
        let original = try WebP.Decoder.decode(try Fixtures.bytes("webp/anim-blend.webp"))
        let written = try WebP.Decoder.decode(try Fixtures.bytes(at: output))
        #expect(written.frames.map(\.pixels) == original.frames.map(\.pixels), "every frame kept")
        #expect(written.frames.map(\.duration) == original.frames.map(\.duration))
    }

    @Test func thumbnailFormatFromExtensionAndContradiction() throws {
        let input = Fixtures.url("webp/lossless-alpha.webp")
        let output = Self.temporary("thumb.webp")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try CLI.run(["thumbnail", input.path, "-o", output.path, "--size", "4"])
        #expect(result.status == 0, "\(result.standardOutput) \(result.standardError)")
        let bytes = try Fixtures.bytes(at: output)
        #expect(bytes.count > 16 && bytes[8..<12].elementsEqual("WEBP".utf8), "the .webp extension chose WebP")

        let contradiction = try CLI.run(["thumbnail", input.path, "-o", output.path, "--size", "4", "--format", "jpeg"])
        #expect(contradiction.status != 0)
        #expect(contradiction.standardError.contains("--format"), "\(contradiction.standardError)")
    }
}
