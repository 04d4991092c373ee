import Foundation
import Testing
import TestSupport
@testable import GlimpseCodec

/// Decoded AVIF images (RGBA after `clap`, `irot`, `imir`) against libavif 1.4 through Pillow's
/// AVIF plugin: every sample identical, whether libavif converts through libyuv (8-bit output
/// of the BT.601, BT.709 and BT.2020 matrices) or its own floating-point path (the others).
/// Pillow leaves the transformations to its caller (it turns
/// `irot`/`imir` into an Exif orientation, and ignores `clap`), so the reference script applies
/// them: `ImageOps.exif_transpose`, then the crop derived from the `clap` box's fractions.
///
/// The debug suite decodes small files: avifenc crops of a bench photo in every sampling,
/// depth, range and matrix, with alpha (straight and premultiplied) and each transformation,
/// and two link-u kimonos (rotated and mirrored, and cropped). The whole corpus is compared
/// when `GLIMPSE_AVIF_IMAGES_CORPUS=1` (run it in release: `swift test -c release --filter AVIFImageTests`).
@Suite struct AVIFImageTests {
    static let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-avif-images-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// Whether python3 has Pillow with AVIF (Pillow 11.2 and later bundle libavif).
    static let pillowReadsAVIF: Bool = {
        let check = "from PIL import features; import sys; sys.exit(0 if features.check('avif') else 1)"
        return ReferenceDecoder.run("/usr/bin/env", ["python3", "-c", check])?.status == 0
    }()

    /// Decodes each file with Pillow and writes `<out>.rgba` (8-bit RGBA, transformations
    /// applied) and `<out>.size` ("W H"), or `<out>.error` when libavif refuses it.
    static let script = """
    import struct, sys
    from PIL import Image, ImageOps

    def clap(data):
        # The first clap box of the file: eight 32-bit fields (offsets signed).
        at = data.find(b'clap')
        if at < 0:
            return None
        v = struct.unpack('>IIIIiIiI', data[at + 4:at + 36])
        return v

    for source, out in zip(sys.argv[1::2], sys.argv[2::2]):
        try:
            data = open(source, 'rb').read()
            image = Image.open(source)
            image.load()
            width, height = image.size
            image = image.convert('RGBA')
            box = clap(data)
            if box:
                wn, wd, hn, hd, hon, hod, von, vod = box
                cw, ch = wn // wd, hn // hd
                # Corner = offset + (size - crop) / 2, in the coded image (before irot/imir).
                x = (2 * hon + (width - cw) * hod) // (2 * hod)
                y = (2 * von + (height - ch) * vod) // (2 * vod)
                image = image.crop((x, y, x + cw, y + ch))
            image = ImageOps.exif_transpose(image)
            open(out + '.rgba', 'wb').write(image.tobytes())
            open(out + '.size', 'w').write('%d %d' % image.size)
        except Exception as error:
            open(out + '.error', 'w').write(str(error))
    """

    struct Reference {
        let width: Int, height: Int
        let rgba: [UInt8]
    }

    /// Pillow's images of `files`, nil where libavif refused one.
    static func references(_ files: [URL]) throws -> [Reference?] {
        let stems = files.indices.map { directory.appendingPathComponent("reference-\(UUID().uuidString)-\($0)") }
        let arguments = zip(files, stems).flatMap { [$0.path, $1.path] }
        let result = try #require(ReferenceDecoder.run("/usr/bin/env", ["python3", "-c", script] + arguments))
        try #require(result.status == 0, "Pillow script: \(result.output)")
        return stems.map { stem in
            defer {
                for suffix in ["rgba", "size", "error"] { try? FileManager.default.removeItem(at: stem.appendingPathExtension(suffix)) }
            }
            guard let size = try? String(contentsOf: stem.appendingPathExtension("size"), encoding: .utf8),
                  let rgba = try? [UInt8](Data(contentsOf: stem.appendingPathExtension("rgba"))) else { return nil }
            let numbers = size.split(separator: " ").compactMap { Int($0) }
            guard numbers.count == 2 else { return nil }
            return Reference(width: numbers[0], height: numbers[1], rgba: rgba)
        }
    }

    /// How far `image` is from `reference`: the share of samples within 2, the mean and largest difference.
    static func distance(_ image: Image, _ reference: Reference) -> (within2: Double, mean: Double, largest: Int)? {
        guard image.width == reference.width, image.height == reference.height,
              reference.rgba.count == image.width * image.height * 4 else { return nil }
        let pixels = image.pixels.format == .rgba8 ? image.pixels : image.pixels.converted(to: .rgba8)
        var close = 0, total = 0, largest = 0
        for (ours, theirs) in zip(pixels.bytes, reference.rgba) {
            let difference = abs(Int(ours) - Int(theirs))
            if difference <= 2 { close += 1 }
            total += difference
            largest = max(largest, difference)
        }
        let count = Double(reference.rgba.count)
        return (Double(close) / count, Double(total) / count, largest)
    }

