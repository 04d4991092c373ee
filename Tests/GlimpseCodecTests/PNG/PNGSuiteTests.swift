import Foundation
import GlimpseCodec
import TestSupport
import Testing

/// PngSuite (../shared/corpus/png/pngsuite) against libpng through refdecode.
@Suite("PNG: PngSuite")
struct PNGSuiteTests {
    static let directory = Fixtures.corpus("png/pngsuite")
    static let available = directory != nil && ReferenceDecoder.executable != nil

    static var validFiles: [URL] {
        guard let directory else { return [] }
        return Fixtures.files(in: directory, extensions: [".png"]).filter { !$0.lastPathComponent.hasPrefix("x") }
    }

    /// Each corrupt file and the error it must produce.
    static let corrupt: [(String, ImageDecodingError)] = [
        ("xs1n0g01.png", .malformed(.png(.signature))),
        ("xs2n0g01.png", .malformed(.png(.signature))),
        ("xs4n0g01.png", .malformed(.png(.signature))),
        ("xs7n0g01.png", .malformed(.png(.signature))),
        ("xcrn0g04.png", .malformed(.png(.signature))),
        ("xlfn0g04.png", .malformed(.png(.signature))),
        ("xhdn0g08.png", .checksumMismatch),
        ("xc1n0g08.png", .malformed(.png(.colorType(1)))),
        ("xc9n2c08.png", .malformed(.png(.colorType(9)))),
        ("xd0n2c08.png", .malformed(.png(.bitDepth(0, colorType: 2)))),
        ("xd3n2c08.png", .malformed(.png(.bitDepth(3, colorType: 2)))),
        ("xd9n2c08.png", .malformed(.png(.bitDepth(99, colorType: 2)))),
        ("xdtn0g01.png", .malformed(.png(.missingImageData))),
        ("xcsn0g01.png", .checksumMismatch),
    ]

    @Test("every valid file decodes byte-identical to libpng", .enabled(if: available))
    func matchesLibpng() throws {
        let files = Self.validFiles
        #expect(files.count > 150)
        for file in files {
            let bytes = try Fixtures.bytes(at: file)
            let reference = try #require(ReferenceDecoder.decode(file), "refdecode failed on \(file.lastPathComponent)")
            let image = try PNG.Decoder.decode(bytes)
            #expect(image.pixels == reference, "\(file.lastPathComponent)")
        }
    }

    @Test("every valid file decodes the same in any chunking", .enabled(if: directory != nil))
    func chunkingInvariance() throws {
        for file in Self.validFiles {
            let bytes = try Fixtures.bytes(at: file)
            let expected = try PNG.Decoder.decode(bytes)
            for chunking in Chunking.standard.dropFirst() {
                let result = chunking.decode(PNG.Decoder.self, bytes)
                #expect(try result.get() == expected, "\(file.lastPathComponent) \(chunking)")
            }
        }
    }

    @Test("every x*.png is rejected with its typed error", .enabled(if: directory != nil))
    func corruptFilesAreRejected() throws {
        let directory = try #require(Self.directory)
        let all = Fixtures.files(in: directory, extensions: [".png"]).filter { $0.lastPathComponent.hasPrefix("x") }
        #expect(all.count == Self.corrupt.count)
        for (name, expected) in Self.corrupt {
            let bytes = try Fixtures.bytes(at: directory.appendingPathComponent(name))
            #expect(throws: expected, "\(name)") { try PNG.Decoder.decode(bytes) }
            for chunking in [Chunking.fixed(1), .fixed(7)] {
                #expect(throws: expected, "\(name) \(chunking)") { try chunking.decode(PNG.Decoder.self, bytes).get() }
            }
        }
    }

    @Test("16-bit files keep all their bits with .preserve", .enabled(if: directory != nil))
    func sixteenBitMatchesSwiftPNGReference() throws {
        let directory = try #require(Self.directory)
        let expectedDirectory = directory.appendingPathComponent("expected/swiftpng_rgba16le")
        var checked = 0
        for file in Self.validFiles {
            let name = file.lastPathComponent
            let reference = expectedDirectory.appendingPathComponent(name + ".rgba")
            guard name.contains("16"), let expected = try? Fixtures.bytes(at: reference) else { continue }
            let image = try PNG.Decoder.decode(try Fixtures.bytes(at: file), options: DecodingOptions(sampleDepth: .preserve))
            guard image.pixels.format == .rgba16 else { continue }
            let littleEndian = image.pixels.bytes.withUnsafeBytes { raw in
                (0..<(raw.count / 2)).flatMap { i -> [UInt8] in
                    let v = raw.loadUnaligned(fromByteOffset: i * 2, as: UInt16.self)
                    return [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8)]
                }
            }
            #expect(littleEndian == expected, "\(name)")
            checked += 1
        }
        #expect(checked > 10)
    }
}
