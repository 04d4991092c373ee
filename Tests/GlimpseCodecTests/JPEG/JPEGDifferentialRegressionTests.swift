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
}
