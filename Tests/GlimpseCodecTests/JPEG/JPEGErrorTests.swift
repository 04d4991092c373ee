import Foundation
import GlimpseCodec
import Testing
import TestSupport

@Suite("JPEG errors, limits and partial images")
struct JPEGErrorTests {
    @Test("empty input is truncated")
    func empty() {
        var decoder = JPEG.Decoder(options: DecodingOptions())
        #expect(throws: ImageDecodingError.truncated) { try decoder.finish() }
    }

    @Test("input without SOI is malformed")
    func notJPEG() {
        #expect(throws: ImageDecodingError.malformed(.jpeg(.missingStartOfImage))) {
            try JPEG.Decoder.decode([0x89, 0x50, 0x4E, 0x47, 0, 0, 0, 0])
        }
    }

    @Test("SOI then EOI has no image")
    func noFrame() {
        #expect(throws: ImageDecodingError.malformed(.jpeg(.missingFrame))) {
            try JPEG.Decoder.decode([0xFF, 0xD8, 0xFF, 0xD9])
        }
    }

    @Test("errors are permanent")
    func permanent() {
        var decoder = JPEG.Decoder(options: DecodingOptions())
        #expect(throws: ImageDecodingError.malformed(.jpeg(.missingStartOfImage))) { try decoder.append([0x00, 0x01]) }
        #expect(throws: ImageDecodingError.malformed(.jpeg(.missingStartOfImage))) { try decoder.append([0xFF, 0xD8]) }
        #expect(throws: ImageDecodingError.malformed(.jpeg(.missingStartOfImage))) { try decoder.finish() }
    }

    @Test("a truncated sequential file keeps the rows decoded so far", arguments: ["pillow-420.jpg", "cjpeg-restart.jpg"])
    func truncatedSequential(_ name: String) throws {
        let bytes = try Fixtures.bytes("jpeg/\(name)")
        let full = try JPEG.Decoder.decode(bytes)
        // Cut three quarters into the entropy-coded data: past the first MCU row.
        let sos = try #require((0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
        let cut = Array(bytes[..<(bytes.count - (bytes.count - sos) / 4)])
        var decoder = JPEG.Decoder(options: DecodingOptions(mode: .strict))
        _ = try decoder.append(cut)
        #expect(throws: ImageDecodingError.truncated) { try decoder.finish() }
        #expect(throws: ImageDecodingError.truncated) { try decoder.finish() }
        let partial = try #require(decoder.partialImage())
        #expect(partial.frames.first?.isComplete == false)
        #expect(partial.width == full.width && partial.height == full.height)
        // The first MCU row is complete and identical.
        #expect(partial.pixels.row(0) == full.pixels.row(0))
        #expect(partial.pixels != full.pixels)
        // Lenient (the default): libjpeg-turbo's picture of the same bytes, with a warning.
        let lenient = try JPEG.Decoder.decode(cut)
        #expect(lenient.warnings.contains(DecodingWarning(.jpeg(.prematureEnd))))
        #expect(lenient.pixels.row(0) == full.pixels.row(0))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("truncated-\(UUID().uuidString).jpg")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(cut).write(to: file)
        if let reference = ReferenceDecoder.decode(file, lenient: true) {
            #expect(lenient.pixels.bytes == reference.bytes)
        }
    }

    @Test("a truncated progressive file shows the scans it has")
    func truncatedProgressive() throws {
        let bytes = try Fixtures.bytes("jpeg/cjpeg-progressive.jpg")
        var decoder = JPEG.Decoder(options: DecodingOptions(mode: .strict))
        _ = try decoder.append(bytes[..<(bytes.count / 2)])
        #expect(decoder.partialImage() != nil)
        #expect(throws: ImageDecodingError.truncated) { try decoder.finish() }
        let partial = try #require(decoder.partialImage())
        #expect(partial.width == 35 && partial.height == 27)
    }

    @Test("baseline rows appear as MCU rows complete")
    func incrementalRows() throws {
        let bytes = try Fixtures.bytes("jpeg/pillow-444.jpg")
        let full = try JPEG.Decoder.decode(bytes)
        var decoder = JPEG.Decoder(options: DecodingOptions())
        var sawPartialRows = false
        for chunk in Chunking.fixed(64).split(bytes) {
            _ = try decoder.append(chunk)
            if let partial = decoder.partialImage(), partial.pixels.row(0) == full.pixels.row(0),
               partial.pixels.row(29) != full.pixels.row(29) {
                sawPartialRows = true
            }
        }
        #expect(sawPartialRows)
        #expect(try decoder.finish() == full)
    }

    @Test("a progressive file gives a preview after each scan")
    func progressivePreviews() throws {
        let bytes = try Fixtures.bytes("jpeg/cjpeg-progressive.jpg")
        let full = try JPEG.Decoder.decode(bytes)
        var decoder = JPEG.Decoder(options: DecodingOptions())
        var previews: [Image] = []
        for chunk in Chunking.fixed(200).split(bytes) {
            _ = try decoder.append(chunk)
            if let preview = decoder.partialImage(), preview != previews.last { previews.append(preview) }
        }
        #expect(previews.count >= 3)
        #expect(try decoder.finish() == full)
    }

    @Test("the scan limit stops progressive files")
    func scanLimit() throws {
        var limits = DecodingLimits()
        limits.maxScans = 2
        let bytes = try Fixtures.bytes("jpeg/cjpeg-progressive.jpg")
        #expect(throws: ImageDecodingError.limitExceeded(.scans)) {
            try JPEG.Decoder.decode(bytes, options: DecodingOptions(limits: limits))
        }
    }

    @Test("dimension and byte limits are checked at the frame header")
    func sizeLimits() throws {
        let bytes = try Fixtures.bytes("jpeg/pillow-420.jpg")
        #expect(throws: ImageDecodingError.limitExceeded(.width)) {
            try JPEG.Decoder.decode(bytes, options: DecodingOptions(limits: DecodingLimits(maxWidth: 39)))
        }
        #expect(throws: ImageDecodingError.limitExceeded(.totalBytes)) {
            try JPEG.Decoder.decode(bytes, options: DecodingOptions(limits: DecodingLimits(maxTotalBytes: 4000)))
        }
    }

    @Test("a corrupt Huffman table is a typed error")
    func badHuffmanTable() throws {
        var bytes = try Fixtures.bytes("jpeg/pillow-420.jpg")
        // The first DHT is the luminance DC table (counts 0, 1, 5, …): claim two codes of
        // length 1 (which leaves no room for the rest) and keep the total unchanged.
        let dht = try #require((0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC4 })
        try #require(bytes[dht + 5] == 0 && bytes[dht + 7] >= 2)
        bytes[dht + 5] = 2
        bytes[dht + 7] -= 2
        #expect(throws: ImageDecodingError.malformed(.jpeg(.huffmanTable))) { try JPEG.Decoder.decode(bytes) }
    }

    @Test("randomly corrupted files get the same answer whole and in pieces (an image or a typed error)")
    func corruptedFilesDecodeTheSameInPieces() throws {
        let original = try Fixtures.bytes("jpeg/cjpeg-progressive.jpg")
        var state: UInt64 = 0x1234_5678
        for _ in 0..<60 {
            var bytes = original
            for _ in 0..<4 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let index = Int((state >> 33) % UInt64(bytes.count))
                bytes[index] = UInt8(truncatingIfNeeded: state >> 13)
            }
            #expect(FuzzChecks.run(.incremental, bytes) == nil, "corruption \(state)")
        }
    }
}
