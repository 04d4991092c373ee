import Foundation
import Testing
import TestSupport
@testable import GlimpseCodec

/// Animations the encoder writes: every composed frame checked against the source, by
/// Glimpse's decoder and by libwebp's animation decoder (through Pillow).
@Suite struct WebPAnimationEncoderTests {
    typealias T = WebPEncoderTestSupport

    /// One `ANMF` header (RFC 9649 §2.7.1.1) and the chunks inside the frame.
    struct FrameHeader: Equatable {
        var x, y, width, height, duration: Int
        var blends, disposes: Bool
        var chunks: [String]
    }

    static func frameHeaders(_ bytes: [UInt8]) -> [FrameHeader] {
        (WebPLosslessTestSupport.chunks(bytes) ?? []).filter { $0.fourCC == "ANMF" }.map { chunk in
            let p = Array(chunk.payload)
            func value(_ at: Int) -> Int { Int(p[at]) | Int(p[at + 1]) << 8 | Int(p[at + 2]) << 16 }
            let inner = WebPLosslessTestSupport.chunks(Array("RIFF\0\0\0\0WEBP".utf8) + p[16...])?.map(\.fourCC) ?? []
            return FrameHeader(x: value(0) * 2, y: value(3) * 2, width: value(6) + 1, height: value(9) + 1,
                               duration: value(12), blends: p[15] & 2 == 0, disposes: p[15] & 1 == 1, chunks: inner)
        }
    }

    /// A 6×6 square moving right over `background`, one frame per step.
    static func movingSquare(over background: PixelBuffer, steps: Int, color: [UInt8] = [250, 20, 40, 255]) -> [ImageFrame] {
        (0..<steps).map { step in
            var canvas = background
            for y in 4..<10 {
                for x in (step * 3)..<(step * 3 + 6) where x < canvas.width {
                    canvas.bytes.replaceSubrange((y * canvas.width + x) * 4..<(y * canvas.width + x) * 4 + 4, with: color)
                }
            }
            return ImageFrame(pixels: canvas, duration: .milliseconds(40 + 10 * step))
        }
    }

    static func meanError(_ a: [UInt8], _ b: [UInt8]) -> Double {
        Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(max(a.count, 1))
    }

