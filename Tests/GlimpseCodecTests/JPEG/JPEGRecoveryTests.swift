import Foundation
@testable import GlimpseCodec
import Testing
import TestSupport

/// The corpus files libjpeg-turbo decodes only with warnings (extraneous bytes,
/// a premature end, corrupt entropy data, an odd JFIF revision…), against
/// `refdecode --lenient` (= `djpeg`). Skipped when ../shared is absent.
@Suite("JPEG recovery", .enabled(if: Fixtures.corpus("jpeg") != nil))
struct JPEGRecoveryTests {
    /// `refdecode` fails on each of these and `refdecode --lenient` decodes it
    /// (found by running both over `../shared/corpus/jpeg`).
    static let warningFiles = [
        "jpegdec_crashtest_dc-predictor-overflow.jpg", "jpegdec_crashtest_extraneous-bytes-after-sos.jpg",
        "jpegdec_crashtest_imagetestsuite_194531363df5b73f59c4c0517422f917.jpg",
        "jpegdec_crashtest_imagetestsuite_1cbb1bb37d62c44f67374cd451643dc4.jpg",
        "jpegdec_crashtest_imagetestsuite_21ad703b38e2c350215bb92a849486f3.jpg",
        "jpegdec_crashtest_imagetestsuite_255015e07b6f9137b53b0f97d67a8aef.jpg",
        "jpegdec_crashtest_imagetestsuite_28c74d9284d9836017fd519f6932efd8.jpg",
        "jpegdec_crashtest_imagetestsuite_32d08f4a5eb10332506ebedbb9bc7257.jpg",
        "jpegdec_crashtest_imagetestsuite_39f43f280b31152f1d27df3f9d189317.jpg",
        "jpegdec_crashtest_imagetestsuite_3cc4a7fc6481ea3681138da4643f3d16.jpg",
        "jpegdec_crashtest_imagetestsuite_3ef05501315073d9d4e1c6b654d99ac0.jpg",
        "jpegdec_crashtest_imagetestsuite_46f5d9c1b0fe352353688f736e5617b6.jpg",
        "jpegdec_crashtest_imagetestsuite_4838ece0d3900220d33528ee027289bc.jpg",
        "jpegdec_crashtest_imagetestsuite_5482a54657765056f1a94116a8dbffe7.jpg",
        "jpegdec_crashtest_imagetestsuite_56d4a1bb53241f7c5ed6ab531320a542.jpg",
        "jpegdec_crashtest_imagetestsuite_59d3b529c78ac722127c41ba75b3355b.jpg",
        "jpegdec_crashtest_imagetestsuite_5baad44ca4702949724234e35c5bb341.jpg",
        "jpegdec_crashtest_imagetestsuite_5bc61724b33e34a6188a817f9f2f8138.jpg",
        "jpegdec_crashtest_imagetestsuite_5c67195f6993c9f8d0d32d4ffe0d8e62.jpg",
        "jpegdec_crashtest_imagetestsuite_75e4bd7544a85af6438497980b62fba5.jpg",
        "jpegdec_crashtest_imagetestsuite_7997b6b229f25315d33f5c7085e37500.jpg",
        "jpegdec_crashtest_imagetestsuite_8e5e74dbf9b68a322fbb9512db837329.jpg",
        "jpegdec_crashtest_imagetestsuite_9efd60f04cd971daa83d3131e6d6f389.jpg",
        "jpegdec_crashtest_imagetestsuite_a7326ba8f3f4559991126474dd30083d.jpg",
        "jpegdec_crashtest_imagetestsuite_b55977028a3a574336966b6536640fc9.jpg",
        "jpegdec_crashtest_imagetestsuite_ba60305ac83fe3d8ef01da1d9a0ecc79.jpg",
        "jpegdec_crashtest_imagetestsuite_c3018ebe53d0046eecb58858ca869a99.jpg",
        "jpegdec_crashtest_imagetestsuite_eecb78b937a7c5f04aae2f5b0f5b5acc.jpg",
        "jpegdec_crashtest_imagetestsuite_f6b4389c3cf0f5997b2e5a4b905aea8d.jpg",
        "jpegdec_crashtest_imagetestsuite_fd44dc63fa7bdd12ee34fc602231ef02.jpg",
        "jpegdec_crashtest_subtract-with-overflow.jpg", "jpegdec_reftest_extraneous-data.jpg",
        "jpegdec_reftest_mjpeg.jpg", "jpegdec_reftest_partial_progressive.jpg",
        "jpegdec_reftest_progressive-missing-dc.jpg", "pillow_hopper_bad_exif.jpg", "pillow_jpeg_ff00_header.jpg",
        "pillow_junk_jpeg_header.jpg", "pillow_photoshop-200dpi-broken.jpg", "pillow_truncated_app14.jpg",
        "pillow_truncated_jpeg.jpg", "pillow_ultrahdr.jpg", "wuffs_blinksuite_182.0-original.jpg",
        "wuffs_blinksuite_182.1-byte-change.jpg", "wuffs_blinksuite_182.2-byte-change.jpg",
        "wuffs_peacock.default.truncated.jpeg", "wuffs_peacock.progressive.truncated.jpeg", "zune_incomplete_image.jpg",
    ]

