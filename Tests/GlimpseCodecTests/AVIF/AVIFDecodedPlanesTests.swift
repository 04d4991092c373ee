import Foundation
import Testing
import TestSupport
@testable import GlimpseCodec

/// The AV1 decoder's planes (``AVIF/Decoder/decodePlanes(applyingFilmGrain:)``) against
/// `avifdec IN.avif OUT.y4m` (Debian libavif-bin 0.11 with dav1d): every sample identical.
///
/// The debug suite keeps to small files (16 avifenc crops of 96×64, and one 1203×799
/// monochrome link-u fox): 5 s in debug here (the fox 4.7 s, the avifenc cases 0.8 s). The whole corpus is
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
        let index = a.indices.first { a[$0] != b[$0] } ?? -1
        return "first difference at byte \(index) of \(a.count)"
    }

    static func compare(_ file: URL) throws {
        let expected = try #require(try reference(file), "avifdec refused \(file.lastPathComponent)")
        #expect(!expected.isEmpty)
        let ours = try decoded(try Fixtures.bytes(at: file))
        #expect(ours == expected, "\(file.lastPathComponent): \(firstDifference(ours, expected))")
    }

    static let photo = AVIFTileSyntaxEncoderTests.source("photos-512/1001682.png", name: "planes.png", width: 96, height: 64)

    /// avifenc variants: formats and depths, speeds, lossless, tiles, CDEF and restoration off,
    /// segmentation and delta q, rav1e, film grain.
    static let variants: [[String]] = [
        ["-s", "6"], ["-s", "9"], ["-s", "6", "-y", "444"], ["-s", "6", "-y", "422"], ["-s", "6", "-y", "400"],
        ["-s", "6", "-d", "10"], ["-s", "6", "-y", "444", "-d", "12"], ["-s", "8", "-l"],
        ["-s", "8", "--tilerowslog2", "1", "--tilecolslog2", "1"],
        ["-s", "6", "-a", "enable-cdef=0", "-a", "enable-restoration=0"],
        ["-s", "6", "-a", "aq-mode=1"], ["-s", "6", "-a", "deltaq-mode=1"],
        ["-c", "rav1e", "-s", "10"],
        // Film grain synthesis (§7.18.3): libaom's test vectors 1 and 2, and denoising with a fitted grain.
        ["-s", "6", "-a", "film-grain-test=1"], ["-s", "6", "-a", "film-grain-test=2", "-y", "444", "-d", "10"],
        ["-s", "6", "-a", "denoise-noise-level=40"],
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

    /// Two of the six Microsoft corpus files coded with intra block copy (screen content: motion
    /// vector prediction, §7.10.2, and prediction from the frame being decoded, §7.11.3), 7–8 KB each.
    static let intraBlockCopyFiles = ["Monochrome", "still_picture"].compactMap { Fixtures.corpus("avif/microsoft/\($0).avif") }

    @Test(.enabled(if: avifdec != nil && !intraBlockCopyFiles.isEmpty))
    func intraBlockCopyMatchesAvifdec() throws {
        for file in Self.intraBlockCopyFiles { try Self.compare(file) }
    }

    /// Corpus files whose planes differ from avifdec's, with the reason: what is not decoded yet.
    static let knownDifferences: [String: String] = {
        let layers = "spatial layers: avifdec shows the last layer, an inter frame (only the first, intra, frame is decoded)"
        var known: [String: String] = [:]
        for name in ["fruits_2layer_thumbsize", "tiger_3layer_3res", "tiger_3layer_1res", "abandoned_filmgrain"] {
            known["xiph/\(name).avif"] = layers
        }
        return known
    }()

    static let corpusEnabled = ProcessInfo.processInfo.environment["GLIMPSE_AVIF_PLANES_CORPUS"] == "1"

    /// Every `.avif` of ../shared/corpus/avif that avifdec decodes, against avifdec (about two
    /// minutes in release, far longer in debug: hence the environment variable). The files of
    /// ``knownDifferences`` are expected to differ or be refused, and are reported as known issues.
    @Test(.enabled(if: corpusEnabled && avifdec != nil && Fixtures.corpus("avif") != nil))
    func wholeCorpusMatchesAvifdec() throws {
        let root = try #require(Fixtures.corpus("avif"))
        let files = (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".avif") }.sorted()
        #expect(!files.isEmpty)
        var identical = 0
        for path in files {
            let url = root.appendingPathComponent(path)
            guard let expected = try Self.reference(url) else { continue }  // avifdec refuses it too
            if let reason = Self.knownDifferences[path] {
                withKnownIssue("\(path): \(reason)") {
                    let ours = try Self.decoded(try Fixtures.bytes(at: url))
                    #expect(ours == expected)
                }
                continue
            }
            let ours = try Self.decoded(try Fixtures.bytes(at: url))
            #expect(ours == expected, "\(path): \(Self.firstDifference(ours, expected))")
            if ours == expected { identical += 1 }
        }
        print("AVIF corpus: \(identical) files decode to planes identical to avifdec's")
    }
}
