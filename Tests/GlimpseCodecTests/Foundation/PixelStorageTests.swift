@testable import GlimpseCodec
import Testing

/// Output buffers large enough to be advised huge pages behave like any other array.
@Suite("Pixel storage")
struct PixelStorageTests {
    @Test("an advised buffer has exactly the asked size and holds every byte written", arguments: [
        PixelStorage.hugePageThreshold - 1, PixelStorage.hugePageThreshold, 6 << 20 | 12_345,
    ])
    func advisedBufferHoldsBytes(_ count: Int) {
        var bytes = PixelStorage.uninitializedBytes(count: count, adviseHugePages: true)
        #expect(bytes.count == count)
        bytes.withUnsafeMutableBufferPointer { buffer in
            for index in buffer.indices { buffer[index] = UInt8(truncatingIfNeeded: index &* 31 &+ index >> 13) }
        }
        let mismatch = bytes.indices.first { bytes[$0] != UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 13) }
        #expect(mismatch == nil)
    }

    @Test("a PNG over the threshold decodes the same with and without huge-page advice")
    func pngDecodesAlikeWithAndWithoutAdvice() throws {
        // 1536 × 1024 RGBA8 is 6 MiB: above the threshold, with at least two whole 2 MiB pages.
        var pixels = PixelBuffer(width: 1536, height: 1024)
        pixels.bytes.withUnsafeMutableBufferPointer { buffer in
            for index in buffer.indices { buffer[index] = UInt8(truncatingIfNeeded: index / 4 &* 7 &+ index % 4 &* 60) }
        }
        let encoded = try PNG.Encoder(options: PNG.Encoder.Options(colorMode: .rgba, compressionLevel: 1)).encode(pixels)
        let advised = try PNG.Decoder.decode(encoded, options: DecodingOptions(adviseHugePages: true))
        let plain = try PNG.Decoder.decode(encoded, options: DecodingOptions(adviseHugePages: false))
        #expect(advised.pixels == pixels)
        #expect(plain.pixels == pixels)
    }
}
