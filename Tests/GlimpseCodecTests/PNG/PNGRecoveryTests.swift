import Foundation
@testable import GlimpseCodec
import TestSupport
import Testing

/// Lenient decoding of damaged PNGs (libpng's defaults, as browsers show them),
/// and the strict mode that rejects the same files.
@Suite("PNG: recovery from damage")
struct PNGRecoveryTests {
    typealias Files = PNGDecoderTests
    static let strict = DecodingOptions(mode: .strict)
    static let directory = Fixtures.corpus("png/misc")

    /// The 4×3 test image, stored (level 0) so that every IDAT byte is a pixel byte.
    static var stored: [UInt8] {
        Files.file([("IHDR", Files.ihdr(4, 3)), ("IDAT", PNG.Deflate.compress(Files.rawScanlines, level: 0)), ("IEND", [])])
    }

    /// Rows `0..<rows` of the test image over transparent black.
    static func firstRows(_ rows: Int) -> PixelBuffer {
        var pixels = PixelBuffer(width: 4, height: 3)
        for y in 0..<rows { pixels.bytes.replaceSubrange(y * 16..<(y + 1) * 16, with: Files.pixels.row(y)) }
        return pixels
    }

    @Test("a missing IEND warns; strict rejects it")
    func missingEnd() throws {
        let bytes = Array(Files.valid.dropLast(12))
        let image = try PNG.Decoder.decode(bytes)
        #expect(image.pixels == Files.pixels)
        #expect(image.warnings == [DecodingWarning(.png(.missingEnd))])
        #expect(image.frames.first?.isComplete == true)
        #expect(throws: ImageDecodingError.truncated) { try PNG.Decoder.decode(bytes, options: Self.strict) }
    }

    @Test("a file cut inside IDAT keeps the rows decoded so far over transparent black")
    func cutInsideImageData() throws {
        let bytes = Self.stored
        // IHDR ends at 33; IDAT's header is 8 bytes, the zlib header 2, the stored block header 5.
        let firstPixel = 33 + 8 + 2 + 5
        for cut in firstPixel..<(bytes.count - 12 - 12) {
            let prefix = Array(bytes.prefix(cut))
            let rows = (cut - firstPixel) / 17
            let image = try PNG.Decoder.decode(prefix)
            let expectedWarning = rows == 3 ? PNG.Defect.missingEnd : .imageDataEnded
            #expect(image.warnings == [DecodingWarning(.png(expectedWarning))], "cut \(cut)")
            #expect(image.pixels == Self.firstRows(rows), "cut \(cut)")
            #expect(image.frames.first?.isComplete == (rows == 3))
            // The same in any chunking, and what partialImage() showed at that point.
            #expect(try Chunking.fixed(1).decode(PNG.Decoder.self, prefix).get() == image)
            if rows > 0 {
                var decoder = PNG.Decoder(options: DecodingOptions())
                _ = try decoder.append(prefix)
                #expect(decoder.partialImage()?.pixels == image.pixels)
            }
            #expect(throws: ImageDecodingError.truncated) { try PNG.Decoder.decode(prefix, options: Self.strict) }
        }
    }

    @Test("image data that ends before the last row (IDAT chunks or the zlib stream) keeps the rows so far")
    func shortImageData() throws {
        let raw = Files.rawScanlines
        // The zlib stream holds two rows.
        let twoRows = Files.file([("IHDR", Files.ihdr(4, 3)), ("IDAT", PNG.Deflate.compress(Array(raw.prefix(34)), level: 6)),
                                  ("IEND", [])])
        let image = try PNG.Decoder.decode(twoRows)
        #expect(image.pixels == Self.firstRows(2))
        #expect(image.warnings == [DecodingWarning(.png(.imageDataEnded))])
        #expect(throws: ImageDecodingError.truncated) { try PNG.Decoder.decode(twoRows, options: Self.strict) }
        // The IDAT chunks stop inside the third row's data, then IEND follows.
        let stored = PNG.Deflate.compress(raw, level: 0)
        let cut = Files.file([("IHDR", Files.ihdr(4, 3)), ("IDAT", Array(stored.prefix(7 + 17 + 5))), ("IEND", [])])
        let cutImage = try PNG.Decoder.decode(cut)
        #expect(cutImage.pixels == Self.firstRows(1))
        #expect(cutImage.warnings == [DecodingWarning(.png(.imageDataEnded))])
        #expect(throws: ImageDecodingError.truncated) { try PNG.Decoder.decode(cut, options: Self.strict) }
    }

