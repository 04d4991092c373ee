import Foundation
import Testing
import TestSupport
@testable import GlimpseCodec

/// The AV1 decoder's planes (``AVIF/Decoder/decodePlanes(applyingFilmGrain:)``) against
/// `avifdec IN.avif OUT.y4m` (Debian libavif-bin 0.11 with dav1d): every sample identical.
///
/// The debug suite keeps to small files (avifenc crops of 96×64, and the corpus's smallest
/// link-u fox): about 30 s in debug on one core here, most of it the fox. The whole corpus is
/// compared by ``wholeCorpusMatchesAvifdec()`` when `GLIMPSE_AVIF_PLANES_CORPUS=1` (and by
/// `glimpse decode IN.avif --yuv OUT.y4m` against avifdec by hand).
@Suite struct AVIFDecodedPlanesTests {
    static let avifdec: String? = ["/usr/bin/avifdec", "/usr/local/bin/avifdec"].first { FileManager.default.isExecutableFile(atPath: $0) }

    static let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-avif-planes-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// The samples of a `.y4m` after its `FRAME` line, as avifdec writes them.
    static func y4mPayload(_ bytes: [UInt8]) -> [UInt8]? {
        guard let header = bytes.firstIndex(of: 0x0A) else { return nil }
        guard let frame = bytes[(header + 1)...].firstIndex(of: 0x0A) else { return nil }
        return Array(bytes[(frame + 1)...])
    }

    /// avifdec's planes of `file`, or nil when it refuses the file.
    static func reference(_ file: URL) throws -> [UInt8]? {
        let output = directory.appendingPathComponent(file.lastPathComponent + ".y4m")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = ReferenceDecoder.run(try #require(avifdec), ["-j", "1", file.path, output.path])
        guard result?.status == 0 else { return nil }
        return y4mPayload(try Fixtures.bytes(at: output))
    }

    /// Our planes in the y4m sample layout: bytes for 8 bits, 16-bit little-endian otherwise.
    static func decoded(_ bytes: [UInt8]) throws -> [UInt8] {
        var decoder = AVIF.Decoder(options: DecodingOptions())
        _ = try decoder.append(bytes)
        let planes = try decoder.decodePlanes().color
        var out: [UInt8] = []
        for plane in planes.planes {
            for sample in plane {
                out.append(UInt8(truncatingIfNeeded: sample))
                if planes.bitDepth > 8 { out.append(UInt8(truncatingIfNeeded: sample >> 8)) }
            }
        }
        return out
    }

    /// The first differing sample, for the failure message.
    static func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> String {
        guard a.count == b.count else { return "sizes \(a.count) and \(b.count)" }
        let index = zip(a, b).firstIndex { $0 != $1 } ?? -1
        return "first difference at byte \(index) of \(a.count)"
    }

    static func compare(_ file: URL) throws {
        let expected = try #require(try reference(file), "avifdec refused \(file.lastPathComponent)")
        let ours = try decoded(try Fixtures.bytes(at: file))
        #expect(ours == expected, "\(file.lastPathComponent): \(firstDifference(ours, expected))")
    }

    static let photo = AVIFTileSyntaxEncoderTests.source("photos-512/1001682.png", name: "planes.png", width: 96, height: 64)

    /// avifenc variants: formats and depths, speeds, lossless, tiles, CDEF and restoration off.
    static let variants: [[String]] = [
        ["-s", "6"], ["-s", "9"], ["-s", "6", "-y", "444"], ["-s", "6", "-y", "422"], ["-s", "6", "-y", "400"],
        ["-s", "6", "-d", "10"], ["-s", "6", "-y", "444", "-d", "12"], ["-s", "8", "-l"],
        ["-s", "8", "--tilerowslog2", "1", "--tilecolslog2", "1"],
        ["-s", "6", "-a", "enable-cdef=0", "-a", "enable-restoration=0"],
        ["-s", "6", "-a", "aq-mode=1"], ["-s", "6", "-a", "deltaq-mode=1"],
        ["-c", "rav1e", "-s", "10"],
    ]

    @Test(.enabled(if: avifdec != nil && AVIFTileSyntaxEncoderTests.avifenc != nil && photo != nil), arguments: variants)
    func encodedFileMatchesAvifdec(_ options: [String]) throws {
        let name = "planes-" + options.joined().replacingOccurrences(of: "-", with: "_") + ".avif"
        let output = Self.directory.appendingPathComponent(name)
        let encoder = try #require(AVIFTileSyntaxEncoderTests.avifenc)
        let result = ReferenceDecoder.run(encoder, options + ["-j", "1", try #require(Self.photo).path, output.path])
        try #require(result?.status == 0, "avifenc failed: \(result?.output ?? "")")
        defer { try? FileManager.default.removeItem(at: output) }
        try Self.compare(output)
    }

    static let fox = Fixtures.corpus("avif/link-u/fox.profile0.8bpc.yuv420.monochrome.odd-width.odd-height.avif")

    /// A 1203×799 monochrome fox from the corpus (odd sizes: partial superblocks and 4×4s).
    @Test(.enabled(if: avifdec != nil && fox != nil))
    func corpusFoxMatchesAvifdec() throws {
        try Self.compare(try #require(Self.fox))
    }
}