    /// Debug builds decode slowly: the eleven files above this size are compared in
    /// release builds only, and reported as skipped in debug ones (see the JPEG README).
    static let maxPixels = 300_000

    @Test("every warning file decodes leniently as refdecode --lenient does, with warnings; strict fails",
          .enabled(if: ReferenceDecoder.executable != nil), arguments: warningFiles)
    func warningFile(_ name: String) throws {
        let url = try #require(Fixtures.corpus("jpeg/\(name)"))
        let bytes = try Fixtures.bytes(at: url)
        #if DEBUG
        if JPEGCorpusTests.pixelCount(bytes) > Self.maxPixels { try Test.cancel("\(name): compared in release builds only") }
        #endif
        let reference = try #require(ReferenceDecoder.decode(url, lenient: true), "\(name): refdecode --lenient rejects it")
        let image = try JPEG.Decoder.decode(bytes)
        #expect(image.pixels.bytes == reference.bytes, "\(name): \(JPEGTestSupport.compare(image.pixels, reference))")
        #expect(!image.warnings.isEmpty, "\(name): no warning")
        #expect(throws: ImageDecodingError.self) { try JPEG.Decoder.decode(bytes, options: DecodingOptions(mode: .strict)) }
    }

    @Test("a truncated file decodes the same in any chunking", arguments: [
        "wuffs_peacock.default.truncated.jpeg", "wuffs_peacock.progressive.truncated.jpeg",
        "jpegdec_crashtest_imagetestsuite_7997b6b229f25315d33f5c7085e37500.jpg",
        "jpegdec_crashtest_imagetestsuite_c3018ebe53d0046eecb58858ca869a99.jpg",
    ])
    func chunking(_ name: String) throws {
        let url = try #require(Fixtures.corpus("jpeg/\(name)"))
        let bytes = try Fixtures.bytes(at: url)
        let whole = try JPEG.Decoder.decode(bytes)
        for chunking in Chunking.standard {
            let image = try chunking.decode(JPEG.Decoder.self, bytes).get()
            #expect(image.pixels.bytes == whole.pixels.bytes, "\(name) \(chunking)")
            #expect(image.warnings == whole.warnings, "\(name) \(chunking)")
        }
    }

    @Test("warnings name what was recovered")
    func warningKinds() throws {
        func warnings(_ name: String) throws -> [DecodingWarning] {
            let url = try #require(Fixtures.corpus("jpeg/\(name)"))
            return try JPEG.Decoder.decode(Fixtures.bytes(at: url)).warnings
        }
        #expect(try warnings("wuffs_peacock.default.truncated.jpeg").contains(DecodingWarning(.jpeg(.prematureEnd))))
        #expect(try warnings("pillow_junk_jpeg_header.jpg") == [DecodingWarning(.jpeg(.extraneousBytes(count: 5, marker: 0xDB)))])
        #expect(try warnings("jpegdec_reftest_progressive-missing-dc.jpg")
            .contains(DecodingWarning(.jpeg(.progressionSequence(component: 0, coefficient: 0)))))
        #expect(try warnings("jpegdec_crashtest_imagetestsuite_9efd60f04cd971daa83d3131e6d6f389.jpg")
            .contains(DecodingWarning(.jpeg(.jfifVersion(major: 255, minor: 1)))))
        #expect(try warnings("wuffs_peacock.default.jpeg").isEmpty)
    }
}
