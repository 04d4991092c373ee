import Foundation
import Testing
import TestSupport
@testable import GlimpseCodec

/// The lossy (VP8) encoder: what it writes decodes, in Glimpse and in libwebp, to
/// exactly what the encoder reconstructed, and looks like its input.
@Suite struct WebPLossyEncoderTests {
    typealias T = WebPEncoderTestSupport

    /// Glimpse's decoding of a bare `VP8 ` payload.
    static func decodePayload(_ payload: [UInt8], width: Int, height: Int) throws -> [UInt8] {
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        try WebP.LossyDecoder.decode(payload[...], into: &rgba)
        return rgba
    }

    /// PSNR of the RGB channels of `b` against `a` (RGBA8 bytes of the same size).
    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        var sum = 0.0, count = 0
        for i in a.indices where i % 4 != 3 {
            let d = Double(Int(a[i]) - Int(b[i]))
            sum += d * d
            count += 1
        }
        return sum == 0 ? 99 : 10 * log10(255 * 255 * Double(count) / sum)
    }

    /// A 128×128 crop of the first `photos-512` image, when `../shared` is there.
    static let photo: PixelBuffer? = {
        guard let folder = Fixtures.shared?.appendingPathComponent("bench/photos-512"),
              let name = try? FileManager.default.contentsOfDirectory(atPath: folder.path).filter({ $0.hasSuffix(".png") }).sorted().first,
              let bytes = try? Fixtures.bytes(at: folder.appendingPathComponent(name)),
              let image = try? PNG.Decoder.decode(bytes) else { return nil }
        let full = image.pixels.converted(to: .rgba8)
        var crop = PixelBuffer(width: 128, height: 128)
        for y in 0..<128 {
            let source = ((y + 192) * full.width + 192) * 4
            crop.bytes.replaceSubrange(y * 512..<(y + 1) * 512, with: full.bytes[source..<source + 512])
        }
        return crop
    }()

    @Test("our decoder reconstructs exactly the encoder's reconstruction (sizes, qualities, methods, partitions, segments)",
          arguments: [(1, 1, 75, 4, 1, true), (17, 13, 75, 4, 1, false), (40, 23, 5, 4, 2, true), (33, 35, 95, 4, 4, true),
                      (48, 16, 50, 0, 8, false), (21, 37, 30, 6, 1, true)])
    func reconstruction(width: Int, height: Int, quality: Int, method: Int, partitions: Int, segments: Bool) throws {
        let pixels = T.photoLike(width: width, height: height, seed: UInt64(width * height))
        let settings = WebP.LossyEncoder.Settings(quality: quality, method: method, partitions: partitions, segments: segments)
        let (payload, reconstruction) = try WebP.LossyEncoder.encode(rgba: pixels.bytes, width: width, height: height,
                                                                     settings: settings)
        let decoded = try Self.decodePayload(payload, width: width, height: height)
        #expect(decoded == reconstruction.rgba())
    }

    @Test("libwebp decodes our files to the pixels our decoder gives", .enabled(if: T.dwebp != nil))
    func libwebpAgrees() throws {
        let cases: [(PixelBuffer, WebP.Encoder.Options)] = [
            (T.photoLike(width: 1, height: 1), .init()),
            (T.photoLike(width: 17, height: 13, seed: 2), .init(quality: 20)),
            (T.photoLike(width: 50, height: 33, seed: 3), .init(method: 0, quality: 90)),
            (T.photoLike(width: 35, height: 18, seed: 4, alpha: true), .init(method: 6, quality: 60)),
            (T.paletted(width: 24, height: 24, colors: 5, seed: 6), .init(quality: 100)),
        ] + (Self.photo.map { [($0, WebP.Encoder.Options())] } ?? [])
        for (pixels, options) in cases {
            let bytes = try WebP.Encoder(options: options).encode(pixels)
            let ours = try WebP.Decoder.decode(bytes).pixels
            let theirs = try #require(try T.libwebpPixels(bytes), "dwebp refused the file")
            #expect(theirs == ours, "\(pixels.width)×\(pixels.height) q\(options.quality) m\(options.method)")
        }
        // Several token partitions, which the public options leave at one as cwebp does.
        let pixels = T.photoLike(width: 40, height: 70, seed: 9)
        let settings = WebP.LossyEncoder.Settings(partitions: 4)
        let payload = try WebP.LossyEncoder.encode(rgba: pixels.bytes, width: 40, height: 70, settings: settings).bitstream
        let file = WebP.ContainerWriter().lossyStill(payload, alpha: nil, width: 40, height: 70)
        #expect(try T.libwebpPixels(file) == (try WebP.Decoder.decode(file).pixels))
    }

    @Test("quality orders the error and the size; PSNR stays above measured floors")
    func quality() throws {
        let synthetic = T.photoLike(width: 64, height: 48, seed: 11)
        // Floors a little under the values measured when these were written (see the commit message).
        var sizes: [Int] = []
        for (quality, floor) in [(10, 30.0), (50, 32.5), (75, 33.3), (95, 38.9)] {
            let bytes = try WebP.Encoder(options: .init(quality: quality)).encode(synthetic)
            let decoded = try WebP.Decoder.decode(bytes).pixels
            let value = Self.psnr(synthetic.bytes, decoded.bytes)
            #expect(value >= floor, "synthetic q\(quality): \(value) dB")
            sizes.append(bytes.count)
        }
        #expect(sizes == sizes.sorted(), "\(sizes)")
    }

    @Test("a photo keeps its PSNR floors", .enabled(if: photo != nil))
    func photoQuality() throws {
        let photo = try #require(Self.photo)
        for (quality, floor) in [(50, 29.0), (75, 30.5), (90, 33.4)] {
            let decoded = try WebP.Decoder.decode(try WebP.Encoder(options: .init(quality: quality)).encode(photo)).pixels
            let value = Self.psnr(photo.bytes, decoded.bytes)
            #expect(value >= floor, "photo q\(quality): \(value) dB")
        }
    }

    @Test("alpha survives exactly in an ALPH chunk; opaque images carry none")
    func alpha() throws {
        let pixels = T.photoLike(width: 29, height: 21, seed: 5, alpha: true)
        let bytes = try WebP.Encoder().encode(pixels)
        #expect(WebPEncoderContainerTests.tags(bytes) == ["VP8X", "ALPH", "VP8 "])
        let decoded = try WebP.Decoder.decode(bytes).pixels
        #expect(stride(from: 3, to: pixels.bytes.count, by: 4).allSatisfy { decoded.bytes[$0] == pixels.bytes[$0] })

        let opaque = try WebP.Encoder().encode(T.photoLike(width: 29, height: 21, seed: 5))
        #expect(WebPEncoderContainerTests.tags(opaque) == ["VP8 "])
        var metadata = ImageMetadata()
        metadata.iccProfile = [1, 2, 3]
        let withProfile = try WebP.Encoder().encode(T.photoLike(width: 9, height: 9), metadata: metadata)
        #expect(WebPEncoderContainerTests.tags(withProfile) == ["VP8X", "ICCP", "VP8 "])
        #expect(try WebP.Decoder.decode(withProfile).metadata.iccProfile == [1, 2, 3])
    }

    @Test("each alpha filter's residues undo to the plane")
    func alphaFilters() {
        let plane = (0..<(13 * 7)).map { UInt8(truncatingIfNeeded: $0 * 37 ^ $0 >> 2) }
        for filter in WebP.AlphaFilter.allCases {
            var residues = WebP.AlphaEncoder.filter(plane, width: 13, height: 7, filter)
            WebP.AlphaPlane.unfilter(&residues, width: 13, height: 7, filter: filter)
            #expect(residues == plane, "\(filter)")
        }
    }

    @Test("options out of range and oversized images are typed errors; lossy is the default")
    func options() throws {
        let pixels = T.photoLike(width: 4, height: 4)
        #expect(throws: WebP.Encoder.EncodingError.invalidOptions("method 7 outside 0...6")) {
            try WebP.Encoder(options: .init(method: 7)).encode(pixels)
        }
        #expect(throws: WebP.Encoder.EncodingError.invalidOptions("quality 101 outside 0...100")) {
            try WebP.Encoder(options: .init(quality: 101)).encode(pixels)
        }
        #expect(throws: WebP.Encoder.EncodingError.unsupportedSize(width: 16384, height: 1)) {
            try WebP.Encoder().encode(PixelBuffer(width: 16384, height: 1))
        }
        let registry = try Image(pixels: pixels, format: .png).encoded(as: .webp)
        #expect(WebPEncoderContainerTests.tags(registry) == ["VP8 "])
    }
}
