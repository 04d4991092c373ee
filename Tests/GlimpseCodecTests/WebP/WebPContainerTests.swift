import Foundation
import Testing
import TestSupport
@testable import GlimpseCodec

/// The RIFF container (RFC 9649 §2) as libwebp reads it: what is rejected, what is
/// skipped, and that no cut or damaged file crashes.
@Suite struct WebPContainerTests {
    typealias T = WebPTestSupport

    static func decode(_ bytes: [UInt8], options: DecodingOptions = DecodingOptions()) -> Result<Image, ImageDecodingError> {
        Result { () throws(ImageDecodingError) in try WebP.Decoder.decode(bytes, options: options) }
    }

    /// Expects `bytes` to fail with exactly `defect`.
    static func expect(_ bytes: [UInt8], fails defect: WebP.ContainerDefect, sourceLocation: SourceLocation = #_sourceLocation) {
        switch decode(bytes) {
        case .success: Issue.record("decoded, expected \(defect)", sourceLocation: sourceLocation)
        case .failure(let error): #expect(error == WebP.malformed(defect), sourceLocation: sourceLocation)
        }
    }

    @Test func fileHeaderIsChecked() throws {
        let vp8l = try T.losslessPayload()
        var notWebP = T.riff([T.chunk("VP8L", vp8l)])
        notWebP.replaceSubrange(8..<12, with: Array("WEBQ".utf8))
        Self.expect(notWebP, fails: .signature)
        var notRIFF = T.riff([T.chunk("VP8L", vp8l)])
        notRIFF[3] = 0x58
        Self.expect(notRIFF, fails: .signature)
        Self.expect(T.riff([T.chunk("VP8L", vp8l)], declared: 11), fails: .riffSize(11))
        Self.expect(T.riff([T.chunk("VP8L", vp8l)], declared: 0xFFFF_FFFF), fails: .riffSize(0xFFFF_FFFF))
        Self.expect(T.riff([T.chunk("ICCP", [1, 2]), T.chunk("VP8L", vp8l)]), fails: .firstChunk(tag: "ICCP"))
    }

    @Test func chunkSizesAreCheckedAgainstTheRIFFSize() throws {
        let vp8l = try T.losslessPayload()
        // A simple file's image chunk may not run past the RIFF size.
        Self.expect(T.riff([T.chunk("VP8L", vp8l, declared: vp8l.count + 2) + [0, 0]], declared: 12 + vp8l.count + 1),
                    fails: .chunkPastRIFFEnd(tag: "VP8L"))
        // Before the image of an extended file, every chunk counts with its padding.
        let extended = T.riff([T.vp8x(flags: 0x10, width: 9, height: 7), T.chunk("abcd", [1, 2, 3]), T.chunk("VP8L", vp8l)])
        var cut = extended
        let declared = extended.count - 8 - T.chunk("VP8L", vp8l).count - 1  // the riff ends inside abcd's padding
        cut.replaceSubrange(4..<8, with: T.le(declared, 4))
        Self.expect(cut, fails: .chunkPastRIFFEnd(tag: "abcd"))
        // A chunk larger than libwebp's largest payload.
        Self.expect(T.riff([T.vp8x(flags: 0, width: 9, height: 7), T.chunk("abcd", [], declared: 0xFFFF_FFF7)]),
                    fails: .chunkSize(tag: "abcd", size: 0xFFFF_FFF7))
    }

    @Test func extendedHeaderIsChecked() throws {
        let vp8l = try T.losslessPayload()
        Self.expect(T.riff([T.chunk("VP8X", [0, 0, 0, 0, 8, 0, 0, 6, 0]), T.chunk("VP8L", vp8l)]), fails: .extendedHeaderSize(9))
        Self.expect(T.riff([T.chunk("VP8X", [0, 0, 0, 0, 8, 0, 0, 6, 0, 0, 0, 0]), T.chunk("VP8L", vp8l)]), fails: .extendedHeaderSize(12))
        Self.expect(T.riff([T.vp8x(flags: 0, width: 1 << 24, height: 1 << 24), T.chunk("VP8L", vp8l)]),
                    fails: .areaTooLarge(width: 1 << 24, height: 1 << 24))
        Self.expect(T.riff([T.vp8x(flags: 0, width: 10, height: 7), T.chunk("VP8L", vp8l)]),
                    fails: .sizeMismatch(canvasWidth: 10, canvasHeight: 7, width: 9, height: 7))
        Self.expect(T.riff([T.vp8x(flags: 0, width: 9, height: 7), T.chunk("ALPH", [0, 1])]), fails: .missingImage)
    }

