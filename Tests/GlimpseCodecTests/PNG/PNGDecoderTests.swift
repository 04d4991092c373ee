import Foundation
@testable import GlimpseCodec
import TestSupport
import Testing

/// Validation, limits and incremental behaviour on hand-built files.
@Suite("PNG: decoder behaviour")
struct PNGDecoderTests {
    static func ihdr(_ width: UInt32, _ height: UInt32, depth: UInt8 = 8, type: UInt8 = 6, interlace: UInt8 = 0) -> [UInt8] {
        var data: [UInt8] = []
        data.appendBigEndian(width)
        data.appendBigEndian(height)
        data += [depth, type, 0, 0, interlace]
        return data
    }

    /// A file from (type, data) chunks, CRCs computed.
    static func file(_ chunks: [(String, [UInt8])]) -> [UInt8] {
        var writer = PNG.ChunkWriter()
        for (name, data) in chunks {
            let type = name.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            writer.write(PNG.ChunkType(type), data)
        }
        return writer.bytes
    }

    /// A 4×3 RGBA8 image: the raw (filter 0) scanlines, compressed.
    static let pixels: PixelBuffer = {
        var p = PixelBuffer(width: 4, height: 3)
        for i in 0..<p.bytes.count { p.bytes[i] = UInt8(i * 11 % 256) }
        return p
    }()
    static var rawScanlines: [UInt8] {
        (0..<3).flatMap { [0] + Array(pixels.row($0)) }
    }
    static var idat: [UInt8] { PNG.Deflate.compress(rawScanlines, level: 6) }
    static var valid: [UInt8] { file([("IHDR", ihdr(4, 3)), ("IDAT", idat), ("IEND", [])]) }

    @Test("a hand-built file decodes")
    func baseline() throws {
        #expect(try PNG.Decoder.decode(Self.valid).pixels == Self.pixels)
    }

