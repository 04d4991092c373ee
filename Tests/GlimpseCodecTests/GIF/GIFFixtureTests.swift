import Foundation
import Testing
import TestSupport
@testable import GlimpseCodec

/// The self-made fixtures of `Fixtures/gif` (see `generate.py` there), checked
/// against the generator's own reference compositor.
@Suite struct GIFFixtureTests {
    struct Expected {
        var crc: UInt32
        var delayMilliseconds: Int
        var isComplete: Bool
    }

    static let expected: [String: [Expected]] = {
        guard let text = try? String(contentsOf: Fixtures.url("gif/expected.tsv"), encoding: .utf8) else { return [:] }
        var result: [String: [Expected]] = [:]
        for line in text.split(separator: "\n") {
            let f = line.split(separator: "\t").map(String.init)
            guard f.count == 5 else { continue }
            result[f[0], default: []].append(Expected(crc: UInt32(f[2], radix: 16) ?? 0,
                                                      delayMilliseconds: Int(f[3]) ?? -1, isComplete: f[4] == "1"))
        }
        return result
    }()

    static let loops: [String: Int] = {
        guard let text = try? String(contentsOf: Fixtures.url("gif/loops.tsv"), encoding: .utf8) else { return [:] }
        var result: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let f = line.split(separator: "\t").map(String.init)
            if f.count == 2 { result[f[0]] = Int(f[1]) }
        }
        return result
    }()

    static let names = expected.keys.sorted()

    @Test func fixturesArePresent() {
        #expect(Self.names.count >= 15)
    }

    @Test(arguments: names)
    func framesMatchTheReferenceCompositor(_ name: String) throws {
        let bytes = try Fixtures.bytes("gif/\(name)")
        let expected = try #require(Self.expected[name])
        let image = try GIF.Decoder.decode(bytes)
        #expect(image.frames.count == expected.count)
        #expect(GIFTestHelpers.checksums(image) == expected.map(\.crc))
        #expect(image.frames.map { $0.duration } == expected.map { .milliseconds($0.delayMilliseconds) })
        #expect(image.frames.map(\.isComplete) == expected.map(\.isComplete))
        #expect(image.loopCount == Self.loops[name])
    }

    @Test(arguments: names.filter { $0 != "many-frames.gif" && $0 != "lzw-full-table.gif" })
    func anyChunkingGivesTheSameImage(_ name: String) throws {
        let bytes = try Fixtures.bytes("gif/\(name)")
        let reference = try GIF.Decoder.decode(bytes)
        for chunking in Chunking.standard {
            let image = try chunking.decode(GIF.Decoder.self, bytes).get()
            #expect(image == reference, "\(name) fed \(chunking)")
        }
    }

    @Test func largeFixturesUnderRandomChunking() throws {
        for name in ["many-frames.gif", "lzw-full-table.gif"] {
            let bytes = try Fixtures.bytes("gif/\(name)")
            let reference = try GIF.Decoder.decode(bytes)
            for chunking in [Chunking.fixed(3), .random(seed: 7, maximum: 300)] {
                #expect(try chunking.decode(GIF.Decoder.self, bytes).get() == reference, "\(name) fed \(chunking)")
            }
        }
    }

    @Test func truncatedFileThrowsAndKeepsItsPartialImage() throws {
        let bytes = try Fixtures.bytes("gif/truncated.gif")
        let whole = try #require(Self.expected["disposal.gif"])
        var decoder = GIF.Decoder(options: DecodingOptions())
        #expect(try decoder.append(bytes) == .needMoreData)
        let partial = try #require(decoder.partialImage())
        #expect(partial.frames.count > 1)
        #expect(partial.frames.last?.isComplete == false)
        let done = partial.frames.dropLast()
        #expect(done.map { GIFTestHelpers.crc32(GIFTestHelpers.normalised($0.pixels)) } == whole.prefix(done.count).map(\.crc))
        // Lenient (the default): the finished frames and the cut one, as partialImage() showed them.
        var copy = decoder
        let recovered = try copy.finish()
        #expect(recovered.frames == partial.frames)
        #expect(recovered.warnings == [DecodingWarning(.gif(.truncatedFrame(frame: partial.frames.count - 1)))])
        #expect(try GIF.Decoder.decode(bytes) == recovered)
        // Strict: truncated, and errors are permanent.
        let strict = DecodingOptions(mode: .strict)
        var strictDecoder = GIF.Decoder(options: strict)
        _ = try strictDecoder.append(bytes)
        #expect(throws: ImageDecodingError.truncated) { try strictDecoder.finish() }
        #expect(throws: ImageDecodingError.truncated) { try strictDecoder.finish() }
        #expect(throws: ImageDecodingError.truncated) { try GIF.Decoder.decode(bytes, options: strict) }
    }

    @Test func inputEndingBetweenFramesWithoutTrailerWarns() throws {
        let bytes = try Fixtures.bytes("gif/no-trailer.gif")
        let image = try GIF.Decoder.decode(bytes)
        #expect(GIFTestHelpers.checksums(image) == Self.expected["transparency.gif"]?.map(\.crc))
        #expect(image.warnings == [DecodingWarning(.gif(.missingTrailer))])
        #expect(throws: ImageDecodingError.truncated) { try GIF.Decoder.decode(bytes, options: DecodingOptions(mode: .strict)) }
    }

    @Test func inputCutInsideATrailingExtensionKeepsItsFrames() throws {
        var bytes = Array(try Fixtures.bytes("gif/no-trailer.gif"))
        bytes += [0x21, 0xFE, 0x10, 0x41, 0x42]  // a comment cut short
        let image = try GIF.Decoder.decode(bytes)
        #expect(GIFTestHelpers.checksums(image) == Self.expected["transparency.gif"]?.map(\.crc))
        #expect(image.warnings == [DecodingWarning(.gif(.missingTrailer))])
        // Cut inside the next image descriptor instead: the frames before it stay.
        let frames = image.frames.count
        let cut = Array(try Fixtures.bytes("gif/no-trailer.gif")) + [0x2C, 0x00, 0x00]
        let recovered = try GIF.Decoder.decode(cut)
        #expect(recovered.frames == image.frames)
        #expect(recovered.warnings == [DecodingWarning(.gif(.truncatedFrame(frame: frames)))])
        #expect(throws: ImageDecodingError.truncated) { try GIF.Decoder.decode(cut, options: DecodingOptions(mode: .strict)) }
    }

    @Test func junkAfterTheLastFrameEndsTheFile() throws {
        let image = try GIF.Decoder.decode(try Fixtures.bytes("gif/junk-after-frames.gif"))
        #expect(GIFTestHelpers.checksums(image) == Self.expected["transparency.gif"]?.map(\.crc))
    }

    @Test func unknownBlockBeforeAnyFrameIsAnError() throws {
        var bytes = Array(try Fixtures.bytes("gif/loop-none.gif").prefix(13 + 12))
        bytes += [0x99, 0x3B]
        #expect(throws: ImageDecodingError.malformed(.gif(.unknownBlock(0x99)))) { try GIF.Decoder.decode(bytes) }
    }

    @Test func infoArrivesWithTheLogicalScreenBeforeAnyPixel() throws {
        let bytes = try Fixtures.bytes("gif/disposal.gif")
        var decoder = GIF.Decoder(options: DecodingOptions())
        _ = try decoder.append(bytes.prefix(12))
        #expect(decoder.info == nil)
        _ = try decoder.append(bytes[12..<13])
        let info = try #require(decoder.info)
        #expect(info.width == 10 && info.height == 8 && info.format == .gif)
        #expect(decoder.partialImage() == nil)
    }

    @Test func rowsArriveBeforeTheFrameIsComplete() throws {
        let bytes = try Fixtures.bytes("gif/lzw-full-table.gif")
        let reference = try GIF.Decoder.decode(bytes)
        var decoder = GIF.Decoder(options: DecodingOptions())
        _ = try decoder.append(bytes.prefix(bytes.count / 2))
        let partial = try #require(decoder.partialImage()?.frames.first)
        #expect(!partial.isComplete)
        let full = reference.frames[0].pixels
        // The first rows are already final, the last are still transparent.
        #expect(partial.pixels.row(0) == full.row(0))
        #expect(partial.pixels.row(full.height - 1).allSatisfy { $0 == 0 })
    }

    @Test func firstFrameOnlyStopsAfterOneFrame() throws {
        let bytes = try Fixtures.bytes("gif/many-frames.gif")
        let options = DecodingOptions(firstFrameOnly: true)
        var decoder = GIF.Decoder(options: options)
        #expect(try decoder.append(bytes) == .complete)
        let image = try decoder.finish()
        #expect(image.frames.count == 1)
        #expect(GIFTestHelpers.checksums(image).first == Self.expected["many-frames.gif"]?.first?.crc)
        var iterator = GIF.FrameIterator(bytes, options: options)
        #expect(try iterator.next() != nil)
        #expect(try iterator.next() == nil)
    }

    @Test func iteratorStreamsInTheMemoryOfOneFrame() throws {
        let bytes = try Fixtures.bytes("gif/many-frames.gif")
        let expected = try #require(Self.expected["many-frames.gif"])
        // Room for a few canvases, far less than 300 frames.
        let options = DecodingOptions(limits: DecodingLimits(maxTotalBytes: 16 * 16 * 4 * 4))
        #expect(throws: ImageDecodingError.limitExceeded(.totalBytes)) { try GIF.Decoder.decode(bytes, options: options) }
        var incremental = GIF.Decoder(options: options)
        #expect(throws: ImageDecodingError.limitExceeded(.totalBytes)) { _ = try incremental.append(bytes) }

        var iterator = GIF.FrameIterator(bytes, options: options)
        var checksums: [UInt32] = []
        while let frame = try iterator.next() {
            checksums.append(GIFTestHelpers.crc32(GIFTestHelpers.normalised(frame.pixels)))
        }
        #expect(checksums == expected.map(\.crc))
        #expect(iterator.loopCount == 0)
        #expect(try iterator.next() == nil)
    }

    @Test func pushedBytesYieldFramesAsTheyComplete() throws {
        let bytes = try Fixtures.bytes("gif/many-frames.gif")
        let expected = try #require(Self.expected["many-frames.gif"]).map(\.crc)
        for chunk in [1, 7, 500] {
            var stream = GIF.FrameIterator(options: DecodingOptions())
            var checksums: [UInt32] = []
            var offset = 0
            while offset < bytes.count {
                stream.append(bytes[offset..<min(offset + chunk, bytes.count)])
                offset += chunk
                while let frame = try stream.next() {
                    checksums.append(GIFTestHelpers.crc32(GIFTestHelpers.normalised(frame.pixels)))
                }
                // Frames come out as soon as their data is complete, not at the end.
                if offset >= bytes.count / 2 { #expect(!checksums.isEmpty) }
            }
            stream.endOfInput()
            #expect(try stream.next() == nil)
            #expect(stream.isFinished)
            #expect(checksums == expected, "chunks of \(chunk)")
        }
    }

    @Test func pushedInputCutInsideAFrame() throws {
        let bytes = try Fixtures.bytes("gif/truncated.gif")
        // Strict: truncated.
        var stream = GIF.FrameIterator(options: DecodingOptions(mode: .strict))
        stream.append(bytes)
        var count = 0
        while try stream.next() != nil { count += 1 }
        #expect(count > 0)
        #expect(!stream.isFinished)
        stream.endOfInput()
        #expect(throws: ImageDecodingError.truncated) { try stream.next() }
        // Lenient: the cut frame comes last, as the decoder gives it.
        var lenient = GIF.FrameIterator(bytes)
        var frames: [ImageFrame] = []
        while let frame = try lenient.next() { frames.append(frame) }
        #expect(lenient.isFinished)
        #expect(frames == (try GIF.Decoder.decode(bytes)).frames)
        #expect(lenient.warnings == [DecodingWarning(.gif(.truncatedFrame(frame: count)))])
    }

    @Test func frameLimitIsEnforced() throws {
        let bytes = try Fixtures.bytes("gif/many-frames.gif")
        let options = DecodingOptions(limits: DecodingLimits(maxFrames: 10))
        #expect(throws: ImageDecodingError.limitExceeded(.frames)) { try GIF.Decoder.decode(bytes, options: options) }
        var iterator = GIF.FrameIterator(bytes, options: options)
        var count = 0
        #expect(throws: ImageDecodingError.limitExceeded(.frames)) {
            while try iterator.next() != nil { count += 1 }
        }
        #expect(count == 10)
    }

    @Test func canvasLimitIsCheckedFromTheHeader() throws {
        let bytes = try Fixtures.bytes("gif/lzw-full-table.gif")
        var decoder = GIF.Decoder(options: DecodingOptions(limits: DecodingLimits(maxWidth: 64)))
        #expect(throws: ImageDecodingError.limitExceeded(.width)) { _ = try decoder.append(bytes.prefix(13)) }
        #expect(decoder.partialImage() == nil)
    }

    @Test func registryPicksTheGIFDecoder() throws {
        let bytes = try Fixtures.bytes("gif/transparency.gif")
        let image = try DecoderRegistry.standard.decode(bytes)
        #expect(image.format == .gif)
        #expect(GIFTestHelpers.checksums(image) == Self.expected["transparency.gif"]?.map(\.crc))
    }

    @Test func displayDelayFollowsTheBrowserRule() {
        #expect(GIF.displayDelay(.zero) == .milliseconds(100))
        #expect(GIF.displayDelay(.milliseconds(10)) == .milliseconds(100))
        #expect(GIF.displayDelay(.milliseconds(20)) == .milliseconds(20))
        #expect(GIF.displayDelay(.milliseconds(2500)) == .milliseconds(2500))
    }
}
