import Foundation
import GlimpseCodec
import TestSupport
import Testing

@Suite("glimpse with WebP")
struct WebPCLITests {
    @Test func infoDecodeAndBenchReadAnimatedWebP() throws {
        let input = Fixtures.url("webp/anim-blend.webp")
        let original = try WebP.Decoder.decode(try Fixtures.bytes("webp/anim-blend.webp"))
        let info = try CLI.run(["info", input.path])
        #expect(info.status == 0, "\(info.standardError)")
        #expect(info.standardOutput == "\(input.path): webp 8x6 frames=6\n", "\(info.standardOutput)")

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("webp-frames-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let decode = try CLI.run(["decode", input.path, "--all-frames", directory.path])
        #expect(decode.status == 0, "\(decode.standardError)")
        for (index, frame) in original.frames.enumerated() {
            let written = try PAM.decode(try Fixtures.bytes(at: directory.appendingPathComponent(String(format: "frame-%04d.pam", index))))
            #expect(written == frame.pixels, "frame \(index)")
        }

        let bench = try CLI.run(["bench", "--iterations", "1", "--chunk-size", "64", input.path])
        #expect(bench.status == 0, "\(bench.standardError)")
        #expect(bench.standardOutput.hasPrefix("glimpse,\(input.path),webp,8,6,6,"), "\(bench.standardOutput)")
    }
}