    @Test func bitstreamHeadersAreCheckedAsLibwebpDoes() throws {
        var vp8l = try T.losslessPayload()
        vp8l[0] = 0x2E
        Self.expect(T.riff([T.chunk("VP8L", vp8l)]), fails: .losslessHeader)
        vp8l = try T.losslessPayload()
        vp8l[4] |= 0x20  // version 1
        Self.expect(T.riff([T.chunk("VP8L", vp8l)]), fails: .losslessHeader)
        let vp8 = try T.lossyPayload()
        var bad = vp8
        bad[4] = 0
        Self.expect(T.riff([T.chunk("VP8 ", bad)]), fails: .lossyHeader(.startCode))
        bad = vp8
        bad[0] |= 1  // interframe
        Self.expect(T.riff([T.chunk("VP8 ", bad)]), fails: .lossyHeader(.notDisplayableKeyFrame))
        bad = vp8
        bad[0] &= ~0x10  // not shown
        Self.expect(T.riff([T.chunk("VP8 ", bad)]), fails: .lossyHeader(.notDisplayableKeyFrame))
        bad = vp8
        bad[6] = 0; bad[7] = 0xC0  // width 0 (the scale bits are not part of it)
        Self.expect(T.riff([T.chunk("VP8 ", bad)]), fails: .lossyHeader(.zeroSize))
        bad = vp8
        bad[2] = 0xFF  // first partition longer than the chunk
        Self.expect(T.riff([T.chunk("VP8 ", bad)]), fails: .lossyHeader(.partitionSize))
        Self.expect(T.riff([T.chunk("VP8 ", Array(vp8.prefix(9)))]), fails: .lossyHeader(.tooShort))
    }

    @Test func animationStructureIsCheckedAsTheDemuxerDoes() throws {
        let vp8l = try T.losslessPayload()
        let frame = T.anmf(width: 9, height: 7, [T.chunk("VP8L", vp8l)])
        let header = T.vp8x(flags: 0x12, width: 9, height: 7)
        Self.expect(T.riff([header, frame]), fails: .frameBeforeAnimationHeader)
        Self.expect(T.riff([header, T.chunk("ANIM", [0, 0, 0, 0]), frame]), fails: .animationHeaderSize(4))
        Self.expect(T.riff([header, T.anim(), T.chunk("ANMF", [UInt8](repeating: 0, count: 14))]), fails: .frameHeaderSize(14))
        Self.expect(T.riff([header, T.anim(), T.chunk("VP8L", vp8l)]), fails: .imageOutsideFrame(tag: "VP8L"))
        Self.expect(T.riff([header, T.anim(), header]), fails: .secondExtendedHeader)
        Self.expect(T.riff([T.vp8x(flags: 0x13, width: 9, height: 7), T.anim(), frame]), fails: .reservedFlags(0x13))
        Self.expect(T.riff([header, T.anim()]), fails: .noFrames)
        Self.expect(T.riff([header, T.anim(), T.anmf(x: 2, width: 9, height: 7, [T.chunk("VP8L", vp8l)])]),
                    fails: .frameOutsideCanvas(x: 2, y: 0, width: 9, height: 7))
        Self.expect(T.riff([header, T.anim(), T.anmf(width: 9, height: 7, [T.chunk("ALPH", [0, 0]), T.chunk("VP8L", vp8l)])]),
                    fails: .alphaBeforeLossless)
        Self.expect(T.riff([header, T.anim(), T.anmf(width: 9, height: 7, [T.chunk("ALPH", [0, 0])]), T.anim()]),
                    fails: .frameWithoutImage)
        // A frame's chunks may not reach past its ANMF chunk.
        var short = T.anmf(width: 9, height: 7, [])
        short += T.chunk("VP8L", vp8l)
        Self.expect(T.riff([header, T.anim(), short]), fails: .framePastChunkEnd)
        // Fewer than 8 bytes left in the RIFF where a chunk header should be (after a decoded frame).
        Self.expect(T.riff([header, T.anim(), frame, [1, 2, 3, 4]]), fails: .chunkHeaderCut)
    }

