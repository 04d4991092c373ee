import Foundation
import GlimpseCodec
import TestSupport
import Testing

@Suite("glimpse encode, bench-encode, thumbnail")
struct EncodeCommandTests {
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-enc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A generated opaque RGB PNG of `width` × `height`, `alpha` at the left half.
    static func writePNG(_ url: URL, width: Int, height: Int, alpha: UInt8 = 255) throws {
        var pixels = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let o = (y * width + x) * 4
                pixels.bytes[o] = UInt8((x * 7 + y) % 256)
                pixels.bytes[o + 1] = UInt8((y * 5) % 256)
                pixels.bytes[o + 2] = UInt8((x ^ y) % 256)
                pixels.bytes[o + 3] = x < width / 2 ? alpha : 255
            }
        }
        try Data(PNG.Encoder().encode(pixels)).write(to: url)
    }

    @Test("encode writes the bytes refencode writes", .enabled(if: ReferenceEncoder.executable != nil))
    func encodeMatchesReference() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let png = directory.appendingPathComponent("in.png")
        try Self.writePNG(png, width: 37, height: 22)
        for arguments in [["--quality", "90", "--subsampling", "444"], ["--progressive"], ["--optimize", "--restart-rows", "1"]] {
            let output = directory.appendingPathComponent("out.jpg")
            let result = try CLI.run(["encode", png.path, "-o", output.path] + arguments)
            #expect(result.status == 0, "\(result.standardError)")
            var options = JPEG.EncodingOptions(quality: arguments.contains("90") ? 90 : 75,
                                               subsampling: arguments.contains("444") ? .yCbCr444 : .yCbCr420)
            options.isProgressive = arguments.contains("--progressive")
            options.optimizesHuffmanTables = arguments.contains("--optimize")
            options.restartRows = arguments.contains("--restart-rows") ? 1 : 0
            let reference = try #require(ReferenceEncoder.encode(png: png, options: options))
            #expect(try Fixtures.bytes(at: output) == reference, "\(arguments)")
        }
    }

    @Test("encode to PNG and GIF; a bad extension or input fails")
    func otherFormats() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let png = directory.appendingPathComponent("in.png")
        try Self.writePNG(png, width: 10, height: 6)
        for name in ["out.png", "out.gif"] {
            let output = directory.appendingPathComponent(name)
            #expect(try CLI.run(["encode", png.path, "-o", output.path]).status == 0)
            let decoded = try DecoderRegistry.standard.decode(Fixtures.bytes(at: output))
            #expect(decoded.width == 10 && decoded.height == 6)
        }
        #expect(try CLI.run(["encode", png.path, "-o", directory.appendingPathComponent("x.bmp").path]).status == 1)
        #expect(try CLI.run(["encode", directory.appendingPathComponent("missing.png").path, "-o",
                             directory.appendingPathComponent("y.jpg").path]).status == 1)
        #expect(try CLI.run(["encode", png.path, "-o", directory.appendingPathComponent("z.jpg").path, "--quality", "0"]).status != 0)
    }

    @Test("bench-encode prints refencode's fields")
    func benchEncode() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let png = directory.appendingPathComponent("in.png")
        try Self.writePNG(png, width: 33, height: 9)
        let result = try CLI.run(["bench-encode", png.path, "--iterations", "2", "--quality", "90"])
        #expect(result.status == 0)
        let fields = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",")
        #expect(fields.count == 7)
        #expect(fields.first == "glimpse-encode")
        #expect(fields[2] == "33" && fields[3] == "9")
        let expected = try JPEG.Encoder(options: JPEG.EncodingOptions(quality: 90, alpha: .ignore, metadata: []))
            .encode(PNG.Decoder.decode(Fixtures.bytes(at: png)).pixels)
        #expect(fields[4] == Substring(String(expected.count)))
    }

    @Test("thumbnail: fits inside the box, follows EXIF orientation, PNG for transparency, one line per file")
    func thumbnail() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let opaque = directory.appendingPathComponent("opaque.png"), clear = directory.appendingPathComponent("clear.png")
        try Self.writePNG(opaque, width: 300, height: 120)
        try Self.writePNG(clear, width: 40, height: 90, alpha: 0)
        let rotated = Fixtures.url("jpeg/pillow-exif6.jpg")
        let missing = directory.appendingPathComponent("missing.png")
        let out = directory.appendingPathComponent("out")
        let result = try CLI.run(["thumbnail", opaque.path, clear.path, rotated.path, missing.path,
                                  "--output-dir", out.path, "--size", "64"])
        #expect(result.status == 1)
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("\(opaque.path): ok 64x26 -> "))
        // Never enlarged: 40 × 90 fits inside 64 × 64 as 28 × 64.
        #expect(lines[1].hasPrefix("\(clear.path): ok 28x64 -> ") && lines[1].contains("clear.png ("))
        #expect(lines[3].hasPrefix("\(missing.path): error"))
        let thumb = try JPEG.Decoder.decode(Fixtures.bytes(at: out.appendingPathComponent("opaque.jpg")))
        #expect(thumb.width == 64 && thumb.height == 26)
        let source = try JPEG.Decoder.decode(Fixtures.bytes(at: rotated))
        let upright = try JPEG.Decoder.decode(Fixtures.bytes(at: out.appendingPathComponent("pillow-exif6.jpg")))
        #expect(upright.metadata.orientation == .up)
        // Orientation 6 swaps the sides.
        #expect((upright.width >= upright.height) == (source.height >= source.width))
        let transparent = try PNG.Decoder.decode(Fixtures.bytes(at: out.appendingPathComponent("clear.png")))
        #expect(transparent.pixels.pixel(x: 0, y: 10)[3] < 255)
        let big = try CLI.run(["thumbnail", opaque.path, "-o", directory.appendingPathComponent("t.jpg").path, "--size", "1000"])
        #expect(big.standardOutput.hasPrefix("\(opaque.path): ok 300x120 -> "))
    }

    @Test("thumbnail: an embedded profile is converted to sRGB and dropped, or kept with --color preserve")
    func thumbnailColor() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var pixels = PixelBuffer(width: 120, height: 80)
        for index in stride(from: 0, to: pixels.bytes.count, by: 4) {
            pixels.bytes[index] = UInt8(index / 4 % 120 * 2)
            pixels.bytes[index + 1] = 180
            pixels.bytes[index + 2] = 30
            pixels.bytes[index + 3] = 255
        }
        var metadata = ImageMetadata()
        let profile = ICCProfileBuilder.adobeRGB.build()
        metadata.iccProfile = profile
        let tagged = directory.appendingPathComponent("tagged.png")
        try Data(PNG.Encoder().encode(pixels, metadata: metadata)).write(to: tagged)

        var thumbnails: [String: Image] = [:]
        for color in ["srgb", "preserve"] {
            let output = directory.appendingPathComponent("\(color).png")
            let result = try CLI.run(["thumbnail", tagged.path, "-o", output.path, "--size", "60", "--color", color])
            #expect(result.status == 0, "\(result.standardError)")
            thumbnails[color] = try PNG.Decoder.decode(Fixtures.bytes(at: output))
        }
        let converted = try #require(thumbnails["srgb"]), preserved = try #require(thumbnails["preserve"])
        #expect(converted.metadata.iccProfile == nil)
        #expect(preserved.metadata.iccProfile == profile)
        #expect(converted.pixels != preserved.pixels)
        let byDefault = directory.appendingPathComponent("default.png")
        _ = try CLI.run(["thumbnail", tagged.path, "-o", byDefault.path, "--size", "60"])
        #expect(try PNG.Decoder.decode(Fixtures.bytes(at: byDefault)).pixels == converted.pixels, "srgb is the default")
    }

    @Test("info --json names the colour description: the ICC profile's class, space, version and sRGB-ness, PNG chunks")
    func infoNamesTheColourDescription() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var pixels = PixelBuffer(width: 4, height: 4)
        for index in stride(from: 3, to: pixels.bytes.count, by: 4) { pixels.bytes[index] = 255 }
        var tagged = ImageMetadata()
        tagged.iccProfile = ICCProfileBuilder.adobeRGB.build()
        var chunks = ImageMetadata()
        chunks.gamma = 0.5
        chunks.chromaticities = Chromaticities(whiteX: 0.3127, whiteY: 0.329, redX: 0.68, redY: 0.32,
                                               greenX: 0.265, greenY: 0.69, blueX: 0.15, blueY: 0.06)
        chunks.cicp = CodingIndependentCodePoints(colorPrimaries: 12, transferCharacteristics: 13, matrixCoefficients: 0, isFullRange: true)
        var objects: [[String: Any]] = []
        for (name, metadata) in [("tagged", tagged), ("chunks", chunks)] {
            let file = directory.appendingPathComponent("\(name).png")
            try Data(PNG.Encoder().encode(pixels, metadata: metadata)).write(to: file)
            let result = try CLI.run(["info", "--json", file.path])
            #expect(result.status == 0, "\(result.standardError)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
            objects.append(try #require(object["metadata"] as? [String: Any]))
        }
        let profile = try #require(objects[0]["iccProfile"] as? [String: Any])
        #expect(profile["class"] as? String == "mntr" && profile["colorSpace"] as? String == "RGB")
        #expect(profile["connectionSpace"] as? String == "XYZ" && profile["version"] as? String == "4.0")
        #expect(profile["isSRGB"] as? Bool == false)
        #expect(objects[1]["gamma"] as? Double == 0.5)
        #expect(objects[1]["cicp"] as? String == "12-13-0 full")
        #expect((objects[1]["chromaticities"] as? [String: Any])?["red"] as? [Double] == [0.68, 0.32])
    }
}
