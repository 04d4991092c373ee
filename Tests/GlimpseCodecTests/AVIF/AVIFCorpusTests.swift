import Foundation
import Testing
import TestSupport
@testable import GlimpseCodec

/// Every file of `../shared/corpus/avif` parsed, against what libavif's `avifdec --info`
/// (0.11 with dav1d) reports: size (after its crop rectangle and `irot`), depth, sampling,
/// alpha, colour description, ICC, Exif, XMP, frame count; the files it rejects rejected
/// here with a typed error, but for the `clap` crops libavif 1.x accepts. Only the container
/// and headers: the pixels are compared in ``AVIFImageTests``.
@Suite struct AVIFCorpusTests {
    static let files: [URL] = {
        guard let root = Fixtures.corpus("avif") else { return [] }
        return ["link-u", "microsoft", "netflix-avif", "netflix-avis", "xiph"].flatMap {
            Fixtures.files(in: root.appendingPathComponent($0), extensions: [".avif"])
        }
    }()

    static let avifdec: String? = ["/usr/bin/avifdec", "/usr/local/bin/avifdec"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Debug builds compare against avifdec only for files under this size (it decodes every
    /// frame for `--info`, seconds for the 4K ones); release compares them all.
    static var referenceSizeLimit: Int {
        #if DEBUG
        150 << 10
        #else
        Int.max
        #endif
    }

    /// `clap` crops at odd positions of 4:2:0 images (odd x in the kimonos, odd y in the Chimera): libavif 0.11 refused them, libavif 1.x
    /// (and Glimpse) crop the RGB pixels. avifdec 0.11 gives no info to compare with.
    static let acceptedSinceLibavif1: Set<String> = ["kimono.crop.avif", "kimono.mirror-vertical.rotate270.crop.avif",
                                                     "Chimera_8bit_cropped_480x256.avif"]

    @Test func corpusIsPresent() {
        #expect(Self.files.count >= 150 || Fixtures.corpus("avif") == nil)
    }

    @Test(.enabled(if: !files.isEmpty), arguments: files)
    func parsesLikeLibavif(_ url: URL) throws {
        let bytes = try Fixtures.bytes(at: url)
        var decoder = AVIF.Decoder(options: DecodingOptions())
        let parsed = Result { () throws(ImageDecodingError) in try decoder.append(bytes) }
        let reference = Self.avifdec != nil && bytes.count <= Self.referenceSizeLimit ? AVIFInfo(url) : nil
        if reference?.rejected == true && !Self.acceptedSinceLibavif1.contains(url.lastPathComponent) {
            // What libavif refuses is refused by the headers or the container, before any frame
            // is decoded (finish() only reaches the end-of-input checks here).
            let ours = Result { () throws(ImageDecodingError) in
                if try parsed.get() != .complete { _ = try decoder.finish() }
            }
            guard case .failure(.malformed(.avif)) = ours else {
                Issue.record("\(url.lastPathComponent): libavif rejects it, Glimpse gives \(ours)")
                return
            }
            return
        }
        #expect((try? parsed.get()) == .complete, "\(url.lastPathComponent): \(parsed)")
        let info = try #require(decoder.info)
        let coded = try #require(decoder.codedImage)
        guard let reference, !reference.rejected else {
            // Parsed and checked above; the comparison with libavif needs avifdec, and in debug
            // builds a file under the size limit (release builds compare every file).
            try Test.cancel("\(url.lastPathComponent): parsed, not compared with avifdec here")
        }
        let name = url.lastPathComponent
        #expect(info.width == reference.width && info.height == reference.height,
                "\(name): \(info.width)x\(info.height), avifdec \(reference.width)x\(reference.height)")
        #expect(info.bitDepth == reference.bitDepth, "\(name)")
        let color = coded.sequenceHeader.color
        let format = color.isMonochrome ? "YUV400" : !color.subsamplingX ? "YUV444" : color.subsamplingY ? "YUV420" : "YUV422"
        #expect(format == reference.format, "\(name): \(format), avifdec \(reference.format)")
        #expect(info.hasAlpha == reference.hasAlpha, "\(name)")
        if let points = info.metadata.cicp {
            #expect([Int(points.colorPrimaries), Int(points.transferCharacteristics), Int(points.matrixCoefficients)]
                == reference.codePoints, "\(name): \(points)")
            #expect(points.isFullRange == reference.isFullRange, "\(name): range")
        }
        #expect(info.metadata.iccProfile?.count == reference.iccBytes, "\(name): ICC")
        #expect(info.metadata.exif?.count == reference.exifBytes, "\(name): Exif")
        #expect(info.metadata.xmp?.count == reference.xmpBytes, "\(name): XMP")
        #expect(info.frameCount == reference.frames, "\(name): frames")
    }