    static func compare(_ files: [URL], options: DecodingOptions = DecodingOptions()) throws {
        let references = try Self.references(files)
        for (file, reference) in zip(files, references) {
            let name = file.lastPathComponent
            let bytes = try Fixtures.bytes(at: file)
            let decoded = Result { () throws(ImageDecodingError) in try AVIF.Decoder.decode(bytes, options: options) }
            guard let reference else {
                // libavif refuses it: so must Glimpse, with a typed error.
                if case .success = decoded { Issue.record("\(name): libavif refuses it, Glimpse decodes it") }
                continue
            }
            let image: Image
            switch decoded {
            case .success(let value): image = value
            case .failure(let error):
                Issue.record("\(name): \(error)")
                continue
            }
            guard let distance = distance(image, reference) else {
                Issue.record("\(name): \(image.width)×\(image.height), Pillow \(reference.width)×\(reference.height)")
                continue
            }
            let summary = "\(name): \(distance.within2 * 100) % within 2, mean \(distance.mean), largest \(distance.largest)"
            #expect(distance.largest == 0, "\(summary)")
        }
    }

    /// An odd height and an even width, for the last rows and columns of the chroma upsampling.
    static let oddPhoto = AVIFTileSyntaxEncoderTests.source("photos-512/1001682.png", name: "image-odd.png", width: 96, height: 65)

    @Test(.enabled(if: pillowReadsAVIF && AVIFTileSyntaxEncoderTests.avifenc != nil && oddPhoto != nil),
          arguments: [[], ["-y", "422"], ["-d", "10"]])
    func oddHeightMatchesLibavif(_ options: [String]) throws {
        let file = try Self.encode(try #require(Self.oddPhoto), options, prefix: "odd")
        defer { try? FileManager.default.removeItem(at: file) }
        try Self.compare([file])
    }

    static let photo = AVIFTileSyntaxEncoderTests.source("photos-512/1001682.png", name: "image.png", width: 97, height: 66)
    static let alphaPhoto = AVIFTileSyntaxEncoderTests.source("photos-512/1001682.png", name: "image-alpha.png", width: 97,
                                                              height: 66, alphaRamp: true)

    /// avifenc variants: samplings and depths, limited range, the matrices libavif converts
    /// (BT.709, BT.601, BT.2020, identity, YCgCo, chromaticity-derived), and each
    /// transformation; the crop at odd positions of 4:2:0.
    static let variants: [[String]] = [
        [], ["-y", "444"], ["-y", "422"], ["-y", "400"], ["-d", "10"], ["-y", "422", "-d", "12"],
        ["-r", "limited"], ["-r", "limited", "-d", "10", "-y", "444"],
        ["--cicp", "1/13/1"], ["--cicp", "1/13/5"], ["--cicp", "9/16/9", "-d", "10"], ["--cicp", "1/13/0", "-y", "444"],
        ["--cicp", "1/13/8", "-y", "444"], ["--cicp", "12/13/12"],
        ["--irot", "1"], ["--irot", "2", "--imir", "0"], ["--irot", "3", "--imir", "1"], ["--imir", "1"],
        ["--crop", "3,5,61,40"], ["--crop", "10,8,40,30", "--irot", "1", "--imir", "0"],
    ]

    static func encode(_ source: URL, _ options: [String], prefix: String) throws -> URL {
        let name = prefix + options.joined().replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: ",", with: "_") + ".avif"
        let output = directory.appendingPathComponent(name)
        let encoder = try #require(AVIFTileSyntaxEncoderTests.avifenc)
        let result = ReferenceDecoder.run(encoder, ["-s", "8", "-j", "1"] + options + [source.path, output.path])
        try #require(result?.status == 0, "avifenc \(options): \(result?.output ?? "")")
        return output
    }

