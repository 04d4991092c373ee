import Foundation
import GlimpseCodec
import TestSupport
import Testing

/// Inputs on which gif-diff (Fuzz/, giflib's first frame against ours, both
/// strict) once disagreed, kept in `Fuzz/Regressions/gif-diff/`, each with what
/// Glimpse now does and why (see the GIF README, "Where giflib differs").
struct GIFDiffRegressionTests {
    static let strict = DecodingOptions(mode: .strict, firstFrameOnly: true)

    static func load(_ name: String) throws -> [UInt8] {
        try Fixtures.bytes(at: Fixtures.repositoryRoot.appendingPathComponent("Fuzz/Regressions/gif-diff/\(name)"))
    }

    /// A 512×512 frame wholly off the 2×2 screen with broken data: strict mode
    /// decodes off-screen frames too and fails it as giflib does; lenient mode
    /// skips the data of a frame it cannot show.
    @Test func offscreenFrameWithBrokenData() throws {
        let bytes = try Self.load("offscreen-frame-short-data.gif")
        #expect(throws: ImageDecodingError.malformed(.gif(.lzwMinimumCodeSize(0)))) {
            try GIF.Decoder.decode(bytes, options: Self.strict)
        }
        let lenient = try GIF.Decoder.decode(bytes)
        #expect(lenient.pixels.bytes.allSatisfy { $0 == 0 })
    }

    /// A frame 0 pixels wide with data: both decode it to the untouched canvas
    /// (the harness once called giflib once per row and read past the data).
    @Test func zeroWidthFrame() throws {
        let image = try GIF.Decoder.decode(try Self.load("zero-width-frame.gif"), options: Self.strict)
        #expect(image.pixels.bytes.allSatisfy { $0 == 0 })
        #expect(image.warnings.isEmpty)
    }

    /// A frame 192 wide and 0 high: giflib reads its "0 pixels" as one row and
    /// fails; there is nothing to draw, and Glimpse decodes the untouched canvas.
    @Test func zeroHeightFrame() throws {
        let image = try GIF.Decoder.decode(try Self.load("zero-height-frame.gif"), options: Self.strict)
        #expect(image.pixels.bytes.allSatisfy { $0 == 0 })
    }

    /// A graphic control extension 71 bytes long: giflib drops it, browsers and
    /// Glimpse read its first four bytes. No agreed reference; it must decode.
    @Test func longGraphicControlExtension() throws {
        let image = try GIF.Decoder.decode(try Self.load("long-graphic-control.gif"), options: Self.strict)
        #expect(image.width == 100 && image.height == 50)
    }

    /// An LZW code above the next free one: giflib 5 decodes bytes no encoder
    /// meant; Glimpse fails it (strict) or ends the frame's data there (lenient).
    @Test func lzwCodeBeyondTheTable() throws {
        let bytes = try Self.load("lzw-code-beyond-table.gif")
        let strict = Result { () throws(ImageDecodingError) in try GIF.Decoder.decode(bytes, options: Self.strict) }
        guard case .failure(.malformed(.gif(.lzwCode))) = strict else {
            Issue.record("expected an LZW code error, got \(strict)")
            return
        }
        let lenient = try GIF.Decoder.decode(bytes, options: DecodingOptions(firstFrameOnly: true))
        #expect(lenient.warnings.contains { if case .gif(.lzwCode) = $0.defect { true } else { false } })
    }
}
