import ArgumentParser
import Foundation
import Glimpse
import GlimpseCodec

/// `glimpse thumbnail IN... (-o OUT | --output-dir DIR) --size N`: the
/// everyday server job done the cheap way.
struct ThumbnailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Make thumbnails that fit inside N×N.",
        discussion: """
        JPEGs are decoded at a reduced size (DCT scaling 1/2, 1/4 or 1/8, never below the target), turned \
        upright by their EXIF orientation, resized with Lanczos-3 to fit inside N×N (never enlarged) and \
        written as JPEG (quality 80, 4:2:0), or PNG when the result has transparency or 16-bit samples (the \
        pipeline's rule for processed images), unless --format or the \
        extension of -o OUT (.jpg, .png, .webp) says otherwise; WebP is lossy at --quality. An embedded ICC \
        profile is converted to sRGB and dropped (--color srgb, the default, as image proxies do: the thumbnail \
        looks the same in every viewer without carrying the profile); --color preserve keeps pixels and profile. \
        One line per file: \
        "IN: ok WxH -> OUT (BYTES bytes, T ms)" or "IN: error …"; the exit status is 1 when any file failed.
        """
    )

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case jpeg, png, webp

        /// The format a file name's extension names, if any.
        init?(path: String) {
            switch (path as NSString).pathExtension.lowercased() {
            case "jpg", "jpeg": self = .jpeg
            case "png": self = .png
            case "webp": self = .webp
            default: return nil
            }
        }

        var imageFormat: ImageFormat {
            switch self {
            case .jpeg: .jpeg
            case .png: .png
            case .webp: .webp
            }
        }

        var fileExtension: String {
            switch self {
            case .jpeg: ".jpg"
            case .png: ".png"
            case .webp: ".webp"
            }
        }
    }

    @Argument(help: "Images to make thumbnails of.")
    var files: [String]

    @Option(name: .shortAndLong, help: "Output file (one input only).")
    var output: String?

    @Option(help: ArgumentHelp("Write DIR/NAME.jpg (or .png, .webp) for each input.", valueName: "DIR"))
    var outputDir: String?

    @Option(help: "The box the thumbnail fits inside, in pixels.")
    var size: Int

    @Option(help: "JPEG and WebP quality, 1-100.")
    var quality: Int = 80

    @Option(help: "Output format (default: the extension of -o OUT, else JPEG, or PNG for transparent or 16-bit results).")
    var format: OutputFormat?

    @Option(help: "An embedded ICC profile: converted to sRGB and dropped (srgb), kept with the pixels as stored (preserve), or converted to the RGB or grey ICC profile at this path, which the thumbnail then carries.")
    var color: ColorArgument = .srgb

    func validate() throws {
        guard size >= 1 else { throw ValidationError("--size must be at least 1") }
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be in 1...100") }
        guard (output != nil) != (outputDir != nil) else { throw ValidationError("give either -o OUT or --output-dir DIR") }
        guard output == nil || files.count == 1 else { throw ValidationError("-o takes one input file; use --output-dir") }
        if let output, let format, let named = OutputFormat(path: output), named != format {
            throw ValidationError("\(output) names \(named.rawValue) output, but --format is \(format.rawValue)")
        }
    }

    func run() throws {
        if let outputDir {
            do {
                try FileManager.default.createDirectory(atPath: outputDir, withIntermediateDirectories: true)
            } catch {
                throw CommandFailure("\(outputDir): cannot create directory")
            }
        }
        var failed = false
        let clock = ContinuousClock()
        for file in files {
            let start = clock.now
            do throws(CommandFailure) {
                let (bytes, width, height, path) = try thumbnail(file)
                try ImageFiles.write(bytes, to: path)
                let ms = Measurements.milliseconds(clock.now - start)
                print(String(format: "%@: ok %dx%d -> %@ (%d bytes, %.1f ms)", file, width, height, path, bytes.count, ms))
            } catch {
                failed = true
                print("\(file): error \(error.message)")
            }
        }
        if failed { throw ExitCode(1) }
    }

    private func thumbnail(_ file: String) throws(CommandFailure) -> (bytes: [UInt8], width: Int, height: Int, path: String) {
        // The file goes to the decoder in pieces, so that it is never held twice
        // (a streamed PNG never holds it at all).
        var options = DecodingOptions()
        options.colorPolicy = try color.policy()
        var decoder = ThumbnailDecoder(maxPixelSize: size, options: options)
        var image: Image
        try Self.readChunks(file) { chunk throws(ThumbnailDecoder.Failure) in try decoder.append(chunk) }
        do {
            image = try decoder.finish()
        } catch {
            throw Self.failure(error)
        }
        let outputFormat = format ?? output.flatMap(OutputFormat.init(path:))
            ?? (DataCacheEncoder.processedFormat(of: image, registry: .standard) == .jpeg ? .jpeg : .png)
        let path = output ?? Self.outputPath(for: file, in: outputDir ?? ".", format: outputFormat)
        var encoding = EncodingOptions(quality: quality, metadata: .iccProfile)
        encoding.jpeg = JPEG.EncodingOptions(quality: quality, subsampling: .yCbCr420, metadata: [.iccProfile])
        do {
            let encoded = try EncoderRegistry.standard.encode(image, as: outputFormat.imageFormat, options: encoding)
            return (encoded, image.width, image.height, path)
        } catch {
            throw CommandFailure("cannot encode: \(error)")
        }
    }

    /// Passes the file at `path` to `body` 256 KiB at a time.
    static func readChunks(_ path: String,
                           _ body: (UnsafeRawBufferPointer) throws(ThumbnailDecoder.Failure) -> Void) throws(CommandFailure) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw CommandFailure("\(path): cannot read: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let capacity = 256 << 10
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(fd, buffer, capacity)
            if count < 0 {
                if errno == EINTR { continue }
                throw CommandFailure("\(path): cannot read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { return }
            do {
                // `read` filled `count` ≤ `capacity` bytes of the buffer.
                try body(UnsafeRawBufferPointer(start: buffer, count: count))
            } catch {
                throw Self.failure(error)
            }
        }
    }

    static func failure(_ error: ThumbnailDecoder.Failure) -> CommandFailure {
        switch error {
        case .decoding(let error): CommandFailure("\(error)")
        case .transform(let error): CommandFailure("cannot resize: \(error)")
        }
    }

    static func outputPath(for file: String, in directory: String, format: OutputFormat) -> String {
        let name = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        return (directory as NSString).appendingPathComponent(name + format.fileExtension)
    }
}
