import Foundation
import GlimpseCodec

/// `../shared/tools/refencode` (libjpeg-turbo's compressor with cjpeg's
/// settings), built on first use into the build folder. Tests that compare
/// against it skip when it cannot be built (no `../shared`, no C compiler or no
/// -dev packages; `.ci/run` installs them).
public enum ReferenceEncoder {
    /// The built executable, or `nil` when it cannot be built here.
    public static let executable: URL? = build()

    private static func build() -> URL? {
        guard let source = Fixtures.shared?.appendingPathComponent("tools/refencode.c"),
              FileManager.default.fileExists(atPath: source.path) else { return nil }
        let output = Fixtures.repositoryRoot.appendingPathComponent(".build/refencode")
        let attributes = { (url: URL) in (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date }
        if let sourceDate = attributes(source), let builtDate = attributes(output), builtDate >= sourceDate {
            return output
        }
        let status = ReferenceDecoder.run("/usr/bin/env", ["cc", "-O2", "-o", output.path, source.path, "-ljpeg", "-lpng"])
        return status?.status == 0 ? output : nil
    }

    /// refencode's flags for `options` (quality, subsampling, optimise, progressive, restart rows).
    public static func arguments(for options: JPEG.EncodingOptions) -> [String] {
        var arguments = ["--quality", String(options.quality), "--subsampling"]
        switch options.subsampling {
        case .yCbCr444: arguments.append("444")
        case .yCbCr422: arguments.append("422")
        case .yCbCr420: arguments.append("420")
        case .grayscale: arguments.append("gray")
        }
        if options.isProgressive { arguments.append("--progressive") }
        if options.optimizesHuffmanTables { arguments.append("--optimize") }
        if options.restartRows > 0 { arguments += ["--restart-rows", String(options.restartRows)] }
        return arguments
    }

    /// The JPEG refencode writes for the PNG at `png`, or `nil` when it is unavailable or fails.
    public static func encode(png: URL, options: JPEG.EncodingOptions) -> [UInt8]? {
        guard let executable else { return nil }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("refencode-\(UUID().uuidString).jpg")
        defer { try? FileManager.default.removeItem(at: output) }
        guard let result = ReferenceDecoder.run(executable.path, ["--iterations", "1"] + arguments(for: options) + ["-o", output.path, png.path]),
              result.status == 0 else { return nil }
        return try? [UInt8](Data(contentsOf: output))
    }

    /// Writes `pixels` as an 8-bit RGB (or grey) PNG for refencode and returns
    /// what it makes of it.
    public static func encode(_ pixels: PixelBuffer, grey: Bool = false, options: JPEG.EncodingOptions) throws -> [UInt8]? {
        guard executable != nil else { return nil }
        let png = try PNG.Encoder(options: PNG.Encoder.Options(colorMode: grey ? .grayscale : .rgb, compressionLevel: 1))
            .encode(pixels.converted(to: .rgba8))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("refencode-\(UUID().uuidString).png")
        try Data(png).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return encode(png: url, options: options)
    }
}
