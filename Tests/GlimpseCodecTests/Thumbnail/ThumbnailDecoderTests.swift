import Foundation
import GlimpseCodec
import TestSupport
import Testing

/// The row-fed resize and the thumbnail decoder give exactly what the
/// whole-image paths give: streaming changes memory, never pixels.
@Suite("Thumbnail: row-fed resize and thumbnail decoder")
struct ThumbnailDecoderTests {
    typealias Resize = ImageTransformers.Resize

    /// A deterministic image with detail at every scale (and varying alpha when asked).
    static func pattern(width: Int, height: Int, format: PixelFormat = .rgba8, alpha: Bool = false) -> PixelBuffer {
        var pixels = PixelBuffer(width: width, height: height, format: .rgba8)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let noise = (x &* 73_856_093 ^ y &* 19_349_663) >> 5
                pixels.bytes[i] = UInt8(truncatingIfNeeded: x * 255 / max(1, width - 1))
                pixels.bytes[i + 1] = UInt8(truncatingIfNeeded: y * 255 / max(1, height - 1))
                pixels.bytes[i + 2] = UInt8(truncatingIfNeeded: noise)
                pixels.bytes[i + 3] = alpha ? UInt8(truncatingIfNeeded: 255 - (x + y) % 200) : 255
            }
        }
        return format == .rgba8 ? pixels : pixels.converted(to: format)
    }

    static func streamed(_ resize: Resize, _ source: PixelBuffer, band: Int) throws -> PixelBuffer {
        var stream = try resize.rowStream(sourceWidth: source.width, sourceHeight: source.height, format: source.format)
        let rowBytes = source.bytesPerRow
        source.bytes.withUnsafeBytes { raw in
            var y = 0
            while y < source.height {
                let count = min(band, source.height - y)
                stream.append(rows: raw.baseAddress! + y * rowBytes, count: count, bytesPerRow: rowBytes)
                y += count
            }
        }
        #expect(stream.rowsReceived == source.height)
        return stream.finish()
    }

    @Test("the row-fed resize equals the whole-image resize", arguments: PixelFormat.allCases)
    func rowStreamEqualsResize(format: PixelFormat) throws {
        let source = Self.pattern(width: 151, height: 117, format: format, alpha: true)
        let resizes = [
            Resize(width: 15, height: 15, mode: .fit),                        // box pre-reduction on both axes
            Resize(width: 64, height: 64, mode: .fit, allowsUpscaling: false), // filter only
            Resize(width: 30, height: 50, mode: .fill),                       // crop, then reduce
            Resize(width: 17, height: 90, mode: .stretch, filter: .mitchell, linearLight: true),
            Resize(width: 500, height: 500, mode: .fit, allowsUpscaling: false), // unchanged
            Resize(width: 12, height: 12, mode: .fit, reducingGap: nil),
        ]
        for resize in resizes {
            let whole = try resize.transform(source)
            for band in [1, 13, 1000] {
                #expect(try Self.streamed(resize, source, band: band) == whole, "\(resize.cacheKey) band \(band)")
            }
        }
    }

    @Test("limits and parameters are checked before the stream is made")
    func limits() {
        var limits = DecodingLimits()
        limits.maxWidth = 100
        #expect(throws: TransformError.limitExceeded(.width)) {
            _ = try Resize(width: 200, height: 10, mode: .stretch, allowsUpscaling: true, limits: limits)
                .rowStream(sourceWidth: 50, sourceHeight: 50, format: .rgba8)
        }
        #expect(throws: TransformError.emptyImage) {
            _ = try Resize(width: 20).rowStream(sourceWidth: 0, sourceHeight: 50, format: .rgba8)
        }
    }

    /// What the thumbnail must be: the whole decode fitted into the box.
    static func expected(_ bytes: [UInt8], box: Int, options: DecodingOptions = DecodingOptions()) throws -> Image {
        var image = try DecoderRegistry.standard.decode(bytes, options: options)
        image.frames = Array(image.frames.prefix(1))
        image = try Resize(width: box, height: box, mode: .fit, allowsUpscaling: false, appliesOrientation: false).transform(image)
        return try ImageTransformers.AutoOrient().transform(image)
    }

    @Test("PNG rows are resized as they are decoded, to the pixels of the whole-image path")
    func png() throws {
        for (format, alpha) in [(PixelFormat.rgba8, false), (.rgba8, true), (.rgba16, true)] {
            let source = Self.pattern(width: 300, height: 130, format: format, alpha: alpha)
            let bytes = try PNG.Encoder().encode(source)
            for box in [20, 100, 1000] {
                let expected = try Self.expected(bytes, box: box)
                for chunking in box == 20 ? [Chunking.oneShot, .random(seed: 7, maximum: 2048)] : [.oneShot] {
                    var decoder = ThumbnailDecoder(maxPixelSize: box)
                    for piece in chunking.split(bytes) {
                        try piece.withUnsafeBytes { try decoder.append($0) }
                    }
                    let thumbnail = try decoder.finish()
                    #expect(thumbnail == expected, "\(format) alpha \(alpha) box \(box) \(chunking)")
                }
            }
        }
    }

    @Test("Adam7 PNG, GIF and WebP take the whole-image path",
          arguments: ["png/ct6-d08-adam7.png", "png/apng-dispose-none.png", "gif/disposal.gif"])
    func wholeImagePath(_ fixture: String) throws {
        let bytes = try Fixtures.bytes(fixture)
        #expect(try ThumbnailDecoder.decode(bytes, maxPixelSize: 9) == (try Self.expected(bytes, box: 9)))
    }

    @Test("JPEG: DCT-scaled decode, then the resize, then the EXIF orientation",
          arguments: ["pillow-420.jpg", "pillow-progressive.jpg", "pillow-exif6.jpg", "cjpeg-progressive.jpg"])
    func jpeg(_ name: String) throws {
        let bytes = try Fixtures.bytes("jpeg/\(name)")
        let info = try JPEG.Decoder.decode(bytes).pixels
        for box in [7, 16, 40] {
            let scale = ThumbnailDecoder.scaleDenominator(width: info.width, height: info.height, box: box)
            let expected = try Self.expected(bytes, box: box, options: DecodingOptions(scaleDenominator: scale))
            let thumbnail = try ThumbnailDecoder.decode(bytes, maxPixelSize: box)
            #expect(thumbnail == expected, "box \(box)")
            #expect(thumbnail.metadata.orientation == .up)
            #expect(max(thumbnail.width, thumbnail.height) == min(box, max(info.width, info.height)))
            var chunked = ThumbnailDecoder(maxPixelSize: box)
            for piece in Chunking.fixed(7).split(bytes) {
                try piece.withUnsafeBytes { try chunked.append($0) }
            }
            #expect(try chunked.finish() == thumbnail, "box \(box), 7-byte pieces")
        }
    }

    @Test("the scale keeps the image at least as large as the box")
    func scaleChoice() {
        #expect(ThumbnailDecoder.scaleDenominator(width: 5120, height: 2880, box: 256) == 8)
        #expect(ThumbnailDecoder.scaleDenominator(width: 2040, height: 100, box: 256) == 4)
        #expect(ThumbnailDecoder.scaleDenominator(width: 2049, height: 100, box: 256) == 8)
        #expect(ThumbnailDecoder.scaleDenominator(width: 300, height: 300, box: 256) == 1)
    }

    @Test("damaged and empty input fail with the decoder's error")
    func failures() throws {
        var empty = ThumbnailDecoder(maxPixelSize: 10)
        #expect(throws: ThumbnailDecoder.Failure.decoding(.truncated)) { try empty.finish() }
        #expect(throws: ThumbnailDecoder.Failure.self) {
            try ThumbnailDecoder.decode([UInt8](repeating: 0x42, count: 64), maxPixelSize: 10)
        }
        let png = try PNG.Encoder().encode(Self.pattern(width: 40, height: 40))
        #expect(throws: ThumbnailDecoder.Failure.decoding(.truncated)) {
            try ThumbnailDecoder.decode(png.prefix(png.count / 2), maxPixelSize: 10,
                                        options: DecodingOptions(mode: .strict))
        }
        // Lenient: the rows that arrived, transparent black below, as the whole decode shows them.
        let lenient = try ThumbnailDecoder.decode(png.prefix(png.count / 2), maxPixelSize: 10)
        #expect(lenient == (try Self.expected(Array(png.prefix(png.count / 2)), box: 10)))
        #expect(lenient.frames[0].isComplete == false)
    }
}
