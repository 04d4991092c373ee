import Foundation
import GlimpseCodec
import TestSupport
import Testing

/// ../shared/corpus/png/apng against the expectations in the corpus README.
///
/// Two documented departures from those (Pillow-derived) expectations:
/// - OVER follows APNG §4.2 (straight-alpha "over", as browsers draw it). Pillow
///   pastes through the alpha mask, which also lowers the canvas alpha, so its
///   `mode_*` and `blend_op_over_near_transparent` values (alpha 191, 97…) come
///   out opaque here: a frame drawn OVER an opaque canvas stays opaque.
/// - A default image with no fcTL before it is not a frame (issue #3), so
///   `single_frame_default.png` has 1 frame where Pillow counts 2.
@Suite("APNG: corpus")
struct APNGCorpusTests {
    static let directory = Fixtures.corpus("png/apng")

    static func decode(_ name: String, options: DecodingOptions = DecodingOptions()) throws -> Image {
        let url = try #require(directory?.appendingPathComponent(name))
        return try PNG.Decoder.decode(try Fixtures.bytes(at: url), options: options)
    }

    static let green = SIMD4<UInt16>(0, 255, 0, 255)
    static let clear = SIMD4<UInt16>(0, 0, 0, 0)

    @Test("final composed frames", .enabled(if: directory != nil))
    func finalFrames() throws {
        let greenFiles = [
            "blend_op_over", "blend_op_source_solid", "dispose_op_background_final", "dispose_op_none",
            "dispose_op_none_region", "dispose_op_previous", "dispose_op_previous_final", "dispose_op_previous_region",
            "fctl_actl", "mode_palette", "mode_palette_alpha", "single_frame", "single_frame_default", "split_fdat",
            "split_fdat_zero_chunk", "chunk_no_actl", "chunk_actl_after_idat", "chunk_multi_actl",
            "syntax_num_frames_invalid", "syntax_num_frames_zero_default", "blend_op_over_near_transparent",
        ]
        for name in greenFiles {
            let image = try Self.decode("pillow_apng_\(name).png")
            let last = try #require(image.frames.last).pixels
            #expect(last.pixel(x: 0, y: 0) == Self.green, "\(name)")
            #expect(last.pixel(x: 64, y: 32) == Self.green, "\(name)")
        }
        for name in ["dispose_op_background", "dispose_op_background_before_region", "dispose_op_previous_first",
                     "blend_op_source_transparent"] {
            let last = try #require(try Self.decode("pillow_apng_\(name).png").frames.last).pixels
            #expect(last.pixel(x: 0, y: 0) == Self.clear, "\(name)")
            #expect(last.pixel(x: 64, y: 32) == Self.clear, "\(name)")
        }
        let region = try #require(try Self.decode("pillow_apng_dispose_op_background_region.png").frames.last).pixels
        #expect(region.pixel(x: 0, y: 0) == SIMD4(0, 0, 255, 255))
        #expect(region.pixel(x: 64, y: 32) == Self.clear)
        let previous = try #require(try Self.decode("pillow_apng_dispose_op_previous_frame.png").frames.last).pixels
        #expect(previous.pixel(x: 0, y: 0) == SIMD4(255, 0, 0, 255))
        let nearSource = try #require(try Self.decode("pillow_apng_blend_op_source_near_transparent.png").frames.last).pixels
        #expect(nearSource.pixel(x: 0, y: 0) == SIMD4(0, 255, 0, 2))
        let grey = try #require(try Self.decode("pillow_apng_mode_grayscale.png").frames.last).pixels
        #expect(grey.pixel(x: 0, y: 0) == SIMD4(128, 128, 128, 255))
        #expect(grey.pixel(x: 64, y: 32) == SIMD4(255, 255, 255, 255))
        let blend = try Self.decode("pillow_blend_transparency.png")
        #expect(blend.frames.count == 2)
        #expect(blend.frames[1].pixels.pixel(x: 0, y: 0) == SIMD4(255, 0, 0, 255))
    }

