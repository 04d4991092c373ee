import Foundation
import Testing
import TestSupport
@testable import GlimpseCodec

/// The lossless encoder: every file it writes decodes, in Glimpse and in libwebp
/// (`dwebp`), to exactly the pixels it was given.
@Suite(.enabled(if: WebPEncoderTestSupport.dwebp != nil)) struct WebPLosslessEncoderTests {
    typealias T = WebPEncoderTestSupport

    @Test("odd sizes: 1×1, 17×13, a 16383-wide strip")
    func oddSizes() throws {
        let onePixel = PixelBuffer(width: 1, height: 1, bytes: [12, 200, 7, 99])!
        try T.expectRoundTrip(onePixel, "1×1")
        try T.expectRoundTrip(T.photoLike(width: 17, height: 13, alpha: true), "17×13")
        // Effort 2 keeps the debug build quick; the width is what is tested.
        try T.expectRoundTrip(T.photoLike(width: 16383, height: 2, seed: 5), options: .init(lossless: true, effort: 2), "16383×2")
    }

    @Test("palettes of 2, 4, 16 and 256 colours bundle their indices and round-trip", arguments: [2, 4, 16, 256])
    func palettes(colors: Int) throws {
        let pixels = T.paletted(width: 37, height: 19, colors: colors, seed: UInt64(colors))
        let bytes = try T.expectRoundTrip(pixels, "\(colors) colours")
        // The colour-indexing transform comes first: bit 0 of the byte after the 5-byte header
        // says a transform follows, the next two its type (3).
        let chunk = try #require(WebPLosslessTestSupport.vp8lChunk(bytes))
        #expect(chunk.payload[chunk.payload.startIndex + 5] & 7 == 1 | 3 << 1,
                "\(colors) colours: the first transform is colour indexing")
    }

    @Test("every effort level round-trips, and higher levels are not larger than effort 0")
    func effortLevels() throws {
        let pixels = T.photoLike(width: 40, height: 33, seed: 9, alpha: true)
        var sizes: [Int] = []
        for effort in 0...9 {
            let bytes = try T.expectRoundTrip(pixels, options: .init(lossless: true, effort: effort), "effort \(effort)")
            sizes.append(bytes.count)
        }
        #expect(sizes[6] <= sizes[0], "sizes by effort: \(sizes)")
    }

    @Test("exact keeps the colour under transparent pixels; exact: false zeroes it")
    func transparentColor() throws {
        // Noise under every third pixel, made fully transparent.
        var pixels = T.photoLike(width: 40, height: 30, seed: 3)
        var random = SplitMix(seed: 11)
        for index in stride(from: 0, to: pixels.pixelCount, by: 3) {
            let noise = random.next()
            pixels.bytes.replaceSubrange(index * 4..<index * 4 + 4,
                                         with: [UInt8(truncatingIfNeeded: noise), UInt8(truncatingIfNeeded: noise >> 8),
                                                UInt8(truncatingIfNeeded: noise >> 16), 0])
        }
        try T.expectRoundTrip(pixels, options: .init(lossless: true, exact: true), "exact")
        var cleared = pixels
        for index in 0..<pixels.pixelCount where pixels.bytes[index * 4 + 3] == 0 {
            cleared.bytes.replaceSubrange(index * 4..<index * 4 + 3, with: [0, 0, 0])
        }
        let inexact = try T.expectRoundTrip(pixels, options: .init(lossless: true, exact: false), expected: cleared, "not exact")
        let exact = try WebP.Encoder(options: .init(lossless: true, exact: true)).encode(pixels)
        #expect(inexact.count < exact.count)
    }

    @Test("16-bit pixels are written by their high byte")
    func sixteenBit() throws {
        let pixels = T.photoLike(width: 11, height: 6, alpha: true)
        try T.expectRoundTrip(pixels.converted(to: .rgba16), expected: pixels, "rgba16")
    }

    @Test("bench and photo PNGs round-trip at the default effort")
    func benchImages() throws {
        let shared = try #require(Fixtures.shared)
        #if DEBUG
        let names = ["bench/photos-512/1001682.png"]
        #else
        let names = ["bench/photos-512/1001682.png", "bench/photos-512/1028637.png", "bench/png/palette8-2560x1600.png"]
        #endif
        for name in names {
            let image = try DecoderRegistry.standard.decode(try Fixtures.bytes(at: shared.appendingPathComponent(name)))
            #if DEBUG
            // Debug builds encode a 160×120 corner (release the whole image).
            var corner = PixelBuffer(width: 160, height: 120)
            for y in 0..<120 { corner.bytes.replaceSubrange(corner.rowRange(y), with: image.pixels.bytes[y * image.pixels.bytesPerRow..<y * image.pixels.bytesPerRow + 640]) }
            try T.expectRoundTrip(corner, name)
            #else
            try T.expectRoundTrip(image.pixels, name)
            #endif
        }
    }

    @Test("bad options and oversized images are typed errors")
    func errors() {
        let pixels = T.photoLike(width: 4, height: 4)
        #expect(throws: WebP.Encoder.EncodingError.invalidOptions("effort 10 outside 0...9")) {
            try WebP.Encoder(options: .init(lossless: true, effort: 10)).encode(pixels)
        }
        #expect(throws: WebP.Encoder.EncodingError.unsupportedSize(width: 16385, height: 1)) {
            try WebP.Encoder(options: .init(lossless: true)).encode(PixelBuffer(width: 16385, height: 1))
        }
        #expect(throws: ImageEncodingError.self) {
            try EncoderRegistry.standard.encode(Image(pixels: pixels, format: .png), as: .webp,
                                                options: EncodingOptions(webp: .init(lossless: true, effort: -1)))
        }
    }

    @Test("the standard registry writes lossless WebP when asked")
    func registry() throws {
        let image = Image(pixels: T.photoLike(width: 9, height: 5), format: .png)
        let bytes = try image.encoded(as: .webp, options: EncodingOptions(webp: .init(lossless: true)))
        #expect(try DecoderRegistry.standard.decode(bytes).pixels == image.pixels)
    }
}
