import Foundation
import GlimpseCodec
import TestSupport
import Testing

/// ../shared/corpus/png/misc: real-world and hostile files against libpng.
@Suite("PNG: corpus misc")
struct PNGCorpusTests {
    static let directory = Fixtures.corpus("png/misc")

    /// Corrupt by design (corpus README): these must fail in strict mode.
    static let mustFail: Set<String> = [
        "pillow_broken.png", "pillow_broken_data_stream.png", "pillow_truncated_image.png",
        "pillow_truncated_end_chunk.png", "wuffs_hippopotamus.regular.truncated.png",
        "wuffs_hippopotamus.interlaced.truncated.png", "libpng_crashers_bad_iCCP.png",
        "libpng_crashers_badadler.png", "libpng_crashers_badcrc.png", "libpng_crashers_huge_IDAT.png",
    ]

    /// Files libpng decodes (with its default of dropping an ancillary chunk
    /// whose CRC is wrong) that strict mode rejects for that CRC.
    static let badAncillaryChecksum: Set<String> = [
        "imagers_bugfixes_cicp_pq.png", "imagers_bugfixes_issue_430.png", "pillow_unknown_compression_method.png",
    ]

    @Test("files libpng decodes decode identically; files it rejects are rejected", .enabled(if: directory != nil && ReferenceDecoder.executable != nil))
    func agreesWithLibpng() throws {
        let directory = try #require(Self.directory)
        let files = Fixtures.files(in: directory, extensions: [".png"])
        #expect(files.count > 300)
        let strict = DecodingOptions(mode: .strict)
        for file in files {
            let name = file.lastPathComponent
            let bytes = try Fixtures.bytes(at: file)
            let ours = Result { () throws(ImageDecodingError) in try PNG.Decoder.decode(bytes, options: strict) }
            let mustFail = Self.mustFail.contains(name) || name.hasPrefix("imagers_bugfixes_x_")
                || name.hasPrefix("libpng_crashers_huge_") || name.hasPrefix("swiftpng_ios_cgbi_")
            if mustFail {
                #expect(throws: ImageDecodingError.self, "\(name) must fail") { try ours.get() }
                continue
            }
            if let reference = ReferenceDecoder.decode(file) {
                let lenient = try PNG.Decoder.decode(bytes)
                #expect(lenient.pixels == reference, "\(name)")
                if Self.badAncillaryChecksum.contains(name) {
                    #expect(throws: ImageDecodingError.checksumMismatch, "\(name)") { try ours.get() }
                    #expect(!lenient.warnings.isEmpty, "\(name)")
                } else {
                    #expect(try ours.get().pixels == reference, "\(name)")
                    #expect(lenient.warnings.isEmpty, "\(name): \(lenient.warnings)")
                }
            } else {
                #expect(throws: ImageDecodingError.self, "\(name): libpng rejects it") { try ours.get() }
            }
        }
    }

    @Test("hostile ancillary chunks are ignored, pixels decode", .enabled(if: directory != nil))
    func hostileAncillaryChunks() throws {
        let directory = try #require(Self.directory)
        for name in ["pillow_png_decompression_dos.png", "pillow_unknown_compression_method.png",
                     "imagers_bugfixes_cicp_pq.png", "imagers_bugfixes_issue_430.png", "imagers_iccp_broken_iccp.png",
                     "libpng_crashers_empty_ancillary_chunks.png"] {
            let image = try PNG.Decoder.decode(try Fixtures.bytes(at: directory.appendingPathComponent(name)))
            #expect(image.width > 0, "\(name)")
        }
    }

    @Test("metadata: eXIf orientation, iCCP profile", .enabled(if: directory != nil))
    func metadata() throws {
        let directory = try #require(Self.directory)
        let icc = try PNG.Decoder.decode(try Fixtures.bytes(at: directory.appendingPathComponent("pillow_icc_profile.png")))
        let profile = try #require(icc.metadata.iccProfile)
        // An ICC profile starts with its own size (ICC.1 §7.2.2) and has `acsp` at 36.
        #expect(profile.count > 128)
        #expect(Int(profile[0]) << 24 | Int(profile[1]) << 16 | Int(profile[2]) << 8 | Int(profile[3]) == profile.count)
        #expect(Array(profile[36..<40]) == Array("acsp".utf8))
        let exif = try PNG.Decoder.decode(try Fixtures.bytes(at: directory.appendingPathComponent("pillow_exif.png")))
        #expect(exif.metadata.orientation != .up || exif.width > 0)
    }
}
