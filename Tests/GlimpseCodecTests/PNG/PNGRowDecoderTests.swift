import Foundation
import GlimpseCodec
import TestSupport
import Testing

/// `PNG.RowDecoder` hands over exactly the rows `PNG.Decoder` outputs, in
/// order, for any chunking; Adam7 and APNG come back whole.
@Suite("PNG: row decoder")
struct PNGRowDecoderTests {
    /// What a row decode gave: the rows concatenated, and the outcome.
    struct Result {
        var bytes: [UInt8] = []
        var nextRow = 0
        var inOrder = true
        var outcome: PNG.RowDecoder.Outcome?
    }

    static func decodeRows(_ bytes: [UInt8], chunking: Chunking = .oneShot,
                           options: DecodingOptions = DecodingOptions()) throws -> Result {
        var decoder = PNG.RowDecoder(options: options)
        var result = Result()
        let take: (PNG.RowDecoder.Rows) -> Void = { rows in
            if rows.firstRow != result.nextRow || rows.bytes.count != rows.count * rows.bytesPerRow { result.inOrder = false }
            result.bytes += rows.bytes
            result.nextRow = rows.firstRow + rows.count
        }
        for piece in chunking.split(bytes) {
            _ = try piece.withUnsafeBytes { raw in try decoder.append(raw, rows: take) }
        }
        result.outcome = try decoder.finish(rows: take)
        return result
    }

    static var sequential: [String] {
        Fixtures.files(in: Fixtures.url("png"), extensions: [".png"]).map(\.lastPathComponent)
            .filter { name in
                // IHDR's interlace method is byte 28 of the file.
                guard !name.hasPrefix("apng-"), let bytes = try? Fixtures.bytes("png/\(name)"), bytes.count > 28 else { return false }
                return bytes[28] == 0
            }
    }

    @Test("rows equal the whole decode, for every chunking and both sample depths", arguments: sequential)
    func rowsEqualWholeDecode(_ name: String) throws {
        let bytes = try Fixtures.bytes("png/\(name)")
        for options in [DecodingOptions(), DecodingOptions(sampleDepth: .preserve)] {
            let image = try PNG.Decoder.decode(bytes, options: options)
            for chunking in Chunking.standard {
                let result = try Self.decodeRows(bytes, chunking: chunking, options: options)
                #expect(result.inOrder, "\(chunking)")
                #expect(result.bytes == image.pixels.bytes ? true : false, "\(chunking)")
                guard case .streamed(let rows, let metadata, let warnings) = result.outcome else {
                    Issue.record("not streamed: \(name)")
                    continue
                }
                #expect(rows == image.height && metadata == image.metadata && warnings == image.warnings)
            }
        }
    }

    @Test("a tall image arrives in several bands")
    func bands() throws {
        let width = 300, height = 700
        var pixels = PixelBuffer(width: width, height: height)
        for i in pixels.bytes.indices { pixels.bytes[i] = UInt8(truncatingIfNeeded: (i &* 2_654_435_761) >> 13) }
        let bytes = try PNG.Encoder().encode(pixels)
        var bands = 0
        var decoder = PNG.RowDecoder()
        var rows: [UInt8] = []
        _ = try bytes.withUnsafeBytes { raw in
            try decoder.append(raw) { band in
                bands += 1
                rows += band.bytes
            }
        }
        _ = try decoder.finish { _ in Issue.record("no rows left for finish") }
        #expect(bands > 2)
        #expect(rows == pixels.bytes ? true : false)
    }

    @Test("Adam7 and APNG are decoded whole", arguments: ["ct6-d08-adam7.png", "apng-dispose-none.png"])
    func whole(_ name: String) throws {
        let bytes = try Fixtures.bytes("png/\(name)")
        let result = try Self.decodeRows(bytes)
        #expect(result.bytes.isEmpty)
        guard case .image(let image) = result.outcome else {
            Issue.record("streamed")
            return
        }
        #expect(image == (try PNG.Decoder.decode(bytes)))
    }

    @Test("a file cut short: lenient keeps the rows decoded, strict throws")
    func truncated() throws {
        let width = 64, height = 200
        var pixels = PixelBuffer(width: width, height: height)
        for i in pixels.bytes.indices { pixels.bytes[i] = UInt8(truncatingIfNeeded: (i &* 2_654_435_761) >> 11) }
        let full = try PNG.Encoder().encode(pixels)
        let cut = Array(full.prefix(full.count / 2))
        let whole = try PNG.Decoder.decode(cut)
        let result = try Self.decodeRows(cut)
        guard case .streamed(let rows, _, let warnings) = result.outcome else {
            Issue.record("not streamed")
            return
        }
        #expect(rows > 0 && rows < height)
        #expect(warnings == whole.warnings)
        #expect(result.bytes == Array(whole.pixels.bytes.prefix(rows * width * 4)) ? true : false)
        // The rows below are transparent black in the whole decode.
        #expect(whole.pixels.bytes[(rows * width * 4)...].allSatisfy { $0 == 0 })
        #expect(throws: ImageDecodingError.truncated) {
            try Self.decodeRows(cut, options: DecodingOptions(mode: .strict))
        }
    }
}