    @Test(.enabled(if: pillowReadsAVIF && AVIFTileSyntaxEncoderTests.avifenc != nil && photo != nil), arguments: variants)
    func encodedFileMatchesLibavif(_ options: [String]) throws {
        let file = try Self.encode(try #require(Self.photo), options, prefix: "image")
        defer { try? FileManager.default.removeItem(at: file) }
        try Self.compare([file])
    }

    /// Alpha: straight, premultiplied (`prem`, divided back out), limited range, and each route
    /// libyuv takes with alpha: 10-bit 4:2:0, 4:2:2 and 4:4:4 (`I010`/`I210`/`I410Alpha`), 12-bit
    /// 4:2:0 (`I012`, nearest chroma, alpha rescaled by libavif), 12-bit 4:4:4 (shifted down
    /// with its alpha), monochrome (`I400`, alpha by libavif) at 8 and 10 bits.
    @Test(.enabled(if: pillowReadsAVIF && AVIFTileSyntaxEncoderTests.avifenc != nil && alphaPhoto != nil),
          arguments: [[], ["--premultiply"], ["-d", "10"], ["-y", "444", "-r", "limited"], ["-d", "10", "-y", "422"],
                      ["-d", "10", "-y", "444", "--premultiply"], ["-d", "12"], ["-d", "12", "-y", "444"], ["-y", "400"],
                      ["-y", "400", "-d", "10"]])
    func alphaMatchesLibavif(_ options: [String]) throws {
        let file = try Self.encode(try #require(Self.alphaPhoto), options, prefix: "alpha")
        defer { try? FileManager.default.removeItem(at: file) }
        try Self.compare([file])
        let image = try AVIF.Decoder.decode(try Fixtures.bytes(at: file), options: DecodingOptions())
        #expect(image.pixels.bytes[3] < 16 && image.pixels.bytes[(image.width - 1) * 4 + 3] > 240, "the ramp survives")
    }

    /// Whether python3 has imagecodecs, whose `avif_decode` keeps a deep source's depth.
    static let imagecodecsReadsAVIF: Bool = {
        ReferenceDecoder.run("/usr/bin/env", ["python3", "-c", "import imagecodecs; imagecodecs.avif_decode"])?.status == 0
    }()

    /// Deep sources as RGBA16 on request, against libavif's own path at the source's depth
    /// (imagecodecs' `avif_decode`, libavif 1.4, gives 10-bit RGB): every one of our 16-bit
    /// samples and libavif's 10-bit one must be the same value rounded to the two depths.
    @Test(.enabled(if: imagecodecsReadsAVIF && AVIFTileSyntaxEncoderTests.avifenc != nil && photo != nil))
    func deepSourcesDecodeToSixteenBits() throws {
        let file = try Self.encode(try #require(Self.photo), ["-d", "10", "-y", "444"], prefix: "deep")
        let reference = file.appendingPathExtension("rgb10")
        defer { for url in [file, reference] { try? FileManager.default.removeItem(at: url) } }
        let script = """
        import sys, imagecodecs
        image = imagecodecs.avif_decode(open(sys.argv[1], 'rb').read())
        assert image.dtype.name == 'uint16' and image.shape[2] == 3, (image.dtype, image.shape)
        open(sys.argv[2], 'wb').write(image.astype('<u2').tobytes())
        """
        let run = try #require(ReferenceDecoder.run("/usr/bin/env", ["python3", "-c", script, file.path, reference.path]))
        try #require(run.status == 0, "imagecodecs: \(run.output)")
        let theirs = try Data(contentsOf: reference).withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)).map(UInt16.init(littleEndian:)) }

        var options = DecodingOptions()
        options.sampleDepth = .preserve
        let deep = try AVIF.Decoder.decode(try Fixtures.bytes(at: file), options: options)
        #expect(deep.pixels.format == .rgba16)
        #expect(deep.metadata.cicp?.matrixCoefficients == 0 && deep.metadata.cicp?.isFullRange == true)
        try #require(theirs.count == deep.width * deep.height * 3)
        let ours = deep.pixels.bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
        // Both depths round one value r: ours is ⌊r·65535 + ½⌋ and libavif's ⌊r·1023 + ½⌋, so the
        // intervals of r each one allows, (2o ∓ 1) / (2·65535) and (2t ∓ 1) / (2·1023), must meet.
        var apart = 0
        for pixel in 0..<deep.width * deep.height {
            for channel in 0..<3 {
                let o = Int(ours[pixel * 4 + channel]), t = Int(theirs[pixel * 3 + channel])
                if !((2 * o - 1) * 1023 < (2 * t + 1) * 65535 && (2 * t - 1) * 65535 < (2 * o + 1) * 1023) { apart += 1 }
            }
        }
        #expect(apart == 0, "\(apart) of \(theirs.count) samples are not one value rounded to both depths")
    }

    static let kimonos = ["kimono.mirror-vertical.rotate270.avif", "kimono.crop.avif"].compactMap {
        Fixtures.corpus("avif/link-u/" + $0)
    }

    /// Two 722×1024 corpus files: `irot` 1 with `imir` 0, and a `clap` crop at odd positions of 4:2:0.
    @Test(.enabled(if: pillowReadsAVIF && kimonos.count == 2)) func corpusKimonosMatchLibavif() throws {
        try Self.compare(Self.kimonos)
    }

    /// The registry decodes AVIF through `AutoDecoder`, with the colour policy applied.
    @Test(.enabled(if: AVIFTileSyntaxEncoderTests.avifenc != nil && photo != nil)) func registryDecodesAVIF() throws {
        let file = try Self.encode(try #require(Self.photo), ["--cicp", "9/13/9"], prefix: "registry")
        defer { try? FileManager.default.removeItem(at: file) }
        let bytes = try Fixtures.bytes(at: file)
        let image = try DecoderRegistry.standard.decode(bytes)
        #expect(image.format == .avif && image.width == 97 && image.height == 66)
        var options = DecodingOptions()
        options.colorPolicy = .convertToSRGB
        let converted = try DecoderRegistry.standard.decode(bytes, options: options)
        #expect(converted.pixels != image.pixels, "BT.2020 primaries converted to sRGB's")
    }

    @Test(.enabled(if: pillowReadsAVIF && ProcessInfo.processInfo.environment["GLIMPSE_AVIF_IMAGES_CORPUS"] == "1"))
    func wholeCorpusMatchesLibavif() throws {
        let files = AVIFCorpusTests.files
        for chunk in stride(from: 0, to: files.count, by: 8) {
            try Self.compare(Array(files[chunk..<min(files.count, chunk + 8)]))
        }
    }
}
