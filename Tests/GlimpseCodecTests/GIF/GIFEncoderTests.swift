import Foundation
import Testing
import TestSupport
@testable import GlimpseCodec

@Suite struct GIFEncoderTests {
    /// Fixtures whose frames are all complete (the encoder writes what it is given).
    static let roundTripFixtures = ["disposal.gif", "disposal-previous-first.gif", "transparency.gif", "interlaced.gif",
                                    "local-palettes.gif", "out-of-canvas.gif", "loop-2.gif", "loop-forever.gif",
                                    "loop-none.gif", "lzw-full-table.gif", "codesize-1.gif", "many-frames.gif", "extensions.gif"]

    @Test(arguments: roundTripFixtures)
    func paletteInputRoundTripsExactly(_ name: String) throws {
        let image = try GIF.Decoder.decode(try Fixtures.bytes("gif/\(name)"))
        let encoded = try GIF.Encoder.encode(image)
        let decoded = try GIF.Decoder.decode(encoded)
        #expect(decoded.frames.count == image.frames.count)
        #expect(GIFTestHelpers.checksums(decoded) == GIFTestHelpers.checksums(image))
        #expect(decoded.frames.map(\.duration) == image.frames.map(\.duration))
        #expect(decoded.loopCount == image.loopCount)
        // Chunked decoding of our own output agrees too.
        #expect(try Chunking.fixed(3).decode(GIF.Decoder.self, encoded).get() == decoded)
    }

    @Test func framesAreCroppedToTheChangedRectangle() throws {
        let image = try GIF.Decoder.decode(try Fixtures.bytes("gif/many-frames.gif"))
        let cropped = try GIF.Encoder.encode(image)
        let full = try GIF.Encoder.encode(image, options: GIF.Encoder.Options(cropsToChanges: false))
        #expect(cropped.count < full.count)
        #expect(GIFTestHelpers.checksums(try GIF.Decoder.decode(full)) == GIFTestHelpers.checksums(image))
        // Every frame after the first is smaller than the 16×16 canvas.
        let rectangles = try Self.frameRectangles(cropped)
        #expect(rectangles.count == 300)
        #expect(rectangles.dropFirst().allSatisfy { $0.width * $0.height < 16 * 16 })
    }

    @Test func pixelsTurningTransparentSurviveTheCrop() throws {
        // Opaque, then a transparent hole, then opaque again.
        var a = PixelBuffer(width: 6, height: 4)
        for i in stride(from: 0, to: a.bytes.count, by: 4) { a.bytes[i] = 200; a.bytes[i + 3] = 255 }
        var b = a
        for y in 1...2 { for x in 2...3 { b.bytes[(y * 6 + x) * 4 + 3] = 0; b.bytes[(y * 6 + x) * 4] = 0 } }
        let image = Image(frames: [ImageFrame(pixels: a, duration: .milliseconds(50)),
                                   ImageFrame(pixels: b, duration: .milliseconds(50)),
                                   ImageFrame(pixels: a, duration: .milliseconds(50))], loopCount: 0, format: .gif)
        let decoded = try GIF.Decoder.decode(try GIF.Encoder.encode(image))
        #expect(decoded.frames.map(\.pixels) == image.frames.map(\.pixels))
    }

    @Test func fullPalettesStayExactAroundTransparency() throws {
        // 256 colours, then the same with a transparent hole, then 256 new colours.
        var a = PixelBuffer(width: 16, height: 16)
        var c = PixelBuffer(width: 16, height: 16)
        for i in 0..<256 {
            a.bytes[i * 4] = UInt8(i); a.bytes[i * 4 + 1] = UInt8(255 - i); a.bytes[i * 4 + 2] = 7; a.bytes[i * 4 + 3] = 255
            c.bytes[i * 4] = 9; c.bytes[i * 4 + 1] = UInt8(i); c.bytes[i * 4 + 2] = UInt8(255 - i); c.bytes[i * 4 + 3] = 255
        }
        var b = a
        for i in 100..<104 { for k in 0..<4 { b.bytes[i * 4 + k] = 0 } }
        let image = Image(frames: [a, b, c, a].map { ImageFrame(pixels: $0, duration: .milliseconds(30)) },
                          loopCount: 0, format: .gif)
        let decoded = try GIF.Decoder.decode(try GIF.Encoder.encode(image))
        #expect(decoded.frames.map(\.pixels) == image.frames.map(\.pixels))
    }

    @Test(arguments: [false, true])
    func manyColoursAreQuantised(dithers: Bool) throws {
        var pixels = PixelBuffer(width: 64, height: 64)
        for y in 0..<64 {
            for x in 0..<64 {
                let p = (y * 64 + x) * 4
                pixels.bytes[p] = UInt8(x * 4); pixels.bytes[p + 1] = UInt8(y * 4)
                pixels.bytes[p + 2] = UInt8((x + y) * 2); pixels.bytes[p + 3] = 255
            }
        }
        let image = Image(pixels: pixels, format: .gif)
        let decoded = try GIF.Decoder.decode(try GIF.Encoder.encode(image, options: GIF.Encoder.Options(dithers: dithers)))
        let out = decoded.pixels.bytes
        var colours = Set<UInt32>()
        var error = 0
        for i in stride(from: 0, to: out.count, by: 4) {
            colours.insert(UInt32(out[i]) << 16 | UInt32(out[i + 1]) << 8 | UInt32(out[i + 2]))
            error += abs(Int(out[i]) - Int(pixels.bytes[i])) + abs(Int(out[i + 1]) - Int(pixels.bytes[i + 1]))
                + abs(Int(out[i + 2]) - Int(pixels.bytes[i + 2]))
            #expect(out[i + 3] == 255)
        }
        #expect(colours.count <= 256)
        #expect(colours.count > 128)
        // Mean error per sample stays small (4096 colours into 256).
        #expect(Double(error) / Double(64 * 64 * 3) < 8)
    }

