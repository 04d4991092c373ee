import Foundation
@testable import GlimpseCodec
import Testing
import TestSupport

/// Byte-for-byte comparison with libjpeg-turbo (refencode = cjpeg's settings)
/// on generated images of awkward sizes. Skipped when refencode cannot be built.
@Suite("JPEG encoder: bytes equal libjpeg-turbo's", .enabled(if: ReferenceEncoder.executable != nil))
struct JPEGEncoderReferenceTests {
    static let subsamplings = JPEG.EncodingOptions.Subsampling.allCases

    @Test("every size, subsampling and coding mode at quality 75", arguments: subsamplings)
    func sizesAndModes(_ subsampling: JPEG.EncodingOptions.Subsampling) throws {
        for (width, height) in JPEGEncoderFixtures.sizes {
            let pixels = JPEGEncoderFixtures.image(width: width, height: height)
            for options in JPEGEncoderFixtures.modes(quality: 75, subsampling: subsampling) {
                let reference = try #require(try ReferenceEncoder.encode(pixels, options: options))
                let ours = try JPEG.Encoder(options: options).encode(pixels)
                #expect(ours == reference, "\(width)x\(height) \(ReferenceEncoder.arguments(for: options))")
            }
        }
    }

    @Test("qualities 1 to 100", arguments: [1, 10, 25, 50, 51, 90, 95, 100])
    func qualities(_ quality: Int) throws {
        let pixels = JPEGEncoderFixtures.image(width: 45, height: 29, seed: UInt64(quality))
        for subsampling in [JPEG.EncodingOptions.Subsampling.yCbCr420, .yCbCr444] {
            for options in JPEGEncoderFixtures.modes(quality: quality, subsampling: subsampling).prefix(3) {
                let reference = try #require(try ReferenceEncoder.encode(pixels, options: options))
                #expect(try JPEG.Encoder(options: options).encode(pixels) == reference, "\(ReferenceEncoder.arguments(for: options))")
            }
        }
    }

    @Test("a grey image gives the greyscale file libjpeg writes from grey input")
    func greyInput() throws {
        let pixels = JPEGEncoderFixtures.image(width: 37, height: 21, grey: true)
        for options in JPEGEncoderFixtures.modes(quality: 80, subsampling: .grayscale) {
            let reference = try #require(try ReferenceEncoder.encode(pixels, grey: true, options: options))
            #expect(try JPEG.Encoder(options: options).encode(pixels) == reference)
        }
    }

    @Test("RGBA16 is encoded by its high byte")
    func sixteenBit() throws {
        let pixels = JPEGEncoderFixtures.image(width: 19, height: 11)
        var wide = pixels.converted(to: .rgba16)
        // Low bytes that must not matter.
        wide.bytes.withUnsafeMutableBytes { raw in
            for i in stride(from: 0, to: raw.count, by: 2) { raw[i] ^= 0x5A }
        }
        let options = JPEG.EncodingOptions(alpha: .ignore, metadata: [])
        let reference = try #require(try ReferenceEncoder.encode(pixels, options: options))
        #expect(try JPEG.Encoder(options: options).encode(wide) == reference)
    }
}
