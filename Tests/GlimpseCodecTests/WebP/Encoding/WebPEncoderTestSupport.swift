import Foundation
import Testing
import TestSupport
@testable import GlimpseCodec

/// Round trips through the WebP encoder, checked by Glimpse's decoder and by libwebp's `dwebp`.
enum WebPEncoderTestSupport {
    /// libwebp's `dwebp` (Debian `webp`, which `.ci/run` installs); the encoder suites skip without it.
    static let dwebp: String? = ["/usr/bin/dwebp", "/usr/local/bin/dwebp"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// libwebp's decoding of `bytes` (`dwebp -pam`), or nil when it refuses the file.
    static func libwebpPixels(_ bytes: [UInt8]) throws -> PixelBuffer? {
        guard let dwebp else { return nil }
        let directory = FileManager.default.temporaryDirectory
        let name = "glimpse-webp-enc-\(UUID().uuidString)"
        let input = directory.appendingPathComponent(name + ".webp")
        let output = directory.appendingPathComponent(name + ".pam")
        defer {
            try? FileManager.default.removeItem(at: input)
            try? FileManager.default.removeItem(at: output)
        }
        try Data(bytes).write(to: input)
        guard let result = ReferenceDecoder.run(dwebp, ["-quiet", "-pam", input.path, "-o", output.path]),
              result.status == 0 else { return nil }
        return try PAM.decode([UInt8](Data(contentsOf: output)))
    }

    /// Encodes `pixels`, then expects Glimpse and libwebp to decode exactly `expected` (default: `pixels`).
    @discardableResult
    static func expectRoundTrip(_ pixels: PixelBuffer, options: WebP.Encoder.Options = .init(lossless: true),
                                expected: PixelBuffer? = nil, _ label: String,
                                sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        let bytes = try WebP.Encoder(options: options).encode(pixels)
        let want = expected ?? pixels.converted(to: .rgba8)
        let ours = try WebP.Decoder.decode(bytes)
        #expect(ours.pixels == want, "\(label): Glimpse decodes other pixels", sourceLocation: sourceLocation)
        try #require(dwebp != nil, "dwebp is needed: the suites using this are enabled only where it is installed")
        let theirs = try libwebpPixels(bytes)
        #expect(theirs == want, "\(label): libwebp decodes other pixels (or refuses the file)", sourceLocation: sourceLocation)
        return bytes
    }

    /// A smooth RGBA image with noise, so that every transform has work to do.
    static func photoLike(width: Int, height: Int, seed: UInt64 = 1, alpha: Bool = false) -> PixelBuffer {
        var random = SplitMix(seed: seed)
        var pixels = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let noise = Int(random.next() % 7)
                let offset = (y * width + x) * 4
                pixels.bytes[offset] = UInt8(truncatingIfNeeded: x * 3 + y + noise)
                pixels.bytes[offset + 1] = UInt8(truncatingIfNeeded: x + y * 2 + noise / 2)
                pixels.bytes[offset + 2] = UInt8(truncatingIfNeeded: (x ^ y) + noise)
                pixels.bytes[offset + 3] = alpha ? UInt8(truncatingIfNeeded: 255 - (x + y) % 64 * 4) : 255
            }
        }
        return pixels
    }

    /// An image of `colors` distinct colours (random alphas included) in random places.
    static func paletted(width: Int, height: Int, colors: Int, seed: UInt64) -> PixelBuffer {
        var random = SplitMix(seed: seed)
        let palette: [[UInt8]] = (0..<colors).map { index in
            [UInt8(truncatingIfNeeded: index * 37), UInt8(truncatingIfNeeded: index * 11 + 3),
             UInt8(truncatingIfNeeded: index), UInt8(truncatingIfNeeded: 255 - index % 3 * 100)]
        }
        var pixels = PixelBuffer(width: width, height: height)
        for index in 0..<width * height {
            // Every colour at least once, the rest at random.
            let color = index < colors ? index : Int(random.next() % UInt64(colors))
            pixels.bytes.replaceSubrange(index * 4..<index * 4 + 4, with: palette[color])
        }
        return pixels
    }
}
