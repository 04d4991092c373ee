import Foundation
import Testing
import TestSupport
@testable import GlimpseCodec

/// The shared conformance corpus (`../shared/corpus/gif`); skipped when it is absent.
@Suite(.enabled(if: GIFTestHelpers.corpus != nil))
struct GIFCorpusTests {
    /// Files where Pillow composes frames by other rules than browsers do
    /// (Glimpse follows browsers); see Sources/GlimpseCodec/GIF/README.md.
    static let differsFromPillow: Set<String> = [
        // Pillow paints disposal 2 with the background colour; browsers (and Glimpse) clear to transparent.
        "pillow_dispose_bgnd.gif", "pillow_dispose_bgnd_rgba.gif", "wuffs_artificial-gif_background-color.gif",
        "peterdn_animated_transparent_loop.gif",
        // Pillow fills what the first frame does not cover with the background colour.
        "wuffs_artificial-gif_metadata-empty.gif", "wuffs_artificial-gif_metadata-full.gif",
        "wuffs_artificial-gif_multiple-loop-counts.gif", "wuffs_artificial-gif_small-frame-interlaced.gif",
        // Pillow enlarges the canvas for frames outside it; Glimpse clips them.
        "peterdn_animated_transparent_loop_frames_out_of_bounds.gif", "pillow_test_extents.gif",
        "wuffs_artificial-gif_frame-out-of-bounds.gif",
        // Pillow skips junk bytes after the last frame and finds a frame inside them.
        "pillow_test_extents_transparency.gif",
        // LZW minimum code size 11: Pillow decodes it, giflib and Glimpse reject it.
        "pillow_issue_2811.gif",
    ]

    /// What the broken or hostile files give.
    static let errors: [String: ImageDecodingError] = [
        "imagersgif_crashtest_issue-117-out-of-range.gif": .malformed(.gif(.lzwMinimumCodeSize(0))),
        "imagersgif_crashtest_issue-96-small-codesize.gif": .malformed(.gif(.zeroSizeScreen)),
        "imagersgif_crashtest_issue-96-small-codesize-2.gif": .limitExceeded(.pixelsPerFrame),
        "imagersgif_stall_issue-101-infinite-empty-loop.gif": .limitExceeded(.totalBytes),
        "pillow_zero_width.gif": .malformed(.gif(.zeroSizeScreen)),
        "pillow_issue_2811.gif": .malformed(.gif(.lzwMinimumCodeSize(11))),
    ]

    /// Files cut inside a frame: in lenient mode the frame so far, with this
    /// warning; in strict mode the error.
    static let recovered: [String: (warning: DecodingWarning, strict: ImageDecodingError)] = [
        // The only frame, 65535 wide, lies outside the 32×32 screen and is cut after its
        // descriptor: a blank canvas; strict mode decodes off-screen frames too, within the limits.
        "pillow_decompression_bomb.gif": (DecodingWarning(.gif(.truncatedFrame(frame: 0))), .limitExceeded(.width)),
        "wuffs_hippopotamus.interlaced.truncated.gif": (DecodingWarning(.gif(.truncatedFrame(frame: 0))), .truncated),
    ]

    static func corpusFile(_ name: String) throws -> [UInt8] {
        try Fixtures.bytes(at: try #require(GIFTestHelpers.corpus).appendingPathComponent(name))
    }

    static var allFiles: [String] {
        guard let corpus = GIFTestHelpers.corpus else { return [] }
        return Fixtures.files(in: corpus, extensions: [".gif"]).map(\.lastPathComponent)
    }

    @Test func everyFileDecodesOrFailsAsDocumented() throws {
        var checked = 0
        for name in Self.allFiles {
            let bytes = try Self.corpusFile(name)
            do {
                let image = try GIF.Decoder.decode(bytes)
                #expect(Self.errors[name] == nil, "\(name) decoded, expected \(String(describing: Self.errors[name]))")
                #expect(!image.frames.isEmpty)
                if let (warning, strictError) = Self.recovered[name] {
                    #expect(image.warnings == [warning], "\(name)")
                    #expect(image.frames.last?.isComplete == false, "\(name)")
                    #expect(throws: strictError, "\(name)") {
                        try GIF.Decoder.decode(bytes, options: DecodingOptions(mode: .strict))
                    }
                    continue
                }
                if Self.differsFromPillow.contains(name) { continue }
                guard let pillow = GIFTestHelpers.pillowFrames[name], let pillow else { continue }
                #expect(GIFTestHelpers.checksums(image) == pillow, "\(name) differs from Pillow")
                checked += 1
            } catch {
                #expect(Self.errors[name] == error, "\(name): \(error)")
            }
        }
        #expect(checked >= 80)
    }

    @Test func framesMatchTheCorpusReferences() throws {
        #expect(GIFTestHelpers.corpusExpectedFrames.count == 14)
        for (name, expected) in GIFTestHelpers.corpusExpectedFrames {
            let image = try GIF.Decoder.decode(try Self.corpusFile(name))
            #expect(GIFTestHelpers.checksums(image) == expected, "\(name)")
        }
    }

    @Test func stillImagesMatchGif2rgb() throws {
        // gif2rgb paints the frame ignoring transparency; these six have none.
        let corpus = try #require(GIFTestHelpers.corpus)
        for name in ["giflib_gifgrid.gif", "giflib_porsche.gif", "giflib_solid2.gif", "giflib_treescap.gif",
                     "giflib_treescap-interlaced.gif"] {
            let rgb = try Fixtures.bytes(at: corpus.appendingPathComponent("expected/\(name).gif2rgb.rgb"))
            let image = try GIF.Decoder.decode(try Self.corpusFile(name))
            var ours: [UInt8] = []
            ours.reserveCapacity(rgb.count)
            for (i, byte) in image.pixels.bytes.enumerated() where i % 4 != 3 { ours.append(byte) }
            #expect(ours == rgb, "\(name)")
        }
    }