    /// Encodes, then expects Glimpse and libwebp to compose the same frames with the source's
    /// durations and loop count; returns the file and Glimpse's frames.
    static func encodeAndCompare(_ frames: [ImageFrame], options: WebP.Encoder.Options,
                                 sourceLocation: SourceLocation = #_sourceLocation) throws -> ([UInt8], [ImageFrame]) {
        let bytes = try WebP.Encoder(options: options).encode(Image(frames: frames, loopCount: 0, format: .gif))
        let ours = try WebP.Decoder.decode(bytes)
        #expect(ours.frames.count == frames.count, sourceLocation: sourceLocation)
        #expect(ours.loopCount == 0, sourceLocation: sourceLocation)
        #expect(ours.frames.map(\.duration) == frames.map { .milliseconds(WebP.Encoder.milliseconds($0.duration)) },
                sourceLocation: sourceLocation)
        if PillowAnimationReader.isAvailable {
            let theirs = try #require(try PillowAnimationReader.read(bytes), "libwebp refuses the file", sourceLocation: sourceLocation)
            #expect(theirs.frames == ours.frames.map(\.pixels.bytes), "libwebp composes other frames", sourceLocation: sourceLocation)
            #expect(theirs.durations == frames.map { WebP.Encoder.milliseconds($0.duration) }, sourceLocation: sourceLocation)
        }
        return (bytes, ours.frames)
    }

    @Test("lossless: every composed frame is the source canvas; frames are sub-rectangles, blended where smaller")
    func losslessExact() throws {
        let opaque = Self.movingSquare(over: T.photoLike(width: 48, height: 32, seed: 2), steps: 8)
        let (bytes, decoded) = try Self.encodeAndCompare(opaque, options: .init(lossless: true, effort: 3))
        #expect(decoded.map(\.pixels) == opaque.map(\.pixels))
        let headers = Self.frameHeaders(bytes)
        #expect(headers.count == 8)
        #expect(headers.allSatisfy { $0.chunks == ["VP8L"] })
        #expect(headers.dropFirst().allSatisfy { $0.width * $0.height < 48 * 32 / 4 })

        // Two pixels change in opposite corners: the rectangle is the canvas, nearly all of it
        // unchanged, so blending (the unchanged pixels transparent) is far smaller.
        let corners = (0..<4).map { step in
            var canvas = T.photoLike(width: 48, height: 32, seed: 2)
            for offset in [step * 4, (31 * 48 + 47 - step) * 4] {
                canvas.bytes.replaceSubrange(offset..<offset + 4, with: [255, 255, 255, 255])
            }
            return ImageFrame(pixels: canvas, duration: .milliseconds(20))
        }
        let (cornerBytes, cornerFrames) = try Self.encodeAndCompare(corners, options: .init(lossless: true, effort: 3))
        #expect(cornerFrames.map(\.pixels) == corners.map(\.pixels))
        #expect(Self.frameHeaders(cornerBytes).dropFirst().allSatisfy { $0.blends })

        // A translucent sprite over transparency: blending it is not exact, so it is replaced or disposed of.
        let sprite = Self.movingSquare(over: PixelBuffer(width: 40, height: 16), steps: 6, color: [10, 200, 90, 128])
        let (spriteBytes, spriteDecoded) = try Self.encodeAndCompare(sprite, options: .init(lossless: true, effort: 3))
        #expect(spriteDecoded.map(\.pixels) == sprite.map(\.pixels))
        #expect(WebPLosslessTestSupport.chunks(spriteBytes)?.first?.payload.first.map { $0 & 0x10 != 0 } == true,
                "VP8X says the animation has alpha")
    }

    @Test("lossy: VP8 frames (ALPH for transparency) that libwebp composes as Glimpse does, close to the source")
    func lossyFrames() throws {
        let opaque = Self.movingSquare(over: T.photoLike(width: 48, height: 32, seed: 3), steps: 6)
        let (bytes, decoded) = try Self.encodeAndCompare(opaque, options: .init(quality: 80))
        let headers = Self.frameHeaders(bytes)
        #expect(headers.allSatisfy { $0.chunks == ["VP8 "] })
        for (frame, source) in zip(decoded, opaque) {
            #expect(Self.meanError(frame.pixels.bytes, source.pixels.bytes) < 3)
        }

        let sprite = Self.movingSquare(over: T.photoLike(width: 40, height: 16, seed: 5, alpha: true), steps: 5)
        let (spriteBytes, spriteDecoded) = try Self.encodeAndCompare(sprite, options: .init(quality: 80))
        #expect(Self.frameHeaders(spriteBytes).first?.chunks == ["ALPH", "VP8 "])
        for (frame, source) in zip(spriteDecoded, sprite) {
            let alphas = stride(from: 3, to: source.pixels.bytes.count, by: 4)
            #expect(alphas.allSatisfy { frame.pixels.bytes[$0] == source.pixels.bytes[$0] }, "ALPH is exact")
        }
    }

    @Test("lossy: a slow fade is followed, not left to drift below the tolerance")
    func lossyFadeDoesNotDrift() throws {
        let base = T.photoLike(width: 32, height: 16, seed: 7)
        let frames = (0..<16).map { step in
            var canvas = base
            for index in canvas.bytes.indices where index % 4 != 3 { canvas.bytes[index] = canvas.bytes[index] &+ UInt8(step) }
            return ImageFrame(pixels: canvas, duration: .milliseconds(30))
        }
        let (_, decoded) = try Self.encodeAndCompare(frames, options: .init(quality: 75))
        for (frame, source) in zip(decoded, frames) {
            #expect(Self.meanError(frame.pixels.bytes, source.pixels.bytes) < 5)
        }
    }

    @Test("key frames: tried from the interval's lower bound, forced at its upper; none when it is 0")
    func keyFrames() throws {
        let frames = Self.movingSquare(over: T.photoLike(width: 40, height: 16, seed: 9), steps: 11)
        func keyFrameIndices(_ interval: ClosedRange<Int>) throws -> [Int] {
            let options = WebP.Encoder.Options(lossless: true, effort: 1, keyframeInterval: interval)
            let (bytes, decoded) = try Self.encodeAndCompare(frames, options: options)
            #expect(decoded.map(\.pixels) == frames.map(\.pixels))
            return Self.frameHeaders(bytes).enumerated().compactMap { index, header in
                header.width == 40 && header.height == 16 && !header.blends ? index : nil
            }
        }
        let spaced = try keyFrameIndices(2...3)
        #expect(spaced.first == 0)
        #expect(zip(spaced, spaced.dropFirst()).allSatisfy { $1 - $0 <= 3 })
        #expect(spaced.last.map { frames.count - 1 - $0 < 3 } == true)
        #expect(try keyFrameIndices(0...0) == [0])
        #expect(try keyFrameIndices(1...1) == Array(0..<11))
        #expect(throws: WebP.Encoder.EncodingError.self) {
            try WebP.Encoder(options: .init(keyframeInterval: -1...2)).encode(Image(frames: frames, format: .gif))
        }
    }

    @Test("identical frames are all kept, with their durations; durations round to the millisecond")
    func durations() throws {
        let pixels = T.photoLike(width: 9, height: 5)
        let frames = [ImageFrame(pixels: pixels, duration: .milliseconds(10)),
                      ImageFrame(pixels: pixels, duration: .zero),
                      ImageFrame(pixels: pixels, duration: .milliseconds(2500))]
        let (bytes, decoded) = try Self.encodeAndCompare(frames, options: .init(lossless: true))
        #expect(decoded.map(\.pixels) == frames.map(\.pixels))
        #expect(Self.frameHeaders(bytes).map(\.duration) == [10, 0, 2500])
        #expect(WebP.Encoder.milliseconds(Duration(secondsComponent: 0, attosecondsComponent: 333_500_000_000_000_000)) == 334)
        #expect(WebP.Encoder.milliseconds(.seconds(1) / 3) == 333)
        #expect(WebP.Encoder.milliseconds(.milliseconds(-5)) == 0)
        #expect(WebP.Encoder.milliseconds(.seconds(100_000)) == 0xff_ffff)
    }

    /// The corpus's animated GIFs small enough for a debug build's seconds (at most 20 000
    /// pixels in all their frames; `Benchmarks.md` has all of them through a release build).
    static var corpusAnimations: [(name: String, image: Image)] {
        guard let corpus = Fixtures.corpus("gif") else { return [] }
        return Fixtures.files(in: corpus, extensions: [".gif"]).compactMap { url in
            guard let bytes = try? Fixtures.bytes(at: url), bytes.count < 40_000,
                  let image = try? GIF.Decoder.decode(bytes), image.frames.count > 1,
                  image.width * image.height * image.frames.count <= 20_000 else { return nil }
            return (url.lastPathComponent, image)
        }
    }

    @Test("GIF → WebP keeps every frame and its timing: lossless exactly, lossy as libwebp composes it",
          .enabled(if: Fixtures.corpus("gif") != nil))
    func gifCorpus() throws {
        let animations = Self.corpusAnimations
        #expect(animations.count >= 15)
        for (name, image) in animations {
            let lossless = try WebP.Encoder(options: .init(lossless: true, effort: 2)).encode(image)
            let ours = try WebP.Decoder.decode(lossless)
            #expect(ours.frames.map(\.pixels) == image.frames.map { $0.pixels.converted(to: .rgba8) }, "\(name)")
            #expect(ours.frames.map(\.duration) == image.frames.map { .milliseconds(WebP.Encoder.milliseconds($0.duration)) },
                    "\(name)")
            #expect(ours.loopCount == image.loopCount, "\(name)")
            if PillowAnimationReader.isAvailable {
                let theirs = try PillowAnimationReader.read(lossless)
                #expect(theirs?.frames == ours.frames.map { $0.pixels.bytes }, "\(name): libwebp composes other frames")
            }
            guard image.width * image.height * image.frames.count <= 5_000 else { continue }
            let lossy = try WebP.Encoder(options: .init(method: 0, quality: 70)).encode(image)
            let lossyOurs = try WebP.Decoder.decode(lossy)
            #expect(lossyOurs.frames.count == image.frames.count, "\(name)")
            if PillowAnimationReader.isAvailable {
                let theirs = try PillowAnimationReader.read(lossy)
                #expect(theirs?.frames == lossyOurs.frames.map { $0.pixels.bytes }, "\(name): libwebp composes other lossy frames")
            }
        }
    }
}