    @Test("225000 × 225000 is rejected from IHDR, before allocating")
    func hugeDimensions() throws {
        let header = Self.file([("IHDR", Self.ihdr(225_000, 225_000))])
        var decoder = PNG.Decoder(options: DecodingOptions())
        #expect(throws: ImageDecodingError.limitExceeded(.width)) { try decoder.append(header) }
        #expect(decoder.image == nil && decoder.scanlines == nil)
        // Errors are permanent.
        #expect(throws: ImageDecodingError.limitExceeded(.width)) { try decoder.append([0]) }
        #expect(throws: ImageDecodingError.limitExceeded(.width)) { try decoder.finish() }
        var small = DecodingLimits()
        small.maxPixelsPerFrame = 11
        #expect(throws: ImageDecodingError.limitExceeded(.pixelsPerFrame)) {
            try PNG.Decoder.decode(Self.valid, options: DecodingOptions(limits: small))
        }
        var budget = DecodingLimits()
        budget.maxTotalBytes = 40
        #expect(throws: ImageDecodingError.limitExceeded(.totalBytes)) {
            try PNG.Decoder.decode(Self.valid, options: DecodingOptions(limits: budget))
        }
    }

    static let strict = DecodingOptions(mode: .strict)

    @Test("validation errors (strict)")
    func validation() throws {
        let strict = Self.strict
        let good = Self.idat
        var badAdler = good
        badAdler[badAdler.count - 1] ^= 1
        var badZlib = good
        badZlib[0] = 0x79
        let cases: [([(String, [UInt8])], ImageDecodingError)] = [
            ([("IHDR", Self.ihdr(4, 3)), ("IDAT", badAdler), ("IEND", [])], .checksumMismatch),
            ([("IHDR", Self.ihdr(4, 3)), ("IDAT", badZlib), ("IEND", [])], .malformed(.png(.zlibHeaderCheck))),
            ([("IHDR", Self.ihdr(4, 3)), ("IDAT", Array(good.prefix(8))), ("IEND", [])], .truncated),
            ([("IHDR", Self.ihdr(4, 3)), ("IDAT", good), ("CgBI", []), ("IEND", [])], .unsupported(.pngCriticalChunk(PNG.ChunkType("CgBI")))),
            ([("IHDR", Self.ihdr(4, 3, depth: 8, type: 3)), ("IDAT", good), ("IEND", [])], .malformed(.png(.missingPalette))),
            ([("IHDR", Self.ihdr(4, 3)), ("IDAT", Array(good.prefix(5))), ("tEXt", [65, 0, 66]),
              ("IDAT", Array(good.dropFirst(5))), ("IEND", [])], .malformed(.png(.imageDataNotConsecutive))),
            ([("IHDR", Self.ihdr(4, 3, interlace: 2)), ("IDAT", good), ("IEND", [])], .malformed(.png(.interlaceMethod(2)))),
            ([("IHDR", Self.ihdr(0, 3)), ("IDAT", good), ("IEND", [])], .malformed(.png(.dimensions(width: 0, height: 3)))),
            ([("IHDR", Self.ihdr(4, 3)), ("IEND", [])], .malformed(.png(.missingImageData))),
            ([("IDAT", good), ("IEND", [])], .malformed(.png(.headerNotFirst))),
        ]
        for (chunks, error) in cases {
            let bytes = Self.file(chunks)
            #expect(throws: error) { try PNG.Decoder.decode(bytes, options: strict) }
            #expect(throws: error) { try Chunking.fixed(1).decode(PNG.Decoder.self, bytes, options: strict).get() }
        }
        // A bad filter type byte.
        var raw = Self.rawScanlines
        raw[17] = 9
        let badFilter = Self.file([("IHDR", Self.ihdr(4, 3)), ("IDAT", PNG.Deflate.compress(raw, level: 1)), ("IEND", [])])
        #expect(throws: ImageDecodingError.malformed(.png(.filterType(9)))) { try PNG.Decoder.decode(badFilter, options: strict) }
        // Chunk lengths near 2^31 are never allocated: the file just ends inside them.
        for type in ["IEND", "iCCP", "tEXt", "IDAT"] {
            let huge = Self.file([("IHDR", Self.ihdr(4, 3)), ("IDAT", Self.idat)]) + [0x7F, 0xFF, 0xFF, 0xF0] + Array(type.utf8) + [1, 2, 3]
            #expect(throws: ImageDecodingError.truncated, "\(type)") { try PNG.Decoder.decode(huge, options: strict) }
        }
        // Missing IEND.
        #expect(throws: ImageDecodingError.truncated) { try PNG.Decoder.decode(Array(Self.valid.dropLast(12)), options: strict) }
        #expect(throws: ImageDecodingError.truncated) { try PNG.Decoder.decode([UInt8](), options: strict) }
    }

    @Test("lenient where the format allows it")
    func leniency() throws {
        // Ancillary chunk with a bad CRC: skipped. Unknown ancillary chunk: skipped.
        var bytes = Self.file([("IHDR", Self.ihdr(4, 3)), ("gAMA", [0, 0, 0xB1, 0x8F]), ("prVt", [1, 2, 3]),
                               ("IDAT", Self.idat), ("IEND", [])])
        bytes[33 + 12 + 4 - 1] ^= 0xFF  // last CRC byte of gAMA
        let image = try PNG.Decoder.decode(bytes)
        #expect(image.pixels == Self.pixels)
        #expect(image.metadata.gamma == nil)
        #expect(image.warnings == [DecodingWarning(.png(.ancillaryChecksum(PNG.ChunkType("gAMA"))))])
        #expect(throws: ImageDecodingError.checksumMismatch) { try PNG.Decoder.decode(bytes, options: Self.strict) }
        #expect(try PNG.Decoder.decode(Self.valid).warnings.isEmpty)
        // Surplus image data after the last row, and bytes after IEND, are ignored.
        let surplus = Self.file([("IHDR", Self.ihdr(4, 3)), ("IDAT", PNG.Deflate.compress(Self.rawScanlines + [1, 2, 3], level: 6)),
                                 ("IEND", [])]) + [0xDE, 0xAD]
        #expect(try PNG.Decoder.decode(surplus).pixels == Self.pixels)
        // One-byte IDAT chunks.
        let split = Self.file([("IHDR", Self.ihdr(4, 3))] + Self.idat.map { ("IDAT", [$0]) } + [("IEND", [])])
        #expect(try PNG.Decoder.decode(split).pixels == Self.pixels)
    }

    @Test("info after IHDR, rows as they arrive, complete at IEND")
    func incremental() throws {
        let bytes = Self.valid
        var decoder = PNG.Decoder(options: DecodingOptions())
        #expect(try decoder.append(Array(bytes.prefix(32))) == .needMoreData)
        #expect(decoder.info == nil)
        #expect(try decoder.append(Array(bytes[32..<33])) == .needMoreData)
        let info = try #require(decoder.info)
        #expect(info.width == 4 && info.height == 3 && info.bitDepth == 8 && info.hasAlpha && info.format == .png)
        #expect(decoder.partialImage() == nil)
        // Stored (level 0) deflate makes the rows arrive byte by byte.
        let stored = Self.file([("IHDR", Self.ihdr(4, 3)), ("IDAT", PNG.Deflate.compress(Self.rawScanlines, level: 0)), ("IEND", [])])
        var rows = PNG.Decoder(options: DecodingOptions())
        var seen: [Int] = []
        for byte in stored {
            if try rows.append([byte]) == .complete { break }
            if let partial = rows.partialImage(), let frame = partial.frames.first {
                let complete = (0..<3).filter { frame.pixels.row($0) == Self.pixels.row($0) }.count
                if seen.last != complete { seen.append(complete) }
            }
        }
        #expect(seen == [1, 2, 3])
        #expect(rows.partialImage()?.frames.first?.isComplete == true)
        #expect(try rows.finish().pixels == Self.pixels)
    }

    @Test("Adam7: a replicated preview after each pass")
    func interlacedPreview() throws {
        var source = PixelBuffer(width: 16, height: 16)
        for i in 0..<256 { source.bytes[i * 4 ..< i * 4 + 4] = [UInt8(i), UInt8(255 - i), 7, 255] }
        let encoded = try PNG.Encoder(options: PNG.Encoder.Options(colorMode: .rgba, compressionLevel: 0, interlaced: true)).encode(source)
        var decoder = PNG.Decoder(options: DecodingOptions())
        var previews: [PixelBuffer] = []
        for byte in encoded {
            _ = try decoder.append([byte])
            if let preview = decoder.partialImage()?.frames.first?.pixels, previews.last != preview { previews.append(preview) }
        }
        #expect(previews.count >= 7)
        // After pass 1 every 8×8 block shows its top-left pixel.
        let first = try #require(previews.first)
        #expect(first.pixel(x: 7, y: 7) == source.pixel(x: 0, y: 0))
        #expect(first.pixel(x: 9, y: 15) == source.pixel(x: 8, y: 8))
        #expect(previews.last == source)
    }

    @Test("copies of a decoder fork its state")
    func forking() throws {
        let bytes = Self.valid
        var decoder = PNG.Decoder(options: DecodingOptions())
        _ = try decoder.append(Array(bytes.prefix(50)))
        var copy = decoder
        _ = try decoder.append(Array(bytes.dropFirst(50)))
        _ = try copy.append(Array(bytes.dropFirst(50)))
        #expect(try decoder.finish() == (try copy.finish()))
    }

    @Test("the registry picks the PNG decoder for PNG and APNG")
    func registry() throws {
        #expect(DecoderRegistry.standard.decoder(for: .png) == PNG.Decoder.self)
        #expect(DecoderRegistry.standard.decoder(for: .apng) == PNG.Decoder.self)
        #expect(try DecoderRegistry.standard.decode(Self.valid).pixels == Self.pixels)
    }
}

@Suite("PNG: Paeth predictor")
struct PNGPaethTests {
    /// PNG §9.4, literally.
    static func reference(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let p = a + b - c
        let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    @Test("the threshold form equals the specification's predictor")
    func equivalence() {
        var mismatches = 0
        for a in stride(from: 0, through: 255, by: 3) {
            for b in 0...255 {
                for c in stride(from: 0, through: 255, by: 5) {
                    let fast = Int(PNG.Unfilter.predictor(UInt8(a), UInt8(b), UInt8(c)))
                    let vector = PNG.Unfilter.simdPaeth(SIMD4<Int16>(repeating: Int16(a)), SIMD4<Int16>(repeating: Int16(b)),
                                                        SIMD4<Int16>(repeating: Int16(c)))[0]
                    if fast != Self.reference(a, b, c) || Int(vector) != fast { mismatches += 1 }
                }
            }
        }
        #expect(mismatches == 0)
    }
}
