import Foundation
import Testing
import TestSupport
@testable import GlimpseCodec

/// Partial images of lossy stills: macroblock rows shown while the `VP8 ` chunk
/// arrives (one, two and eight token partitions, with and without `ALPH`), the final
/// pixels identical to libwebp's in every chunking, and copies of a decoder that
/// go on independently.
@Suite struct WebPLossyPartialTests {
    typealias Fixture = WebPLossyFixtureTests

    /// Feeds `bytes` in pieces of `sizes` (cycled) and checks every partial image: a
    /// prefix of the final rows, transparent black below, never fewer rows than before.
    /// Returns the final image and the most rows shown before the last piece.
    static func feed(_ bytes: [UInt8], sizes: [Int], final: PixelBuffer?) throws -> (PixelBuffer, Int) {
        var decoder = WebP.Decoder(options: DecodingOptions())
        var offset = 0, index = 0, shown = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + sizes[index % sizes.count])
            _ = try decoder.append(bytes[offset..<end])
            offset = end
            index += 1
            guard offset < bytes.count, let final, let partial = decoder.partialImage() else { continue }
            let frame = try #require(partial.frames.first)
            #expect(!frame.isComplete)
            let rows = Self.finalRows(frame.pixels, final)
            #expect(rows >= shown, "rows went back from \(shown) to \(rows)")
            shown = max(shown, rows)
        }
        let image = try decoder.finish()
        return (try #require(image.frames.first?.pixels), shown)
    }

    /// How many leading rows of `partial` equal `final`'s; every row after them must be 0.
    static func finalRows(_ partial: PixelBuffer, _ final: PixelBuffer) -> Int {
        let rowBytes = final.width * 4
        let zeros = [UInt8](repeating: 0, count: rowBytes)
        // memcmp: element-wise comparisons take seconds in a debug build.
        func same(_ a: [UInt8], _ b: [UInt8], _ aStart: Int, _ bStart: Int) -> Bool {
            a.withUnsafeBytes { x in b.withUnsafeBytes { y in memcmp(x.baseAddress! + aStart, y.baseAddress! + bStart, rowBytes) == 0 } }
        }
        var rows = 0
        while rows < final.height, same(partial.bytes, final.bytes, rows * rowBytes, rows * rowBytes) { rows += 1 }
        let clear = (rows..<final.height).allSatisfy { same(partial.bytes, zeros, $0 * rowBytes, 0) }
        #expect(clear, "rows below the decoded ones are not transparent black")
        return rows
    }

    @Test func rowsAppearAsTheChunkArrivesInEveryChunking() throws {
        #expect(Fixture.expected.count == 16)
        for fixture in Fixture.expected {
            let bytes = try Fixtures.bytes("webp-lossy/\(fixture.name)")
            let whole = try #require(try WebP.Decoder.decode(bytes).frames.first?.pixels)
            #expect(Fixture.fnv1a(whole.bytes) == fixture.hash, "\(fixture.name) differs from libwebp")
            for sizes in [[1], [7], [3, 1, 64, 2, 17]] {
                let (image, shown) = try Self.feed(bytes, sizes: sizes, final: whole)
                #expect(image.bytes == whole.bytes, "\(fixture.name) in pieces of \(sizes)")
                // Fed byte by byte, an image of several macroblock rows shows rows before its end.
                if sizes == [1], fixture.height > 32 { #expect(shown > 0, "\(fixture.name): no rows before the end") }
            }
        }
    }

    @Test func rowsWithAlphaAppearWithTheirAlpha() throws {
        for name in ["lossy-alpha-compressed.webp", "lossy.webp"] {
            let bytes = try WebPTestSupport.fixture(name)
            let whole = try #require(try WebP.Decoder.decode(bytes).frames.first?.pixels)
            let (image, _) = try Self.feed(bytes, sizes: [1], final: whole)
            #expect(image.bytes == whole.bytes, "\(name)")
        }
        // A corpus image with a lossless-compressed ALPH (1000×307), in 997-byte pieces.
        for name in ["lossy_alpha3.webp"] {
            guard let url = WebPTestSupport.shared("corpus/webp/\(name)") else { continue }
            let bytes = try [UInt8](Data(contentsOf: url))
            let whole = try #require(try WebP.Decoder.decode(bytes).frames.first?.pixels)
            let (image, shown) = try Self.feed(bytes, sizes: [997], final: whole)
            #expect(image.bytes == whole.bytes, "\(name)")
            #expect(shown > 0, "\(name): no rows before the end")
        }
    }

    /// A copy of a decoder in the middle of a lossy chunk goes on independently.
    @Test func copiesOfADecoderGoOnIndependently() throws {
        let bytes = try Fixtures.bytes("webp-lossy/partitions-2.webp")
        let whole = try WebP.Decoder.decode(bytes)
        var decoder = WebP.Decoder(options: DecodingOptions())
        let half = bytes.count / 2
        _ = try decoder.append(bytes[..<half])
        let before = decoder.partialImage()?.frames.first?.pixels.bytes
        var copy = decoder
        _ = try copy.append(bytes[half...])
        #expect(try copy.finish().frames.first?.pixels == whole.frames.first?.pixels)
        // The original has not moved on with its copy.
        #expect(decoder.partialImage()?.frames.first?.pixels.bytes == before)
        _ = try decoder.append(bytes[half...])
        #expect(try decoder.finish().frames.first?.pixels == whole.frames.first?.pixels)
    }

    /// An empty token partition is read past its end from the start (libwebp's
    /// `VP8InitBitReader` marks it so): the first macroblock of its first row fails
    /// even when it reads no tokens, the same way in every chunking. In this fuzzed
    /// file, token partition 0 of two is empty and the first three macroblocks skip
    /// their coefficients; fed in pieces, it used to fail at the fourth.
    @Test func anEmptyTokenPartitionFailsAtItsFirstMacroblockInEveryChunking() throws {
        let bytes = try Fixtures.bytes(at: Fixtures.repositoryRoot.appendingPathComponent(
            "Fuzz/Regressions/webp/empty-first-token-partition.webp"))
        let expected = WebP.LossyDefect.tokensEnded(column: 0, row: 0).error
        #expect(throws: expected) { _ = try WebP.Decoder.decode(bytes) }
        for pieces in [[1], [7], [3, 1, 64, 2, 17]] {
            var decoder = WebP.Decoder(options: DecodingOptions())
            var offset = 0, index = 0
            let error = #expect(throws: ImageDecodingError.self) {
                while offset < bytes.count {
                    let end = min(bytes.count, offset + pieces[index % pieces.count])
                    _ = try decoder.append(bytes[offset..<end])
                    offset = end
                    index += 1
                }
                _ = try decoder.finish()
            }
            #expect(error == expected, "in pieces of \(pieces)")
        }
    }

    /// Damaged partition sizes (RFC 6386 §9.5): each size of the two- and eight-partition
    /// fixtures set to 0 (an empty partition, which the next one follows at once), 1 and
    /// past the payload (clipped to what is left, as libwebp clips it) decode fed in
    /// pieces exactly as whole: the same pixels, or the same error.
    @Test func damagedPartitionSizesDecodeTheSameInEveryChunking() throws {
        for name in ["partitions-2.webp", "partitions-8.webp"] {
            let original = try Fixtures.bytes("webp-lossy/\(name)")
            let payload = 20
            let firstSize = (Int(original[payload]) | Int(original[payload + 1]) << 8 | Int(original[payload + 2]) << 16) >> 5
            let sizes = payload + 10 + firstSize
            let count = name == "partitions-2.webp" ? 2 : 8
            for partition in 0..<count - 1 {
                for size in [0, 1, 0xff_ffff] {
                    var bytes = original
                    let field = sizes + 3 * partition
                    bytes.replaceSubrange(field..<field + 3, with: [UInt8(size & 0xff), UInt8(size >> 8 & 0xff), UInt8(size >> 16)])
                    let whole = Result { () throws(ImageDecodingError) in try WebP.Decoder.decode(bytes).frames.first?.pixels }
                    for pieces in [[1], [7], [3, 1, 64, 2, 17]] {
                        var decoder = WebP.Decoder(options: DecodingOptions())
                        let streamed = Result { () throws(ImageDecodingError) -> PixelBuffer? in
                            var offset = 0, index = 0
                            while offset < bytes.count {
                                let end = min(bytes.count, offset + pieces[index % pieces.count])
                                _ = try decoder.append(bytes[offset..<end])
                                offset = end
                                index += 1
                            }
                            return try decoder.finish().frames.first?.pixels
                        }
                        let same: Bool = switch (whole, streamed) {
                        case (.success(let a), .success(let b)): a == b
                        case (.failure(let a), .failure(let b)): a == b
                        default: false
                        }
                        #expect(same, "\(name), partition \(partition) size \(size), pieces \(pieces): \(whole) against \(streamed)")
                    }
                }
            }
        }
    }

    /// Cut files still fail as a whole payload does, and keep the rows decoded so far.
    @Test func aCutChunkKeepsItsRowsAndFails() throws {
        let bytes = try Fixtures.bytes("webp-lossy/segments-4.webp")
        let whole = try #require(try WebP.Decoder.decode(bytes).frames.first?.pixels)
        var decoder = WebP.Decoder(options: DecodingOptions())
        _ = try decoder.append(bytes.dropLast(40))
        let partial = try #require(decoder.partialImage()?.frames.first)
        #expect(Self.finalRows(partial.pixels, whole) > 0)
        #expect(throws: ImageDecodingError.truncated) { _ = try decoder.finish() }
    }
}
