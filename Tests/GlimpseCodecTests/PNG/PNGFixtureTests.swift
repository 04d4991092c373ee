import Foundation
@testable import GlimpseCodec
import TestSupport
import Testing

/// The generated fixtures in Fixtures/png (see generate.py) against the
/// expected pixels the generator computed independently.
@Suite("PNG: fixtures")
struct PNGFixtureTests {
    static var stills: [String] {
        Fixtures.files(in: Fixtures.url("png"), extensions: [".png"]).map(\.lastPathComponent)
            .filter { !$0.hasPrefix("apng-") }
    }

    static var animations: [String] {
        Fixtures.files(in: Fixtures.url("png"), extensions: [".png"]).map(\.lastPathComponent).filter { $0.hasPrefix("apng-") }
    }

    static func expected(_ name: String, _ suffix: String) throws -> PixelBuffer? {
        let base = name.replacingOccurrences(of: ".png", with: "")
        let url = Fixtures.url("png/\(base).\(suffix).pam")
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try PAM.decode(try Fixtures.bytes(at: url))
    }

    @Test("fixtures cover every colour type, bit depth and interlace")
    func coverage() {
        let names = Set(Self.stills)
        for (type, depths) in [(0, [1, 2, 4, 8, 16]), (2, [8, 16]), (3, [1, 2, 4, 8]), (4, [8, 16]), (6, [8, 16])] {
            for depth in depths {
                for mode in ["seq", "adam7"] {
                    let name = "ct\(type)-d" + (depth < 10 ? "0\(depth)" : "\(depth)") + "-\(mode).png"
                    #expect(names.contains(name), "\(name)")
                }
            }
        }
    }

    @Test("still fixtures decode to the expected RGBA8 and RGBA16", arguments: stills)
    func still(_ name: String) throws {
        let bytes = try Fixtures.bytes("png/\(name)")
        let image = try PNG.Decoder.decode(bytes)
        #expect(image.pixels == (try #require(try Self.expected(name, "rgba8"))))
        if let wide = try Self.expected(name, "rgba16") {
            #expect(try PNG.Decoder.decode(bytes, options: DecodingOptions(sampleDepth: .preserve)).pixels == wide)
        }
        for chunking in Chunking.standard.dropFirst() {
            #expect(try chunking.decode(PNG.Decoder.self, bytes).get() == image, "\(chunking)")
        }
        if let reference = ReferenceDecoder.decode(Fixtures.url("png/\(name)")) {
            #expect(reference == image.pixels, "libpng")
        }
    }

    @Test("APNG fixtures compose every dispose and blend op", arguments: animations)
    func animation(_ name: String) throws {
        let bytes = try Fixtures.bytes("png/\(name)")
        let image = try PNG.Decoder.decode(bytes)
        #expect(image.format == .apng)
        for (index, frame) in image.frames.enumerated() {
            #expect(frame.pixels == (try #require(try Self.expected(name, "frame-\(index)"))), "frame \(index)")
        }
        #expect(try Self.expected(name, "frame-\(image.frames.count)") == nil, "frame count")
        for chunking in Chunking.standard.dropFirst() {
            #expect(try chunking.decode(PNG.Decoder.self, bytes).get() == image, "\(chunking)")
        }
    }

    @Test("APNG delays and play count")
    func timing() throws {
        let none = try PNG.Decoder.decode(try Fixtures.bytes("png/apng-dispose-none.png"))
        #expect(none.frames.map(\.duration) == [.milliseconds(100), .milliseconds(200), .milliseconds(30)])
        #expect(none.loopCount == 0)
        let first = try PNG.Decoder.decode(try Fixtures.bytes("png/apng-previous-first.png"))
        #expect(first.loopCount == 3)
        #expect(first.frames[1].duration == .seconds(1))
        let skip = try PNG.Decoder.decode(try Fixtures.bytes("png/apng-skip-default.png"))
        #expect(skip.frames.count == 2)
    }
}