    @Test func limitsAreCheckedBeforeAllocating() throws {
        let vp8l = try T.losslessPayload()
        let big = T.riff([T.vp8x(flags: 0, width: 20_000, height: 20_000), T.chunk("VP8L", vp8l)])
        var options = DecodingOptions()
        options.limits.maxPixelsPerFrame = 1 << 20
        var decoder = WebP.Decoder(options: options)
        #expect(throws: ImageDecodingError.limitExceeded(.pixelsPerFrame)) { _ = try decoder.append(big) }
        #expect(decoder.info == nil)
        options = DecodingOptions()
        options.limits.maxTotalBytes = 9 * 7 * 4 - 1
        #expect(throws: ImageDecodingError.limitExceeded(.totalBytes)) {
            _ = try WebP.Decoder.decode(T.riff([T.chunk("VP8L", vp8l)]), options: options)
        }
        options.limits = DecodingLimits(maxFrames: 1)
        let two = T.riff([T.vp8x(flags: 0x12, width: 9, height: 7), T.anim(), T.anmf(width: 9, height: 7, [T.chunk("VP8L", vp8l)]),
                          T.anmf(width: 9, height: 7, [T.chunk("VP8L", vp8l)])])
        let result = Self.decode(two, options: options)
        #expect(throws: ImageDecodingError.limitExceeded(.frames)) { try result.get() }
    }

    @Test func infoComesFromTheHeadersBeforeThePixels() throws {
        let vp8l = try T.losslessPayload()
        var decoder = WebP.Decoder(options: DecodingOptions())
        let file = T.riff([T.chunk("VP8L", vp8l)])
        _ = try decoder.append(file.prefix(12 + 8 + 4))
        #expect(decoder.info == nil)
        _ = try decoder.append(file[24..<25])
        let info = try #require(decoder.info)
        #expect(info.width == 9 && info.height == 7 && info.hasAlpha && !info.isAnimated && info.frameCount == 1)
        #expect(decoder.partialImage() == nil)

        var animated = WebP.Decoder(options: DecodingOptions())
        _ = try animated.append(T.riff([T.vp8x(flags: 0x12, width: 300, height: 200), T.anim(loops: 3)]).prefix(30))
        let animatedInfo = try #require(animated.info)
        #expect(animatedInfo.width == 300 && animatedInfo.height == 200 && animatedInfo.isAnimated && animatedInfo.hasAlpha)
        #expect(animatedInfo.frameCount == nil)
    }

    /// Every prefix of every fixture is refused as truncated (never a crash, never a picture).
    @Test func everyCutIsTruncated() throws {
        for name in ["lossless-alpha.webp", "lossy.webp", "metadata.webp", "anim-blend.webp", "alph-filter-3-pre-1.webp"] {
            let file = try T.fixture(name)
            for length in 0..<file.count {
                switch Self.decode(Array(file.prefix(length))) {
                case .success: Issue.record("\(name) cut at \(length) decoded")
                case .failure(.truncated): break
                case .failure(let error): Issue.record("\(name) cut at \(length): \(error)")
                }
            }
        }
    }

    /// Damaged bytes anywhere in the small fixtures: errors or images, never a crash.
    @Test func damagedFilesNeverCrash() throws {
        var state: UInt64 = 0x5EED
        for name in ["lossless-alpha.webp", "lossy.webp", "metadata.webp", "anim-blend.webp", "anim-dispose.webp",
                     "alph-filter-2-pre-0.webp", "lossy-alpha-compressed.webp"] {
            let file = try T.fixture(name)
            for _ in 0..<200 {
                var damaged = file
                for _ in 0..<3 {
                    state = state &* 6364136223846793005 &+ 1442695040888963407
                    damaged[Int(state >> 33) % damaged.count] = UInt8(truncatingIfNeeded: state >> 17)
                }
                _ = Self.decode(damaged)
            }
        }
    }

    @Test func unknownChunksOddSizesAndTrailingBytesAreTolerated() throws {
        let vp8l = try T.losslessPayload()
        let reference = try WebP.Decoder.decode(T.riff([T.chunk("VP8L", vp8l)]))
        // Unknown chunks of odd size on both sides; bytes after the RIFF payload.
        let wrapped = T.riff([T.vp8x(flags: 0, width: 9, height: 7), T.chunk("abcd", [1, 2, 3]), T.chunk("VP8L", vp8l),
                              T.chunk("XYZW", [9])]) + [0xDE, 0xAD]
        #expect(try WebP.Decoder.decode(wrapped).pixels == reference.pixels)
        // An odd last payload whose padding byte the RIFF size leaves out (and the file lacks).
        if vp8l.count % 2 == 1 {
            let unpadded = T.riff([T.chunk("VP8L", vp8l, pad: false)])
            #expect(try WebP.Decoder.decode(unpadded).pixels == reference.pixels)
        }
        // Chunks after the image of a still file are not checked, beyond the RIFF size.
        let junkAfter = T.riff([T.vp8x(flags: 0, width: 9, height: 7), T.chunk("VP8L", vp8l), T.chunk("VP8X", [1])])
        #expect(try WebP.Decoder.decode(junkAfter).pixels == reference.pixels)
        // An ANMF with no image chunk is dropped, as the demuxer drops it.
        let animation = T.riff([T.vp8x(flags: 0x12, width: 9, height: 7), T.anim(loops: 2), T.anmf(width: 9, height: 7, []),
                                T.anmf(width: 9, height: 7, duration: 70, [T.chunk("VP8L", vp8l), T.chunk("ICCP", [1])])])
        let image = try WebP.Decoder.decode(animation)
        #expect(image.frames.count == 1 && image.loopCount == 2 && image.frames[0].duration == .milliseconds(70))
    }

    @Test func metadataIsRead() throws {
        let image = try WebP.Decoder.decode(try T.fixture("metadata.webp"))
        #expect(image.metadata.orientation == .right)
        #expect(image.metadata.iccProfile == (0..<131).map { UInt8($0) })
        // Without the VP8X flags the chunks are not taken (as libwebp's demuxer ignores them).
        var unflagged = try T.fixture("metadata.webp")
        unflagged[20] = 0x10
        let plain = try WebP.Decoder.decode(unflagged)
        #expect(plain.metadata.orientation == .up && plain.metadata.iccProfile == nil)
    }
}
