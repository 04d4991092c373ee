import GlimpseCodec
import Testing
import TestSupport

/// Self-made fixtures (Fixtures/jpeg/generate.py) against libjpeg-turbo's
/// decodes committed next to them, so this suite stands without ../shared.
@Suite("JPEG fixtures")
struct JPEGFixtureTests {
    @Test("the manifest lists the fixtures")
    func manifest() {
        #expect(JPEGTestSupport.fixtures.count >= 25)
    }

    @Test("full-size decode is identical to libjpeg-turbo", arguments: JPEGTestSupport.decodableFixtures)
    func fullSize(_ fixture: JPEGTestSupport.Fixture) throws {
        let image = try JPEG.Decoder.decode(JPEGTestSupport.bytes(fixture))
        let reference = try JPEGTestSupport.reference(fixture, scale: 1)
        let comparison = JPEGTestSupport.compare(image.pixels, reference)
        #expect(comparison.sameSize)
        #expect(comparison.identicalPixels == comparison.pixels, "\(fixture.note): max difference \(comparison.maxDifference)")
    }

    @Test("DCT-scaled decodes are identical to libjpeg-turbo", arguments: JPEGTestSupport.decodableFixtures)
    func scaled(_ fixture: JPEGTestSupport.Fixture) throws {
        let bytes = try JPEGTestSupport.bytes(fixture)
        for scale in [2, 4, 8] where fixture.scales.contains(scale) {
            let image = try JPEG.Decoder.decode(bytes, options: DecodingOptions(scaleDenominator: scale))
            let reference = try JPEGTestSupport.reference(fixture, scale: scale)
            let comparison = JPEGTestSupport.compare(image.pixels, reference)
            #expect(comparison.sameSize, "1/\(scale)")
            #expect(comparison.identicalPixels == comparison.pixels, "1/\(scale): max difference \(comparison.maxDifference)")
        }
    }

    @Test("output is the same for every chunking", arguments: JPEGTestSupport.decodableFixtures)
    func chunking(_ fixture: JPEGTestSupport.Fixture) throws {
        let bytes = try JPEGTestSupport.bytes(fixture)
        let oneShot = try JPEG.Decoder.decode(bytes)
        for chunking in Chunking.standard.dropFirst() {
            let result = chunking.decode(JPEG.Decoder.self, bytes)
            #expect(result == .success(oneShot), "\(chunking)")
        }
        // Scaled decoding goes through the same incremental path.
        let options = DecodingOptions(scaleDenominator: 4)
        let scaled = try JPEG.Decoder.decode(bytes, options: options)
        #expect(Chunking.fixed(7).decode(JPEG.Decoder.self, bytes, options: options) == .success(scaled))
    }

    @Test("junk before a marker, fed in small pieces, is skipped once and the image is unchanged")
    func junkFedInSmallPieces() throws {
        let bytes = try Fixtures.bytes("jpeg/cjpeg-411.jpg")
        let oneShot = try JPEG.Decoder.decode(bytes)
        // 256 KiB of junk after SOI, as libjpeg skips it: plain bytes, stray FF 00 pairs
        // and runs of fill FFs, some of them split across two appends.
        var junk: [UInt8] = []
        while junk.count < 256 << 10 {
            junk += (0..<53).map { UInt8($0 % 0xFF) }
            junk += junk.count % 3 == 0 ? [0xFF, 0x00] : [0xFF, 0xFF, 0xFF, 0x00]
        }
        let padded = Array(bytes[..<2]) + junk + Array(bytes[2...])
        // libjpeg counts the bytes it skips, FF 00 as two (however many fill FFs come first).
        let stuffed = (1..<junk.count).filter { junk[$0] == 0 && junk[$0 - 1] == 0xFF }.count
        let skipped = junk.filter { $0 != 0xFF }.count + stuffed
        var expected = oneShot
        expected.warnings = [DecodingWarning(.jpeg(.extraneousBytes(count: skipped, marker: bytes[3])))]
        #expect(try JPEG.Decoder.decode(padded) == expected)
        // Before the junk was dropped as it was scanned, 16-byte appends rescanned it
        // from the start every time: about 2 GB of scanning for this file.
        #expect(Chunking.fixed(16).decode(JPEG.Decoder.self, padded) == .success(expected))
        #expect(throws: ImageDecodingError.malformed(.jpeg(.extraneousBytes(count: skipped, marker: bytes[3])))) {
            try JPEG.Decoder.decode(padded, options: DecodingOptions(mode: .strict))
        }
    }

    @Test("a copy of a decoder in the middle of a progressive file decodes on its own",
          arguments: ["jpeg/cjpeg-progressive.jpg", "jpeg/cjpeg-progressive-restart.jpg"])
    func copiedMidway(_ name: String) throws {
        // The coefficient store is shared by copies until one writes: each must still
        // behave as a value.
        let bytes = try Fixtures.bytes(name)
        let oneShot = try JPEG.Decoder.decode(bytes)
        var first = JPEG.Decoder(options: DecodingOptions())
        _ = try first.append(bytes[..<(bytes.count / 2)])
        let before = first.partialImage()
        var second = first
        _ = try second.append(bytes[(bytes.count / 2)...])
        #expect(try second.finish() == oneShot)
        #expect(first.partialImage() == before)
        _ = try first.append(bytes[(bytes.count / 2)...])
        #expect(try first.finish() == oneShot)
    }

    @Test("arithmetic coding is reported as unsupported")
    func arithmetic() throws {
        let bytes = try Fixtures.bytes("jpeg/jpegtran-arithmetic.jpg")
        #expect(throws: ImageDecodingError.unsupported(.jpegCodingProcess(marker: 0xC9))) {
            try JPEG.Decoder.decode(bytes)
        }
    }

    @Test("the standard registry decodes JPEG")
    func registry() throws {
        let bytes = try Fixtures.bytes("jpeg/pillow-420.jpg")
        let image = try DecoderRegistry.standard.decode(bytes)
        #expect(image.format == .jpeg)
        #expect(image.width == 40 && image.height == 30)
    }
}
