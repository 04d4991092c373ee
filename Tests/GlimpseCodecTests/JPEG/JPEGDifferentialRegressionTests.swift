import Foundation
import GlimpseCodec
import Testing
import TestSupport

/// Replays `Fuzz/Regressions/jpeg-diff/`: inputs on which Glimpse (lenient) and
/// libjpeg-turbo (`refdecode --lenient`, the `jpeg-diff` target's reference)
/// once disagreed. Both must reject each, or decode it to the same pixels.
/// Skipped where refdecode cannot be built.
@Suite("JPEG differential regressions", .enabled(if: ReferenceDecoder.executable != nil))
struct JPEGDifferentialRegressionTests {
    static let directory = Fixtures.repositoryRoot.appendingPathComponent("Fuzz/Regressions/jpeg-diff")

    static var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test("Glimpse and libjpeg-turbo agree", arguments: names)
    func agrees(_ name: String) throws {
        let url = Self.directory.appendingPathComponent(name)
        let bytes = try Fixtures.bytes(at: url)
        let reference = ReferenceDecoder.decode(url, lenient: true)
        let ours = try? JPEG.Decoder.decode(bytes)
        #expect((ours == nil) == (reference == nil), "\(name): Glimpse \(ours == nil ? "rejects" : "decodes"), libjpeg-turbo \(reference == nil ? "rejects" : "decodes")")
        if let ours, let reference { #expect(ours.pixels.bytes == reference.bytes, "\(name)") }
    }

    /// libjpeg-turbo's get_sos looks for the i-th scan component among frame components
    /// i..<4: this file's frame lists ids 1, 3, 2 and its first scan 1, 2, 3, so id 3 is
    /// not found (JERR_BAD_COMPONENT_ID), which no lenient recovery gets past.
    @Test("scan components out of the frame's order are an error, as libjpeg-turbo makes them")
    func scanComponentOrder() throws {
        let bytes = try Fixtures.bytes(at: Self.directory.appendingPathComponent("scan-components-out-of-frame-order.jpg"))
        #expect(throws: ImageDecodingError.malformed(.jpeg(.scanComponent(id: 3)))) { try JPEG.Decoder.decode(bytes) }
    }

    /// `Fuzz/Regressions/jpeg-diff-known/`: inputs where libjpeg-turbo is not the reference
    /// (JPEG README, "Known differences"). `FF FF… FF 00` in entropy data is read by
    /// libjpeg-turbo's slow Huffman path, and by Glimpse, as the data byte `FF`, the same as
    /// `FF 00`; its fast path decodes that MCU twice and keeps stray coefficients. So
    /// Glimpse's pixels must equal libjpeg-turbo's on the file with each run of fill bytes
    /// before a stuffed zero collapsed to `FF 00`, where only the slow path's reading applies.
    @Test("fill bytes before a stuffed zero are read as libjpeg-turbo's slow path reads them")
    func fillBytesBeforeStuffedZero() throws {
        let url = Fixtures.repositoryRoot.appendingPathComponent("Fuzz/Regressions/jpeg-diff-known/fill-bytes-before-stuffed-zero.jpg")
        let bytes = try Fixtures.bytes(at: url)
        var collapsed: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0xFF {
                var j = i + 1
                while j < bytes.count && bytes[j] == 0xFF { j += 1 }
                if j > i + 1, j < bytes.count, bytes[j] == 0 {
                    collapsed.append(0xFF)
                    i = j
                    continue
                }
            }
            collapsed.append(bytes[i])
            i += 1
        }
        #expect(collapsed.count < bytes.count, "the file no longer has fill bytes before a stuffed zero")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("jpeg-fill-\(UUID().uuidString).jpg")
        try Data(collapsed).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let reference = try #require(ReferenceDecoder.decode(file, lenient: true))
        let ours = try JPEG.Decoder.decode(bytes)
        #expect(ours.pixels.bytes == reference.bytes)
        #expect(try JPEG.Decoder.decode(collapsed).pixels.bytes == reference.bytes)
    }
}
