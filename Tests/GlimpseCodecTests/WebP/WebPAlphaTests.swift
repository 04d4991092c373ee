import Testing
import TestSupport
@testable import GlimpseCodec

/// `ALPH` (RFC 9649 §2.7.1.4): the header and the three filters, undone as libwebp's
/// `dsp/filters.c` undoes them.
@Suite struct WebPAlphaTests {
    /// The unfilters written the plain way, from the specification's predictor table and
    /// libwebp's edge rules (first row from the left, first column from above).
    static func reference(_ deltas: [UInt8], width: Int, height: Int, filter: Int) -> [UInt8] {
        var out = deltas
        for y in 0..<height {
            for x in 0..<width {
                let i = y * width + x
                let left = x > 0 ? Int(out[i - 1]) : (y > 0 ? Int(out[i - width]) : 0)
                let above = y > 0 ? Int(out[i - width]) : left
                let aboveLeft = y > 0 && x > 0 ? Int(out[i - width - 1]) : above
                let prediction: Int
                switch filter {
                case 1: prediction = left
                case 2: prediction = y == 0 ? left : above
                case 3: prediction = y == 0 ? left : (x == 0 ? above : min(255, max(0, left + above - aboveLeft)))
                default: prediction = 0
                }
                out[i] = UInt8(truncatingIfNeeded: Int(deltas[i]) + prediction)
            }
        }
        return out
    }

    @Test(arguments: [1, 2, 3])
    func unfiltersMatchThePlainDefinition(filter: Int) throws {
        var state: UInt64 = 42
        for (width, height) in [(1, 1), (1, 9), (9, 1), (17, 13), (64, 3)] {
            var deltas: [UInt8] = []
            for _ in 0..<(width * height) {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                // Mostly extremes, so that the gradient predictor clips both ways.
                let r = UInt8(truncatingIfNeeded: state >> 40)
                deltas.append(r % 3 == 0 ? 0 : (r % 3 == 1 ? 255 : r))
            }
            var plane = deltas
            WebP.AlphaPlane.unfilter(&plane, width: width, height: height, filter: try #require(WebP.AlphaFilter(rawValue: UInt8(filter))))
            #expect(plane == Self.reference(deltas, width: width, height: height, filter: filter), "\(width)x\(height)")
        }
    }

    @Test func headerRejectsWhatLibwebpRejects() {
        for byte: UInt8 in [0x02, 0x03, 0x20, 0x30, 0x40, 0x80] {
            #expect(throws: WebP.malformed(.alphaHeader(byte))) { _ = try WebP.AlphaPlane.Header(byte) }
        }
        for byte: UInt8 in [0x00, 0x01, 0x05, 0x0D, 0x1D] {
            #expect(throws: Never.self) { _ = try WebP.AlphaPlane.Header(byte) }
        }
        // Raw alpha shorter than the image, and an ALPH chunk of only its header byte.
        #expect(throws: WebP.malformed(.alphaDataSize(available: 5, needed: 6))) {
            _ = try [UInt8](repeating: 0, count: 6).withDecodingBytes { (raw) throws(ImageDecodingError) in
                try WebP.AlphaPlane.decode(raw, width: 3, height: 2, limits: DecodingLimits())
            }
        }
        #expect(throws: WebP.malformed(.alphaDataSize(available: 0, needed: 1))) {
            _ = try [UInt8](repeating: 0, count: 1).withDecodingBytes { (raw) throws(ImageDecodingError) in
                try WebP.AlphaPlane.decode(raw, width: 3, height: 2, limits: DecodingLimits())
            }
        }
    }

    /// Raw ALPH chunks with each filter and pre-processing value around one lossy image
    /// (`Fixtures/webp/generate.py`), against libwebp's decoding of them (`dwebp`).
    @Test func fixturesMatchLibwebp() throws {
        for filter in 0..<4 {
            for pre in 0..<2 {
                let name = "alph-filter-\(filter)-pre-\(pre).webp"
                let image = try WebP.Decoder.decode(try WebPTestSupport.fixture(name))
                let expected = try #require(WebPTestSupport.expected.frames[name]?.first)
                #expect(WebPTestSupport.crc(image.frames[0]) == expected.crc, "\(name)")
            }
        }
    }
}
