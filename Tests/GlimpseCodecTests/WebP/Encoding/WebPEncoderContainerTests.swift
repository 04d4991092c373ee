import Foundation
import Testing
import TestSupport
@testable import GlimpseCodec

/// The container the encoder writes: the simple format, `VP8X` with metadata, animations.
@Suite(.enabled(if: WebPEncoderTestSupport.dwebp != nil)) struct WebPEncoderContainerTests {
    typealias T = WebPEncoderTestSupport

    static func tags(_ bytes: [UInt8]) -> [String] {
        (WebPLosslessTestSupport.chunks(bytes) ?? []).map(\.fourCC)
    }

    @Test("metadata follows the policy: ICC profile and EXIF orientation in VP8X files, nothing with .none")
    func metadata() throws {
        let pixels = T.photoLike(width: 10, height: 7, alpha: true)
        var metadata = ImageMetadata()
        metadata.iccProfile = Array(0..<131).map { UInt8($0) }
        metadata.orientation = .right
        let image = Image(pixels: pixels, format: .png, metadata: metadata)

        let all = try image.encoded(as: .webp, options: EncodingOptions(webp: .init(lossless: true, metadata: .all)))
        #expect(Self.tags(all) == ["VP8X", "ICCP", "VP8L", "EXIF"])
        let decoded = try WebP.Decoder.decode(all)
        #expect(decoded.pixels == pixels)
        #expect(decoded.metadata.iccProfile == metadata.iccProfile)
        #expect(decoded.metadata.orientation == .right)
        #expect(try T.libwebpPixels(all) == pixels)

        let iccOnly = try image.encoded(as: .webp, options: EncodingOptions(webp: .init(lossless: true)))
        #expect(Self.tags(iccOnly) == ["VP8X", "ICCP", "VP8L"])
        let none = try image.encoded(as: .webp, options: EncodingOptions(webp: .init(lossless: true, metadata: [])))
        #expect(Self.tags(none) == ["VP8L"])
        #expect(try WebP.Decoder.decode(none).pixels == pixels)
    }

    @Test("animations keep every frame, its duration and the loop count; frames hold what changed")
    func animation() throws {
        let base = T.photoLike(width: 31, height: 20, seed: 4, alpha: true)
        var frames = [ImageFrame(pixels: base, duration: .milliseconds(70))]
        var canvas = base
        for step in 1...3 {
            // A small square moves; the rest stays.
            for y in 5..<9 {
                for x in (step * 5)..<(step * 5 + 4) {
                    canvas.bytes.replaceSubrange((y * 31 + x) * 4..<(y * 31 + x) * 4 + 4, with: [255, 0, UInt8(step * 60), 200])
                }
            }
            frames.append(ImageFrame(pixels: canvas, duration: .milliseconds(100 * step)))
        }
        frames.append(ImageFrame(pixels: canvas, duration: .milliseconds(40)))
        let image = Image(frames: frames, loopCount: 3, format: .gif)
        let bytes = try image.encoded(as: .webp, options: EncodingOptions(webp: .init(lossless: true)))
        #expect(Self.tags(bytes) == ["VP8X", "ANIM", "ANMF", "ANMF", "ANMF", "ANMF", "ANMF"])
        let decoded = try WebP.Decoder.decode(bytes)
        #expect(decoded.loopCount == 3)
        #expect(decoded.frames.map(\.pixels) == frames.map(\.pixels))
        #expect(decoded.frames.map(\.duration) == frames.map(\.duration))
        // Later frames are sub-rectangles: the file is far smaller than five full frames.
        let still = try WebP.Encoder(options: .init(lossless: true)).encode(base)
        #expect(bytes.count < 2 * still.count)
    }

    @Test("animation frames of different sizes are refused")
    func mismatchedFrames() {
        let image = Image(frames: [ImageFrame(pixels: PixelBuffer(width: 2, height: 2)),
                                   ImageFrame(pixels: PixelBuffer(width: 3, height: 2))], format: .gif)
        #expect(throws: WebP.Encoder.EncodingError.invalidImage("frames of different sizes")) {
            try WebP.Encoder().encode(image)
        }
    }
}