    /// Prefixes of every file: need-more-data while appending, then at the end
    /// `truncated` or a typed defect, never a crash; and the same info fed in pieces.
    @Test(.enabled(if: !files.isEmpty)) func truncatedPrefixes() throws {
        for url in Self.files {
            let bytes = try Fixtures.bytes(at: url)
            let cuts = Set([0, 1, 7, 8, 16, 31, 64, 100, 200, 300, 500, 800, 1200, 2000] + (1..<8).map { bytes.count * $0 / 8 })
            for cut in cuts.sorted() where cut < bytes.count {
                // Strict: a cut that leaves the image's data whole but an Exif item or the movie
                // box short is `truncated`, not decoded (lenient decoding gives the pixels).
                var decoder = AVIF.Decoder(options: DecodingOptions(mode: .strict))
                let status = Result { () throws(ImageDecodingError) in try decoder.append(bytes.prefix(cut)) }
                // A cut after everything the image needs (the rest: an unreferenced box) is complete.
                if case .success(.complete) = status { continue }
                let end = Result { () throws(ImageDecodingError) in try decoder.finish() }
                switch (status, end) {
                case (.success(.needMoreData), .failure(.truncated)), (.failure(.malformed(.avif)), _), (_, .failure(.malformed(.avif))): break
                default: Issue.record("\(url.lastPathComponent) cut at \(cut): \(status), \(end)")
                }
            }
            // Pieces of 997 bytes: the small files (a debug build feeds the 4K ones slowly).
            guard bytes.count <= 256 << 10 else { continue }
            var whole = AVIF.Decoder(options: DecodingOptions())
            _ = try? whole.append(bytes)
            var pieces = AVIF.Decoder(options: DecodingOptions())
            var offset = 0
            while offset < bytes.count, (try? pieces.append(bytes[offset..<min(bytes.count, offset + 997)])) == .needMoreData {
                offset += 997
            }
            #expect(pieces.info == whole.info, "\(url.lastPathComponent) in pieces")
        }
    }

    /// `AutoDecoder` and the standard registry route AVIF to this decoder (the 4K file's info;
    /// ``AVIFImageTests`` decodes through the registry).
    @Test(.enabled(if: Fixtures.corpus("avif/microsoft/bbb_alpha_inverted.avif") != nil)) func registryGivesInfo() throws {
        let bytes = try Fixtures.bytes(at: try #require(Fixtures.corpus("avif/microsoft/bbb_alpha_inverted.avif")))
        var decoder = AutoDecoder(registry: .standard)
        _ = try decoder.append(bytes)
        let info = try #require(decoder.info)
        #expect(info.format == .avif && info.width == 3840 && info.height == 2160 && info.hasAlpha && info.bitDepth == 8)
    }
}

/// What `avifdec --info FILE` prints, parsed.
struct AVIFInfo {
    var rejected = false
    var width = 0, height = 0, bitDepth = 0
    var format = ""
    var hasAlpha = false
    var isFullRange = false
    var codePoints: [Int] = []
    var iccBytes: Int?, exifBytes: Int?, xmpBytes: Int?
    var frames = 1

    init?(_ url: URL) {
        guard let tool = AVIFCorpusTests.avifdec, let result = ReferenceDecoder.run(tool, ["--info", url.path]) else { return nil }
        if result.status != 0 { rejected = true; return }
        var crop: (Int, Int)?, rotation = 0
        for line in result.output.split(separator: "\n").map(String.init) {
            let value = line.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            func bytes() -> Int? { value.hasPrefix("Present") ? Int(value.split(separator: "(")[1].split(separator: " ")[0]) : nil }
            switch line.split(separator: ":").first.map({ $0.trimmingCharacters(in: .whitespaces) }) ?? "" {
            case "* Resolution":
                let parts = value.split(separator: "x").compactMap { Int($0) }
                if parts.count == 2 { (width, height) = (parts[0], parts[1]) }
            case "* Bit Depth": bitDepth = Int(value) ?? 0
            case "* Format": format = value
            case "* Alpha": hasAlpha = value != "Absent"
            case "* Range": isFullRange = value == "Full"
            case "* Color Primaries", "* Transfer Char.", "* Matrix Coeffs.": codePoints.append(Int(value) ?? -1)
            case "* ICC Profile": iccBytes = bytes()
            case "* XMP Metadata": xmpBytes = bytes()
            case "* Exif Metadata": exifBytes = bytes()
            case "* irot (Rotation)": rotation = Int(value) ?? 0
            default:
                if line.contains("derived crop rect") {
                    let fields = line.split(separator: " ").map(String.init)
                    if let w = fields.firstIndex(of: "W:"), let h = fields.firstIndex(of: "H:") {
                        crop = (Int(fields[w + 1].trimmingCharacters(in: .punctuationCharacters)) ?? 0,
                                Int(fields[h + 1].trimmingCharacters(in: .punctuationCharacters)) ?? 0)
                    }
                }
                if line.contains("timescales per second"), let last = line.split(separator: ",").last {
                    frames = Int(last.trimmingCharacters(in: .whitespaces).split(separator: " ")[0]) ?? 1
                }
            }
        }
        if let crop { (width, height) = crop }
        if rotation % 2 == 1 { (width, height) = (height, width) }
    }
}
