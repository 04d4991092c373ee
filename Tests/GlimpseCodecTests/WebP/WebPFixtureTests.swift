import Testing
import TestSupport
@testable import GlimpseCodec

/// The fixtures of `Fixtures/webp` (see `generate.py` there) against libwebp's pixels, in
/// every chunking, through the decoder and the frame iterator.
@Suite struct WebPFixtureTests {
    typealias T = WebPTestSupport

    @Test func fixturesMatchLibwebpInEveryChunking() throws {
        #expect(T.expected.frames.count >= 14)
        for (name, expected) in T.expected.frames {
            let bytes = try T.fixture(name)
            for chunking in Chunking.standard {
                let image = try chunking.decode(WebP.Decoder.self, bytes).get()
                #expect(image.frames.map { T.crc($0) } == expected.map(\.crc), "\(name) \(chunking)")
                #expect(image.frames.map(\.duration) == expected.map { .milliseconds($0.duration) }, "\(name) \(chunking)")
            }
            var iterator = WebP.FrameIterator(bytes)
            // An animation's frames are counted from the chunk headers before any is decoded;
            // a still image is one frame once its header is read.
            if expected.count > 1 { #expect(iterator.frameCount == expected.count, "\(name): counted frames") }
            var streamed: [UInt32] = []
            while let frame = try iterator.next() { streamed.append(T.crc(frame)) }
            #expect(iterator.frameCount == expected.count, "\(name): frame count")
            #expect(streamed == expected.map(\.crc), "\(name) through FrameIterator")
        }
    }

    @Test func animationInfoAndLoopCount() throws {
        let bytes = try T.fixture("anim-blend.webp")
        var decoder = WebP.Decoder(options: DecodingOptions())
        _ = try decoder.append(bytes.prefix(40))
        let early = try #require(decoder.info)
        #expect(early.isAnimated && early.frameCount == nil && early.width == 8 && early.height == 6)
        #expect(try decoder.append(bytes.dropFirst(40)) == .complete)
        #expect(decoder.info?.frameCount == 6)
        let image = try decoder.finish()
        #expect(image.loopCount == 3 && image.frames.count == 6)
        var options = DecodingOptions()
        options.firstFrameOnly = true
        #expect(try WebP.Decoder.decode(bytes, options: options).frames.count == 1)
        // The whole file in one piece: its frames are counted from the chunk headers,
        // also when only the first is decoded.
        var first = WebP.Decoder(options: options)
        #expect(try first.append(bytes) == .complete)
        #expect(first.info?.frameCount == 6 && first.partialImage()?.frames.count == 1)
        // Fed byte by byte, the count is known only at the end.
        var bytewise = WebP.Decoder(options: DecodingOptions())
        for (index, byte) in bytes.enumerated() {
            _ = try bytewise.append([byte])
            if index < bytes.count - 1 && bytewise.info?.frameCount != nil {
                Issue.record("frame count known at byte \(index)")
                break
            }
        }
        #expect(bytewise.info?.frameCount == 6)
    }

    @Test func partialImagesHoldTheFinishedFrames() throws {
        let bytes = try T.fixture("anim-dispose.webp")
        var decoder = WebP.Decoder(options: DecodingOptions())
        var counts: [Int] = []
        for byte in bytes {
            _ = try decoder.append([byte])
            counts.append(decoder.partialImage()?.frames.count ?? 0)
        }
        #expect(counts.first == 0 && counts.last == 4 && counts == counts.sorted())
        #expect(throws: ImageDecodingError.truncated) {
            var cut = WebP.Decoder(options: DecodingOptions())
            _ = try cut.append(bytes.dropLast(1))
            // The last byte belongs to the last frame's chunk.
            #expect(cut.partialImage()?.frames.count == 3)
            _ = try cut.finish()
        }
    }

    /// Frames kept by the decoder count against the byte budget; the iterator keeps none.
    @Test func iteratorStreamsWhereTheDecoderRunsOutOfBudget() throws {
        let bytes = try T.fixture("anim-blend.webp")
        // The smallest budget the iterator streams the animation in: the canvas, a frame and the
        // lossless decoder's working memory. The decoder, keeping six canvases, needs more.
        var budget = 0
        for candidate in stride(from: 256, through: 1 << 16, by: 64) {
            var options = DecodingOptions()
            options.limits.maxTotalBytes = candidate
            if Self.streamedFrames(bytes, options) != nil { budget = candidate; break }
        }
        #expect(budget > 0)
        var options = DecodingOptions()
        options.limits.maxTotalBytes = budget
        #expect(throws: ImageDecodingError.limitExceeded(.totalBytes)) { _ = try WebP.Decoder.decode(bytes, options: options) }
        #expect(Self.streamedFrames(bytes, options) == 6)
    }

    /// How many frames the iterator yields, or `nil` when it throws.
    static func streamedFrames(_ bytes: [UInt8], _ options: DecodingOptions) -> Int? {
        var iterator = WebP.FrameIterator(bytes, options: options)
        var count = 0
        do throws(ImageDecodingError) {
            while try iterator.next() != nil { count += 1 }
            return count
        } catch { return nil }
    }
}