    @Test func bricksMatchTheirIndexesAndPalettes() throws {
        let corpus = try #require(GIFTestHelpers.corpus)
        for name in ["wuffs_bricks-dither", "wuffs_bricks-nodither"] {
            let indexes = try Fixtures.bytes(at: corpus.appendingPathComponent("expected/\(name).indexes"))
            let bgra = try Fixtures.bytes(at: corpus.appendingPathComponent("expected/\(name).palette"))
            let image = try GIF.Decoder.decode(try Self.corpusFile("\(name).gif"))
            var expected: [UInt8] = []
            for index in indexes {
                let p = Int(index) * 4
                expected += [bgra[p + 2], bgra[p + 1], bgra[p], bgra[p + 3]]
            }
            #expect(image.pixels.bytes == expected, "\(name)")
        }
    }

    @Test(.enabled(if: ReferenceDecoder.executable != nil))
    func firstFramesMatchGiflib() throws {
        let corpus = try #require(GIFTestHelpers.corpus)
        var compared = 0
        for name in Self.allFiles where Self.errors[name] == nil && name != "wuffs_artificial-gif_no-frames.gif" {
            let url = corpus.appendingPathComponent(name)
            guard let reference = ReferenceDecoder.decode(url) else { continue }
            let image = try GIF.Decoder.decode(try Fixtures.bytes(at: url))
            #expect(GIFTestHelpers.normalised(image.pixels) == GIFTestHelpers.normalised(reference), "\(name)")
            compared += 1
        }
        #expect(compared >= 80)
    }

    @Test func loopCountsCountPlays() throws {
        let plays: [String: Int] = [
            "giflib_welcome2.gif": 1001, "imagersgif_samples_moon_impact.gif": 11, "peterdn_animated_noloop.gif": 1,
            "peterdn_animated_loop.gif": 0, "wuffs_animated-red-blue.gif": 3, "pillow_duplicate_number_of_loops.gif": 4,
            "wuffs_artificial-gif_metadata-full.gif": 2001, "pillow_comment_after_last_frame.gif": 2,
        ]
        for (name, count) in plays {
            #expect(try GIF.Decoder.decode(try Self.corpusFile(name)).loopCount == count, "\(name)")
        }
    }

    @Test func shortAndLongPixelDataAreTolerated() throws {
        for (name, complete) in [("wuffs_artificial-gif_pixel-data-none.gif", false),
                                 ("wuffs_artificial-gif_pixel-data-not-enough.gif", false),
                                 ("wuffs_artificial-gif_pixel-data-too-much-good-lzw.gif", true),
                                 ("wuffs_artificial-gif_pixel-data-too-much-bad-lzw.gif", true),
                                 ("wuffs_artificial-gif_zero-width-frame.gif", true)] {
            let bytes = try Self.corpusFile(name)
            let image = try GIF.Decoder.decode(bytes)
            #expect(image.frames.map(\.isComplete) == [complete], "\(name)")
            // Too little data warns (lenient) or fails (strict), as giflib fails it.
            let missing = ImageDecodingError.malformed(.gif(.missingPixels(frame: 0)))
            #expect(image.warnings == (complete ? [] : [DecodingWarning(.gif(.missingPixels(frame: 0)))]), "\(name)")
            let strict = Result { () throws(ImageDecodingError) in try GIF.Decoder.decode(bytes, options: DecodingOptions(mode: .strict)) }
            if complete {
                #expect(try strict.get() == image, "\(name)")
            } else {
                #expect(throws: missing, "\(name)") { try strict.get() }
            }
        }
        let empty = try GIF.Decoder.decode(try Self.corpusFile("wuffs_artificial-gif_no-frames.gif"))
        #expect(empty.frames.count == 1 && empty.pixels.bytes.allSatisfy { $0 == 0 })
    }

    @Test func hostileFilesTerminateUnderAnyChunking() throws {
        for name in Self.errors.keys.sorted() {
            let bytes = try Self.corpusFile(name)
            for chunking in [Chunking.fixed(1), .fixed(5)] {
                if case .success = chunking.decode(GIF.Decoder.self, bytes) {
                    Issue.record("\(name) fed \(chunking) decoded")
                }
            }
        }
        // The truncated file still shows what arrived.
        var decoder = GIF.Decoder(options: DecodingOptions())
        _ = try decoder.append(try Self.corpusFile("wuffs_hippopotamus.interlaced.truncated.gif"))
        #expect(decoder.partialImage()?.frames.first?.isComplete == false)
    }

    @Test(arguments: ["wuffs_muybridge.gif", "giflib_welcome2.gif", "pillow_dispose_prev.gif",
                      "peterdn_animated_loop_interlaced.gif", "wuffs_hippopotamus.interlaced.gif", "giflib_fire.gif"])
    func anyChunkingGivesTheSameImage(_ name: String) throws {
        let bytes = try Self.corpusFile(name)
        let reference = try GIF.Decoder.decode(bytes)
        for chunking in Chunking.standard {
            #expect(try chunking.decode(GIF.Decoder.self, bytes).get() == reference, "\(name) fed \(chunking)")
        }
    }

    @Test func iteratorYieldsTheDecodersFrames() throws {
        let bytes = try Self.corpusFile("pillow_chi.gif")
        let image = try GIF.Decoder.decode(bytes)
        var iterator = GIF.FrameIterator(bytes)
        var frames: [ImageFrame] = []
        while let frame = try iterator.next() { frames.append(frame) }
        #expect(frames == image.frames)
        #expect(iterator.loopCount == image.loopCount)
    }
}