    @Test("Adam7 cut short shows the completed passes, expanded as partialImage() does")
    func interlacedCut() throws {
        // 16×16 so that all seven passes hold pixels.
        var full = PixelBuffer(width: 16, height: 16)
        for i in 0..<full.bytes.count { full.bytes[i] = UInt8(truncatingIfNeeded: i &* 7 &+ i >> 6) }
        let encoded = try PNG.Encoder(options: PNG.Encoder.Options(compressionLevel: 0, interlaced: true)).encode(full)
        var sawPasses = Set<Int>()
        for cut in stride(from: 60, to: encoded.count - 12, by: 7) {
            let prefix = Array(encoded.prefix(cut))
            guard let image = try? PNG.Decoder.decode(prefix) else { continue }
            var decoder = PNG.Decoder(options: DecodingOptions())
            _ = try decoder.append(prefix)
            let passes = decoder.scanlines?.completedPasses ?? 0
            sawPasses.insert(passes)
            let expected = passes == 0 ? PixelBuffer(width: 16, height: 16) : PNG.Interlace.preview(full, completedPasses: passes)
            #expect(image.pixels == expected, "cut \(cut)")
            if passes > 0 { #expect(decoder.partialImage()?.pixels == expected) }
        }
        #expect(sawPasses.count >= 5)
    }

    @Test("a bad Adler-32 after the last row warns; a critical chunk's bad CRC stays an error")
    func checksums() throws {
        var badAdler = Files.idat
        badAdler[badAdler.count - 1] ^= 1
        let bytes = Files.file([("IHDR", Files.ihdr(4, 3)), ("IDAT", badAdler), ("IEND", [])])
        let image = try PNG.Decoder.decode(bytes)
        #expect(image.pixels == Files.pixels)
        #expect(image.warnings == [DecodingWarning(.png(.imageDataChecksum))])
        #expect(throws: ImageDecodingError.checksumMismatch) { try PNG.Decoder.decode(bytes, options: Self.strict) }
        var badCRC = Files.valid
        badCRC[33 + 8 + Files.idat.count] ^= 1  // first CRC byte of IDAT
        #expect(throws: ImageDecodingError.checksumMismatch) { try PNG.Decoder.decode(badCRC) }
        var badHeader = Files.valid
        badHeader[29] ^= 1  // IHDR's CRC
        #expect(throws: ImageDecodingError.checksumMismatch) { try PNG.Decoder.decode(badHeader) }
        // An unknown ancillary chunk (skipped, never parsed) with a bad CRC warns too, as in libpng.
        var unknown = Files.file([("IHDR", Files.ihdr(4, 3)), ("prVt", [1, 2, 3]), ("IDAT", Files.idat), ("IEND", [])])
        unknown[33 + 8 + 3] ^= 1
        #expect(try PNG.Decoder.decode(unknown).warnings == [DecodingWarning(.png(.ancillaryChecksum(PNG.ChunkType("prVt"))))])
        #expect(throws: ImageDecodingError.checksumMismatch) { try PNG.Decoder.decode(unknown, options: Self.strict) }
    }

    @Test("damaged corpus files recover as the corpus README allows", .enabled(if: directory != nil))
    func corpusFiles() throws {
        let directory = try #require(Self.directory)
        func load(_ name: String) throws -> [UInt8] { try Fixtures.bytes(at: directory.appendingPathComponent(name)) }
        let endCut = try PNG.Decoder.decode(try load("pillow_truncated_end_chunk.png"))
        #expect(endCut.warnings == [DecodingWarning(.png(.missingEnd))])
        let adler = try PNG.Decoder.decode(try load("libpng_crashers_badadler.png"))
        #expect(adler.warnings == [DecodingWarning(.png(.imageDataChecksum))])
        #expect(throws: ImageDecodingError.checksumMismatch) { try PNG.Decoder.decode(try load("libpng_crashers_badcrc.png")) }
        let cicp = try PNG.Decoder.decode(try load("imagers_bugfixes_cicp_pq.png"))
        #expect(Set(cicp.warnings) == [DecodingWarning(.png(.ancillaryChecksum(PNG.ChunkType("cLLI")))),
                                       DecodingWarning(.png(.ancillaryChecksum(PNG.ChunkType("mDCV"))))])
        // Cut at 1024 bytes: the rows so far are the full file's rows.
        let full = try PNG.Decoder.decode(try load("wuffs_hippopotamus.regular.png")).pixels
        let cut = try PNG.Decoder.decode(try load("wuffs_hippopotamus.regular.truncated.png"))
        #expect(cut.warnings == [DecodingWarning(.png(.imageDataEnded))])
        let rows = (0..<full.height).prefix { cut.pixels.row($0) == full.row($0) }.count
        #expect(rows > 0 && rows < full.height)
        #expect((rows..<full.height).allSatisfy { cut.pixels.row($0).allSatisfy { $0 == 0 } })
        let interlaced = try PNG.Decoder.decode(try load("wuffs_hippopotamus.interlaced.truncated.png"))
        #expect(interlaced.warnings == [DecodingWarning(.png(.imageDataEnded))])
        #expect(interlaced.frames.first?.isComplete == false)
    }
}

/// Inputs on which png-diff (libpng against ours, both strict) disagreed, kept
/// in `Fuzz/Regressions/png-diff/`.
struct PNGDiffRegressionTests {
    /// Every row arrives but the zlib stream stops before its end block and
    /// Adler-32: libpng fails it ("Not enough image data"), so does strict mode;
    /// lenient mode shows the whole image with a warning.
    @Test func zlibStreamWithoutItsEnd() throws {
        let bytes = try Fixtures.bytes(at: Fixtures.repositoryRoot.appendingPathComponent("Fuzz/Regressions/png-diff/zlib-stream-without-end.png"))
        #expect(throws: ImageDecodingError.truncated) { try PNG.Decoder.decode(bytes, options: DecodingOptions(mode: .strict)) }
        let image = try PNG.Decoder.decode(bytes)
        #expect(image.warnings == [DecodingWarning(.png(.unterminatedImageData))])
        #expect(image.frames.first?.isComplete == true)
    }
}