    @Test func lzwRoundTripsIncludingAFullTable() throws {
        var generator = SystemRandomNumberGenerator()
        for (size, count) in [(1, 0), (2, 1), (2, 5000), (4, 20_000), (8, 70_000)] {
            let indices = (0..<count).map { _ in UInt8.random(in: 0..<UInt8(truncatingIfNeeded: 1 << size &- 1 | 1), using: &generator) & UInt8((1 << size) - 1) }
            let data = GIF.LZWEncoder.encode(indices, minimumCodeSize: max(2, size))
            let (position, output) = try Self.decodeLZW(data, minimumCodeSize: max(2, size), count: count)
            #expect(position == count)
            #expect(output == indices)
        }
    }

    /// Runs `GIF.LZWDecoder` over `data` `passes` times into one buffer of `count` indices;
    /// the position it reached and the `count` indices.
    static func decodeLZW(_ data: [UInt8], minimumCodeSize: Int, count: Int,
                          passes: Int = 1) throws -> (position: Int, indices: [UInt8]) {
        var decoder = try GIF.LZWDecoder(minimumCodeSize: minimumCodeSize)
        var output = GIF.LZWDecoder.makeBuffer(count: count)
        var position = 0
        let decoded = try data.withDecodingBytes { (raw) throws(ImageDecodingError) -> Bool in
            try output.withUnsafeMutableBufferPointer { (buffer) throws(ImageDecodingError) -> Bool in
                // makeBuffer's buffer always holds the literal prefix, so it has an address.
                guard let base = buffer.baseAddress else { return false }
                for _ in 0..<passes {
                    try decoder.decode(raw, into: base + GIF.LZWDecoder.literalPrefix, count: count, position: &position)
                }
                return true
            }
        }
        #expect(decoded)
        return (position, Array(output[GIF.LZWDecoder.literalPrefix..<GIF.LZWDecoder.literalPrefix + count]))
    }

    /// Long strings cut by the end of the output: the decoder writes whole words past it
    /// (into the buffer's tail slack) and reports exactly `count` bytes, the first `count`
    /// of what was encoded, whichever code crosses the end.
    @Test func lzwStopsExactlyAtTheEndOfTheOutput() throws {
        let indices = (0..<30_000).map { UInt8(truncatingIfNeeded: ($0 / 700) % 3) }
        let data = GIF.LZWEncoder.encode(indices, minimumCodeSize: 2)
        for count in [1, 7, 8, 9, 4095, 10_001, 29_999] {
            // The second pass checks that data after a full output is ignored.
            let (position, output) = try Self.decodeLZW(data, minimumCodeSize: 2, count: count, passes: 2)
            #expect(position == count)
            #expect(output == Array(indices[..<count]))
        }
    }

    @Test func encodingErrors() {
        #expect(throws: GIF.Encoder.Error.noFrames) { try GIF.Encoder.encode(Image(frames: [], format: .gif)) }
        let a = ImageFrame(pixels: PixelBuffer(width: 2, height: 2))
        let b = ImageFrame(pixels: PixelBuffer(width: 3, height: 2))
        #expect(throws: GIF.Encoder.Error.frameSizeMismatch(index: 1)) {
            try GIF.Encoder.encode(Image(frames: [a, b], format: .gif))
        }
        #expect(throws: GIF.Encoder.Error.unsupportedSize(width: 70_000, height: 1)) {
            try GIF.Encoder.encode(Image(pixels: PixelBuffer(width: 70_000, height: 1), format: .gif))
        }
    }

    @Test(.enabled(if: ReferenceDecoder.executable != nil))
    func giflibReadsOurOutput() throws {
        for name in Self.roundTripFixtures {
            let image = try GIF.Decoder.decode(try Fixtures.bytes("gif/\(name)"))
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-gif-\(UUID().uuidString).gif")
            defer { try? FileManager.default.removeItem(at: url) }
            try Data(try GIF.Encoder.encode(image)).write(to: url)
            let reference = try #require(ReferenceDecoder.decode(url), "\(name)")
            #expect(GIFTestHelpers.normalised(reference) == GIFTestHelpers.normalised(image.pixels), "\(name)")
        }
    }

    /// The image descriptors' rectangles of a GIF.
    static func frameRectangles(_ bytes: [UInt8]) throws -> [GIF.ImageDescriptor] {
        var lexer = GIF.Lexer()
        var offset = 0
        var result: [GIF.ImageDescriptor] = []
        try bytes.withDecodingBytes { (raw) throws(ImageDecodingError) in
            while let event = try lexer.next(raw, &offset) {
                if case .image(let descriptor, _) = event { result.append(descriptor) }
            }
        }
        return result
    }
}