    @Test("OVER on an opaque canvas: APNG §4.2 arithmetic", .enabled(if: directory != nil))
    func overArithmetic() throws {
        // Frame 1 opaque black, frame 2 blue at alpha 0x8000 (16-bit): B = 0xFFFF·0x8000/0xFFFF.
        let wide = try Self.decode("pillow_apng_mode_16bit.png", options: DecodingOptions(sampleDepth: .preserve))
        #expect(wide.frames.last?.pixels.pixel(x: 0, y: 0) == SIMD4(0, 0, 0x8000, 0xFFFF))
        let narrow = try Self.decode("pillow_apng_mode_16bit.png")
        #expect(narrow.frames.last?.pixels.pixel(x: 0, y: 0) == SIMD4(0, 0, 128, 255))
    }

    @Test("frame counts, delays and loop counts", .enabled(if: directory != nil))
    func timing() throws {
        func milliseconds(_ image: Image) -> [Int64] {
            image.frames.map { $0.duration.components.seconds * 1000 + $0.duration.components.attoseconds / 1_000_000_000_000_000 }
        }
        #expect(milliseconds(try Self.decode("pillow_apng_delay.png")) == [500, 1000, 500, 1000])
        for name in ["delay_round", "delay_short_max", "delay_zero_denom"] {
            #expect(milliseconds(try Self.decode("pillow_apng_\(name).png")) == [500, 1000], "\(name)")
        }
        #expect(milliseconds(try Self.decode("pillow_apng_delay_zero_numer.png")) == [0, 0, 500, 1000])
        #expect(try Self.decode("pillow_apng_num_plays.png").loopCount == 0)
        #expect(try Self.decode("pillow_apng_num_plays_1.png").loopCount == 1)
        let single = try Self.decode("pillow_apng_single_frame.png")
        #expect(single.frames.count == 1 && !single.isAnimated)
        for name in ["chunk_no_actl", "chunk_actl_after_idat", "chunk_multi_actl", "syntax_num_frames_invalid",
                     "syntax_num_frames_zero_default"] {
            let image = try Self.decode("pillow_apng_\(name).png")
            #expect(image.format == .png && image.frames.count == 1, "\(name) falls back to the still image")
        }
        #expect(try Self.decode("pillow_apng_syntax_num_frames_low.png").frames.count == 1)
        let basic = try Self.decode("imagers_animated_basic_f20.png")
        #expect(basic.frames.count == 20 && basic.format == .apng)
        #expect(try Self.decode("wuffs_animated-red-blue.apng").loopCount == 3)
        #expect(try Self.decode("wuffs_muybridge.apng").frames.count == 15)
        #expect(try Self.decode("pillow_iss634.apng").frames.count == 41)
        #expect(try Self.decode("wuffs_artificial-png_apng-skip-idat.png").frames.count == 2)
    }

    @Test("broken animations are errors", .enabled(if: directory != nil))
    func brokenAnimations() throws {
        for name in ["chunk_no_fctl", "chunk_no_fdat", "chunk_repeat_fctl", "sequence_start", "sequence_gap",
                     "sequence_repeat", "sequence_repeat_chunk", "sequence_reorder", "sequence_reorder_chunk",
                     "sequence_fdat_fctl", "syntax_num_frames_high", "syntax_num_frames_zero"] {
            #expect(throws: ImageDecodingError.self, "\(name)") { try Self.decode("pillow_apng_\(name).png") }
        }
    }

    @Test("first frame only", .enabled(if: directory != nil))
    func firstFrameOnly() throws {
        let options = DecodingOptions(firstFrameOnly: true)
        let image = try Self.decode("pillow_apng_delay.png", options: options)
        #expect(image.frames.count == 1)
        #expect(image.frames[0] == (try Self.decode("pillow_apng_delay.png")).frames[0])
        // The broken tail is never reached.
        #expect(try Self.decode("pillow_apng_syntax_num_frames_high.png", options: options).frames.count == 1)
    }

    @Test("every file decodes the same in any chunking", .enabled(if: directory != nil))
    func chunking() throws {
        let directory = try #require(Self.directory)
        for file in Fixtures.files(in: directory, extensions: [".png", ".apng"]) {
            let bytes = try Fixtures.bytes(at: file)
            let expected = Result { () throws(ImageDecodingError) in try PNG.Decoder.decode(bytes) }
            for chunking in [Chunking.fixed(1), .fixed(7), .random(seed: 7, maximum: 300)] {
                let result = chunking.decode(PNG.Decoder.self, bytes)
                #expect(result == expected, "\(file.lastPathComponent) \(chunking)")
            }
        }
    }
}
