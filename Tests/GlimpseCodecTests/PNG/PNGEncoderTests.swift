import Foundation
@testable import GlimpseCodec
import TestSupport
import Testing

@Suite("PNG: encoder")
struct PNGEncoderTests {
    static let optionSets: [PNG.Encoder.Options] = [
        PNG.Encoder.Options(),
        PNG.Encoder.Options(colorMode: .rgba, compressionLevel: 1),
        PNG.Encoder.Options(compressionLevel: 9, interlaced: true),
        PNG.Encoder.Options(colorMode: .rgba, compressionLevel: 0, filtering: .paeth),
        PNG.Encoder.Options(filtering: .sub),
        PNG.Encoder.Options(filtering: .up, interlaced: true),
        PNG.Encoder.Options(filtering: .average),
        PNG.Encoder.Options(filtering: .none),
    ]

    static var stills: [String] { PNGFixtureTests.stills }

    /// Writes `bytes` to a temporary file for refdecode.
    static func referenceDecode(_ bytes: [UInt8]) throws -> PixelBuffer? {
        guard ReferenceDecoder.executable != nil else { return nil }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-png-\(UUID().uuidString).png")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return ReferenceDecoder.decode(url)
    }

    @Test("decode(encode(image)) == image for every fixture and option", arguments: stills)
    func roundTrip(_ name: String) throws {
        let source = try Fixtures.bytes("png/\(name)")
        for depth in [DecodingOptions.SampleDepth.eightBit, .preserve] {
            let image = try PNG.Decoder.decode(source, options: DecodingOptions(sampleDepth: depth))
            for options in Self.optionSets {
                let encoded = try PNG.Encoder(options: options).encode(image)
                let decoded = try PNG.Decoder.decode(encoded, options: DecodingOptions(sampleDepth: depth))
                #expect(decoded.pixels == image.pixels, "\(options)")
            }
        }
    }

    @Test("libpng decodes our output to the same pixels", .enabled(if: ReferenceDecoder.executable != nil),
          arguments: stills, [false, true])
    func libpngReadsOurOutput(_ name: String, interlaced: Bool) throws {
        let image = try PNG.Decoder.decode(try Fixtures.bytes("png/\(name)"), options: DecodingOptions(sampleDepth: .preserve))
        let encoded = try PNG.Encoder(options: PNG.Encoder.Options(interlaced: interlaced)).encode(image)
        let reference = try #require(try Self.referenceDecode(encoded), "libpng rejects our output")
        #expect(reference == image.pixels.converted(to: .rgba8))
    }

    @Test("the automatic layout picks the smallest lossless colour type")
    func automaticLayout() throws {
        func colorType(_ pixels: PixelBuffer) throws -> (UInt8, UInt8) {
            let bytes = try PNG.Encoder().encode(pixels)
            return (bytes[24], bytes[25])  // IHDR bit depth, colour type
        }
        var grey = PixelBuffer(width: 300, height: 2)
        for i in 0..<600 { grey.bytes[i * 4 ..< i * 4 + 4] = [UInt8(i % 256), UInt8(i % 256), UInt8(i % 256), 255] }
        #expect(try colorType(grey) == (8, 0))
        var rgb = grey
        for i in 0..<600 { rgb.bytes[i * 4] = UInt8((i * 7) % 256); rgb.bytes[i * 4 + 1] = UInt8(i / 3) }
        #expect(try colorType(rgb) == (8, 2))
        rgb.bytes[3] = 0
        #expect(try colorType(rgb) == (8, 6))
        var few = PixelBuffer(width: 4, height: 4)
        for i in 0..<16 { few.bytes[i * 4 ..< i * 4 + 4] = [UInt8(i % 3 * 50), 0, 9, i == 5 ? 0 : 255] }
        #expect(try colorType(few) == (2, 3))
        #expect(try PNG.Decoder.decode(try PNG.Encoder().encode(few)).pixels == few)
        #expect(throws: PNG.Encoder.EncodingError.colorModeLosesInformation) {
            try PNG.Encoder(options: PNG.Encoder.Options(colorMode: .grayscale)).encode(rgb)
        }
        #expect(throws: PNG.Encoder.EncodingError.colorModeLosesInformation) {
            try PNG.Encoder(options: PNG.Encoder.Options(colorMode: .indexed)).encode(rgb)
        }
    }

    @Test("metadata is written back")
    func metadataRoundTrip() throws {
        var metadata = ImageMetadata()
        metadata.orientation = .right
        metadata.iccProfile = Array(repeating: 7, count: 300) + Array("acsp".utf8)
        metadata.gamma = 0.45455
        metadata.density = PixelDensity(horizontal: 2835, vertical: 2835, unit: .perMeter)
        metadata.chromaticities = Chromaticities(whiteX: 0.3127, whiteY: 0.329, redX: 0.64, redY: 0.33,
                                                 greenX: 0.3, greenY: 0.6, blueX: 0.15, blueY: 0.06)
        let pixels = PixelBuffer(width: 3, height: 2)
        let decoded = try PNG.Decoder.decode(try PNG.Encoder().encode(pixels, metadata: metadata))
        #expect(decoded.metadata == metadata)
    }

    @Test("APNG round trip: frames, delays, loop count", arguments: PNGFixtureTests.animations)
    func animationRoundTrip(_ name: String) throws {
        let image = try PNG.Decoder.decode(try Fixtures.bytes("png/\(name)"))
        for options in [PNG.Encoder.Options(), PNG.Encoder.Options(colorMode: .rgba, interlaced: true)] {
            let encoded = try PNG.Encoder(options: options).encodeAnimation(image)
            let decoded = try PNG.Decoder.decode(encoded)
            #expect(decoded.frames == image.frames)
            #expect(decoded.loopCount == image.loopCount)
            #expect(decoded.format == .apng)
            if let reference = try Self.referenceDecode(encoded) {
                #expect(reference == image.frames[0].pixels, "libpng shows frame 0 as the default image")
            }
        }
    }

    @Test("APNG encoder: 16-bit frames and a single frame")
    func animationEdgeCases() throws {
        var a = PixelBuffer(width: 5, height: 4, format: .rgba16)
        for i in 0..<a.bytes.count { a.bytes[i] = UInt8(i * 37 % 256) }
        var b = a
        b.bytes[40] = 1
        let image = Image(frames: [ImageFrame(pixels: a, duration: .milliseconds(70)), ImageFrame(pixels: b, duration: .seconds(70))],
                          loopCount: 2, format: .apng)
        let decoded = try PNG.Decoder.decode(try PNG.Encoder().encodeAnimation(image), options: DecodingOptions(sampleDepth: .preserve))
        #expect(decoded.frames.map(\.pixels) == [a, b])
        #expect(decoded.frames.map(\.duration) == [.milliseconds(70), .seconds(70)])
        let still = Image(pixels: a, format: .png)
        #expect(try PNG.Decoder.decode(try PNG.Encoder().encodeAnimation(still), options: DecodingOptions(sampleDepth: .preserve)).frames == still.frames)
    }
}
