@testable import GlimpseCodec
import TestSupport

/// Deterministic test images for the encoder, made in the tests (no files):
/// smooth gradients, hard edges and noise, so that every coefficient range,
/// run length and EOB run occurs.
enum JPEGEncoderFixtures {
    /// Sizes around the MCU edges: single pixel, partial MCUs in either
    /// direction, exact MCUs, widths not a multiple of 8 or 16.
    static let sizes: [(Int, Int)] = [(1, 1), (17, 13), (8, 8), (16, 16), (33, 35), (64, 48), (31, 17), (2, 41)]

    static func image(width: Int, height: Int, seed: UInt64 = 1, grey: Bool = false) -> PixelBuffer {
        var random = SplitMix(seed: seed &+ UInt64(width &* 1000 &+ height))
        var pixels = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let noise = Int(random.next() % 48)
                let edge = (x / 5 + y / 7) % 2 == 0 ? 0 : 90
                var r = (x * 255 / max(width, 1) + noise + edge) % 256
                var g = (y * 255 / max(height, 1) + noise / 2) % 256
                var b = ((x + y) * 7 + (noise & 0x1F) + (edge / 3)) % 256
                if grey { (r, g, b) = (r, r, r) }
                let offset = (y * width + x) * 4
                pixels.bytes[offset] = UInt8(r)
                pixels.bytes[offset + 1] = UInt8(g)
                pixels.bytes[offset + 2] = UInt8(b)
                pixels.bytes[offset + 3] = 255
            }
        }
        return pixels
    }

    /// Options covering the coder's paths at quality `quality`.
    static func modes(quality: Int, subsampling: JPEG.EncodingOptions.Subsampling) -> [JPEG.EncodingOptions] {
        [
            JPEG.EncodingOptions(quality: quality, subsampling: subsampling, alpha: .ignore, metadata: []),
            JPEG.EncodingOptions(quality: quality, subsampling: subsampling, optimizesHuffmanTables: true, alpha: .ignore, metadata: []),
            JPEG.EncodingOptions(quality: quality, subsampling: subsampling, isProgressive: true, alpha: .ignore, metadata: []),
            JPEG.EncodingOptions(quality: quality, subsampling: subsampling, restartRows: 1, alpha: .ignore, metadata: []),
            JPEG.EncodingOptions(quality: quality, subsampling: subsampling, isProgressive: true, restartRows: 2, alpha: .ignore, metadata: []),
        ]
    }

    /// Every pixel opaque (refencode drops alpha; PNG RGB cannot hold it).
    static func opaque(_ pixels: PixelBuffer) -> PixelBuffer {
        var copy = pixels.converted(to: .rgba8)
        for i in stride(from: 3, to: copy.bytes.count, by: 4) { copy.bytes[i] = 255 }
        return copy
    }

    /// `pixels` cut to at most `width` × `height` from the top left.
    static func crop(_ pixels: PixelBuffer, width: Int, height: Int) -> PixelBuffer {
        let w = min(width, pixels.width), h = min(height, pixels.height)
        let eight = pixels.converted(to: .rgba8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(w * h * 4)
        for y in 0..<h { bytes += eight.bytes[(y * eight.bytesPerRow)..<(y * eight.bytesPerRow + w * 4)] }
        return PixelBuffer(width: w, height: h, bytes: bytes) ?? PixelBuffer(width: 0, height: 0)
    }
}
