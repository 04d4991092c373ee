import Foundation
import GlimpseCodec
import TestSupport
import Testing

/// `glimpse decode` and `info --json` on a damaged file: a warning and exit 0,
/// or with --strict an error and exit 1.
@Suite("glimpse on damaged files")
struct DamagedFileCLITests {
    /// A GIF fixture without its trailer byte.
    static func damaged() throws -> URL {
        let bytes = try Fixtures.bytes("gif/disposal.gif").dropLast()  // no trailer
        return try CLI.temporaryFile(Array(bytes), name: "cut.gif")
    }

    @Test func decodeWarnsAndSucceeds() throws {
        let input = try Self.damaged()
        // Every frame is decoded, so the end of the file is reached.
        let result = try CLI.run(["decode", input.path, "--all-frames", input.path + "-frames"])
        #expect(result.status == 0)
        #expect(result.standardError == "warning: \(input.path): GIF: no trailer\n")
        let written = try PAM.decode(try Fixtures.bytes(at: URL(fileURLWithPath: input.path + "-frames/frame-0000.pam")))
        #expect(written == (try GIF.Decoder.decode(try Fixtures.bytes("gif/disposal.gif"))).pixels)
    }

    @Test func strictDecodeFails() throws {
        let input = try Self.damaged()
        let result = try CLI.run(["decode", "--all-frames", input.path + "-frames", "--strict", input.path])
        #expect(result.status == 1)
        #expect(result.standardError == "error: \(input.path): truncated input\n")
    }

    @Test func infoJSONListsTheWarnings() throws {
        let input = try Self.damaged()
        let result = try CLI.run(["info", "--json", input.path])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(object["warnings"] as? [String] == ["GIF: no trailer"])
        let clean = try CLI.run(["info", "--json", Fixtures.url("gif/disposal.gif").path])
        let cleanObject = try #require(try JSONSerialization.jsonObject(with: Data(clean.standardOutput.utf8)) as? [String: Any])
        #expect(cleanObject["warnings"] as? [String] == [])
    }
}
