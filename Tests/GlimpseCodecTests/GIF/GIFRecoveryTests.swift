import Foundation
@testable import GlimpseCodec
import TestSupport
import Testing

/// An LZW code that is not yet in the table ends the frame's data in lenient
/// mode (as browsers do) and fails the file in strict mode (as giflib does).
struct GIFRecoveryTests {
    /// 4×1, a 4-colour global table, codes of 3 bits: clear (4), literal 1, then
    /// 7 while the next free code is 6, then the end code (5).
    static let badCode: [UInt8] = Array("GIF89a".utf8) + [4, 0, 1, 0, 0x81, 0, 0]
        + [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255]
        + [0x2C, 0, 0, 0, 0, 4, 0, 1, 0, 0x00, 2, 2, 0xCC, 0x0B, 0, 0x3B]

    @Test func aCodeBeyondTheTableEndsTheFramesData() throws {
        let image = try GIF.Decoder.decode(Self.badCode)
        #expect(image.pixels.bytes == [0, 255, 0, 255] + [UInt8](repeating: 0, count: 12))
        #expect(image.frames.map(\.isComplete) == [false])
        #expect(image.warnings == [DecodingWarning(.gif(.lzwCode(7, next: 6)))])
        // Fed byte by byte: the same.
        #expect(try Chunking.fixed(1).decode(GIF.Decoder.self, Self.badCode).get() == image)
        #expect(throws: ImageDecodingError.malformed(.gif(.lzwCode(7, next: 6)))) {
            try GIF.Decoder.decode(Self.badCode, options: DecodingOptions(mode: .strict))
        }
    }

    @Test func cleanFilesHaveNoWarnings() throws {
        let bytes = try Fixtures.bytes("gif/disposal.gif")
        #expect(try GIF.Decoder.decode(bytes).warnings.isEmpty)
        #expect(try GIF.Decoder.decode(bytes, options: DecodingOptions(mode: .strict)) == (try GIF.Decoder.decode(bytes)))
    }
}
