@testable import GlimpseCodec
import Testing
import TestSupport

@Suite("JPEG encoder: streaming, options, metadata, errors")
struct JPEGEncoderBehaviourTests {
    @Test("rows pushed one by one, bytes taken as they come, equal the one-shot file", arguments: [false, true])
    func streaming(progressive: Bool) throws {
        let pixels = JPEGEncoderFixtures.image(width: 50, height: 37)
        let options = JPEG.EncodingOptions(quality: 70, isProgressive: progressive, restartRows: 1)
        var sink = try JPEG.RowSink(width: 50, height: 37, options: options)
        var streamed: [UInt8] = []
        var sawEarlyBytes = false
        for y in 0..<37 {
            try pixels.withUnsafeRow(y) { row in try sink.append(row: UnsafeRawBufferPointer(row)) }
            let taken = sink.takeBytes()
            if y > 0 && y < 30 && !taken.isEmpty { sawEarlyBytes = true }
            streamed += taken
        }
        #expect(sink.remainingRows == 0)
        streamed += try sink.finish()
        #expect(streamed == (try JPEG.Encoder(options: options).encode(pixels)))
        // Baseline codes each MCU row as it completes; progressive waits for the end.
        #expect(sawEarlyBytes == !progressive)
    }

    @Test("alpha is flattened over the background, or ignored")
    func alpha() throws {
        var pixels = JPEGEncoderFixtures.image(width: 20, height: 20)
        var flattened = pixels
        for i in stride(from: 0, to: pixels.bytes.count, by: 4) {
            let a = i % 12 == 0 ? 0 : (i % 8 == 0 ? 128 : 255)
            pixels.bytes[i + 3] = UInt8(a)
            for c in 0..<3 {
                let v = Int(pixels.bytes[i + c])
                flattened.bytes[i + c] = UInt8((v * a + (c == 1 ? 0 : 255) * (255 - a) + 127) / 255)
            }
        }
        let background = JPEG.EncodingOptions(alpha: .flatten(red: 255, green: 0, blue: 255))
        #expect(try JPEG.Encoder(options: background).encode(pixels) == JPEG.Encoder(options: background).encode(flattened))
        let ignoring = JPEG.EncodingOptions(alpha: .ignore)
        #expect(try JPEG.Encoder(options: ignoring).encode(pixels) == JPEG.Encoder(options: ignoring).encode(JPEGEncoderFixtures.opaque(pixels)))
    }

    @Test("ICC profile (split into APP2 chunks), EXIF orientation and density come back from our decoder")
    func metadata() throws {
        var metadata = ImageMetadata()
        metadata.iccProfile = (0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        metadata.orientation = .right
        metadata.density = PixelDensity(horizontal: 300, vertical: 300, unit: .perInch)
        let image = Image(pixels: JPEGEncoderFixtures.image(width: 9, height: 9), format: .png, metadata: metadata)
        let all = try JPEG.Decoder.decode(image.encoded(as: .jpeg, options: EncodingOptions(metadata: .all)))
        #expect(all.metadata.iccProfile == metadata.iccProfile)
        #expect(all.metadata.orientation == .right)
        #expect(all.metadata.density == metadata.density)
        let icc = try JPEG.Decoder.decode(image.encoded(as: .jpeg))
        #expect(icc.metadata.iccProfile == metadata.iccProfile)
        #expect(icc.metadata.orientation == .up)
        let none = try JPEG.Decoder.decode(image.encoded(as: .jpeg, options: EncodingOptions(metadata: .none)))
        #expect(none.metadata.iccProfile == nil)
    }

    @Test("the registry's JPEG follows EncodingOptions' quality")
    func registryQuality() throws {
        let image = Image(pixels: JPEGEncoderFixtures.image(width: 40, height: 40), format: .png)
        let low = try image.encoded(as: .jpeg, options: EncodingOptions(quality: 20))
        let high = try image.encoded(as: .jpeg, options: EncodingOptions(quality: 95))
        #expect(low.count < high.count)
        #expect(low == (try JPEG.Encoder(options: JPEG.EncodingOptions(quality: 20)).encode(image)))
    }

    @Test("bad sizes, options and row counts are typed errors")
    func errors() throws {
        #expect(throws: ImageEncodingError.unsupportedSize(width: 0, height: 5)) {
            try JPEG.RowSink(width: 0, height: 5)
        }
        #expect(throws: ImageEncodingError.unsupportedSize(width: 70_000, height: 1)) {
            try JPEG.RowSink(width: 70_000, height: 1)
        }
        #expect(throws: ImageEncodingError.self) { try JPEG.RowSink(width: 4, height: 4, options: JPEG.EncodingOptions(quality: 0)) }
        #expect(throws: ImageEncodingError.self) { try JPEG.RowSink(width: 4, height: 4, options: JPEG.EncodingOptions(restartRows: -1)) }
        var sink = try JPEG.RowSink(width: 4, height: 2)
        let row = [UInt8](repeating: 9, count: 16)
        try row.withUnsafeBytes { try sink.append(row: $0) }
        #expect(throws: ImageEncodingError.self) { _ = try sink.finish() }
        #expect(throws: ImageEncodingError.self) { try [UInt8](repeating: 0, count: 8).withUnsafeBytes { try sink.append(row: $0) } }
        try row.withUnsafeBytes { try sink.append(row: $0) }
        #expect(throws: ImageEncodingError.self) { try row.withUnsafeBytes { try sink.append(row: $0) } }
        #expect(throws: ImageEncodingError.invalidImage("no frames")) {
            try JPEG.Encoder().encode(Image(frames: [], format: .png))
        }
    }

    @Test("optimal tables: Annex K.2 lengths, none longer than 16 bits, decodable")
    func optimalTable() {
        // Fibonacci-like counts force lengths over 16 before folding.
        var frequencies = [Int](repeating: 0, count: 257)
        var a = 1, b = 1
        for symbol in 0..<30 { frequencies[symbol] = a; (a, b) = (b, a + b) }
        let table = JPEG.HuffmanCodeTable.optimal(frequencies: frequencies)
        #expect(table.counts.count == 16)
        #expect(table.counts.reduce(0) { $0 + Int($1) } == 30)
        #expect(table.symbols.count == 30)
        // Kraft sum below one: the all-ones code stays free.
        let kraft = table.counts.enumerated().reduce(0.0) { $0 + Double($1.element) / Double(1 << ($1.offset + 1)) }
        #expect(kraft < 1)
    }
}
