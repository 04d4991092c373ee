import GlimpseCodec
import Testing
import TestSupport

@Suite("JPEG metadata")
struct JPEGMetadataTests {
    @Test("EXIF orientation is read", arguments: [("pillow-exif6.jpg", Orientation.right), ("pillow-exif3.jpg", .down), ("pillow-420.jpg", .up)])
    func orientation(_ name: String, _ expected: Orientation) throws {
        let image = try JPEG.Decoder.decode(Fixtures.bytes("jpeg/\(name)"))
        #expect(image.metadata.orientation == expected)
    }

    @Test("ICC profile and JFIF density are read")
    func iccAndDensity() throws {
        let image = try JPEG.Decoder.decode(Fixtures.bytes("jpeg/pillow-icc-dpi.jpg"))
        let profile: [UInt8] = Array(0...255) + Array(0...255)
        #expect(image.metadata.iccProfile == profile)
        #expect(image.metadata.density == PixelDensity(horizontal: 300, vertical: 300, unit: .perInch))
    }

    @Test("info is available once the frame header is parsed, before pixels")
    func infoEarly() throws {
        let bytes = try Fixtures.bytes("jpeg/pillow-exif6.jpg")
        // Up to the first SOS marker: every header, no entropy-coded data.
        let sos = try #require((0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
        var decoder = JPEG.Decoder(options: DecodingOptions())
        #expect(try decoder.append(bytes[..<sos]) == .needMoreData)
        let info = try #require(decoder.info)
        #expect(info.width == 40 && info.height == 30 && info.format == .jpeg)
        #expect(info.metadata.orientation == .right)
        #expect(decoder.partialImage() == nil)
    }

    @Test("info reports the scaled size")
    func scaledInfo() throws {
        var decoder = JPEG.Decoder(options: DecodingOptions(scaleDenominator: 8))
        _ = try decoder.append(Fixtures.bytes("jpeg/pillow-420-odd.jpg"))
        #expect(decoder.info?.width == 5 && decoder.info?.height == 4)
    }
}
