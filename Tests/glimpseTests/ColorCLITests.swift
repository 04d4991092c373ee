import Foundation
import GlimpseCodec
import TestSupport
import Testing

/// `--color srgb|preserve|PROFILE-PATH` on `glimpse encode`, and a profile path on `decode` and `thumbnail`.
@Suite("glimpse --color")
struct ColorCLITests {
    static let adobe = ICCProfileBuilder.adobeRGB.build()
    /// ProPhoto RGB's D50 colorants with γ 1.8.
    static let proPhoto = ICCProfileBuilder.matrixShaper(red: (0.7977, 0.2880, 0.0), green: (0.1352, 0.7119, 0.0),
                                                         blue: (0.0313, 0.0001, 0.8249), curve: ICCProfileBuilder.curv([461])).build()

    /// A directory holding `tagged.png` (a 40×30 gradient tagged Adobe RGB) and `prophoto.icc`.
    static func setUp() throws -> (directory: URL, image: Image) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-color-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var pixels = PixelBuffer(width: 40, height: 30)
        for index in 0..<(40 * 30) {
            pixels.bytes[index * 4] = UInt8(index % 40 * 6)
            pixels.bytes[index * 4 + 1] = UInt8(index / 40 * 8)
            pixels.bytes[index * 4 + 2] = 90
            pixels.bytes[index * 4 + 3] = 255
        }
        var image = Image(pixels: pixels, format: .png)
        image.metadata.iccProfile = adobe
        try Data(PNG.Encoder().encode(pixels, metadata: image.metadata)).write(to: directory.appendingPathComponent("tagged.png"))
        try Data(proPhoto).write(to: directory.appendingPathComponent("prophoto.icc"))
        return (directory, image)
    }

    @Test("encode --color: preserve (the default) keeps pixels and profile, srgb converts and writes none, a profile path converts and embeds it")
    func encode() throws {
        let (directory, image) = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("tagged.png").path
        var outputs: [String: Image] = [:]
        for (name, arguments) in [("default", []), ("preserve", ["--color", "preserve"]), ("srgb", ["--color", "srgb"]),
                                  ("profile", ["--color", directory.appendingPathComponent("prophoto.icc").path])] {
            let output = directory.appendingPathComponent("\(name).png")
            let result = try CLI.run(["encode", input, "-o", output.path] + arguments)
            #expect(result.status == 0, "\(name): \(result.standardError)")
            outputs[name] = try PNG.Decoder.decode(Fixtures.bytes(at: output))
        }
        for name in ["default", "preserve"] {
            #expect(outputs[name]?.pixels == image.pixels, "\(name)")
            #expect(outputs[name]?.metadata.iccProfile == Self.adobe, "\(name)")
        }
        var sRGB = image
        ColorPolicy.convertToSRGB.apply(to: &sRGB)
        #expect(outputs["srgb"]?.pixels == sRGB.pixels)
        #expect(outputs["srgb"]?.metadata.iccProfile == nil)
        var converted = image
        ColorPolicy.convert(to: try ICC.Profile(parsing: Self.proPhoto)).apply(to: &converted)
        #expect(outputs["profile"]?.pixels == converted.pixels)
        #expect(outputs["profile"]?.pixels != image.pixels)
        #expect(outputs["profile"]?.metadata.iccProfile == Self.proPhoto)

        // A JPEG output embeds the profile as well.
        let jpeg = directory.appendingPathComponent("profile.jpg")
        let result = try CLI.run(["encode", input, "-o", jpeg.path, "--color", directory.appendingPathComponent("prophoto.icc").path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try DecoderRegistry.standard.decode(Fixtures.bytes(at: jpeg)).metadata.iccProfile == Self.proPhoto)
    }

    @Test("--color with a missing file, a file that is not a profile, or a CMYK profile fails naming the file")
    func badProfiles() throws {
        let (directory, _) = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("tagged.png").path
        let notProfile = directory.appendingPathComponent("not.icc"), cmyk = directory.appendingPathComponent("cmyk.icc")
        try Data([1, 2, 3, 4]).write(to: notProfile)
        try Data(ICCProfileBuilder(deviceClass: "prtr", colorSpace: "CMYK").build()).write(to: cmyk)
        for profile in [directory.appendingPathComponent("missing.icc"), notProfile, cmyk] {
            let output = directory.appendingPathComponent("out.png")
            let result = try CLI.run(["encode", input, "-o", output.path, "--color", profile.path])
            #expect(result.status == 1, "\(profile.lastPathComponent)")
            #expect(result.standardError.contains(profile.path), "\(result.standardError)")
            #expect(!FileManager.default.fileExists(atPath: output.path))
        }
    }

    @Test("decode and thumbnail --color PROFILE convert and carry the profile")
    func decodeAndThumbnail() throws {
        let (directory, image) = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("tagged.png").path
        let profile = directory.appendingPathComponent("prophoto.icc").path
        let decoded = directory.appendingPathComponent("decoded.png")
        let decodeResult = try CLI.run(["decode", input, "-o", decoded.path, "--color", profile])
        #expect(decodeResult.status == 0, "\(decodeResult.standardError)")
        var converted = image
        ColorPolicy.convert(to: try ICC.Profile(parsing: Self.proPhoto)).apply(to: &converted)
        let output = try PNG.Decoder.decode(Fixtures.bytes(at: decoded))
        #expect(output.pixels == converted.pixels)
        #expect(output.metadata.iccProfile == Self.proPhoto)

        let thumbnail = directory.appendingPathComponent("thumb.png")
        let thumbnailResult = try CLI.run(["thumbnail", input, "-o", thumbnail.path, "--size", "20", "--color", profile])
        #expect(thumbnailResult.status == 0, "\(thumbnailResult.standardError)")
        #expect(try PNG.Decoder.decode(Fixtures.bytes(at: thumbnail)).metadata.iccProfile == Self.proPhoto)
    }
}
