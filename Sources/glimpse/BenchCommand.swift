import ArgumentParser
import Foundation
import GlimpseCodec

/// `glimpse bench FILE...`: decode timing, in the CSV format of
/// `../shared/tools/refdecode` so the two pair line by line.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time full RGBA8 decodes of image files.",
        discussion: """
        Each file is read into memory and decoded N times, every frame decoded and composed. \
        One CSV line per file: glimpse,FILE,FORMAT,WIDTH,HEIGHT,FRAMES,MEDIAN_MS,MPIX_PER_S.

        A GIF or WebP is walked with GIF.FrameIterator or WebP.FrameIterator and each composed \
        frame is dropped once produced: the work refdecode does with giflib and libwebp's \
        WebPAnimDecoder, which compose every frame onto one canvas. --keep-frames times the \
        whole Image instead, every composed frame kept.
        """
    )

    @Argument(help: "Image files.")
    var files: [String]

    @Option(help: "Decodes per file.")
    var iterations: Int = 5

    @Option(help: "Decode at a reduced scale (1/2, 1/4, 1/8) where the format allows it (JPEG).")
    var scale: ScaleArgument?

    @Option(help: ArgumentHelp("Feed the decoder in chunks of this many bytes instead of all at once.", valueName: "BYTES"))
    var chunkSize: Int?

    @Flag(help: "Keep every composed frame of an animated GIF or WebP (the whole Image) instead of streaming them.")
    var keepFrames = false

    func validate() throws {
        guard iterations >= 1 else { throw ValidationError("--iterations must be at least 1") }
        if let chunkSize, chunkSize < 1 { throw ValidationError("--chunk-size must be at least 1") }
    }

    func run() throws {
        var options = DecodingOptions()
        if let scale { options.scaleDenominator = scale.denominator }
        var failed = false
        for file in files {
            do throws(CommandFailure) {
                print(try measure(file, options: options))
            } catch {
                Terminal.error(error.message)
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
    }

    private func measure(_ file: String, options: DecodingOptions) throws(CommandFailure) -> String {
        let bytes = try ImageFiles.read(file)
        let clock = ContinuousClock()
        let format = FormatSniffer.sniff(bytes, atEnd: true).format
        let streams = !keepFrames && (format == .gif || format == .webp)
        var times: [Double] = []
        var last: Decoded?
        for _ in 0..<iterations {
            // Free the previous result before the next decode, as refdecode does: holding it
            // makes malloc hand back freshly mapped pages (page faults) on every other run.
            last = nil
            let start = clock.now
            do throws(ImageDecodingError) {
                if !streams {
                    last = Decoded(try decode(bytes, options: options))
                } else if format == .webp {
                    last = try stream(WebP.FrameIterator.self, bytes, format: .webp, options: options)
                } else {
                    last = try stream(GIF.FrameIterator.self, bytes, format: .gif, options: options)
                }
            } catch {
                throw CommandFailure("\(file): \(error)")
            }
            let elapsed = clock.now - start
            times.append(Measurements.milliseconds(elapsed))
        }
        guard let image = last else { throw CommandFailure("\(file): nothing decoded") }
        times.sort()
        let median = Measurements.median(times)
        let pixels = Double(image.width * image.height * image.frames)
        return String(format: "glimpse,%@,%@,%d,%d,%d,%.3f,%.1f", file, image.format.description,
                      image.width, image.height, image.frames, median, pixels / 1e3 / median)
    }

    /// What one timed decode leaves behind for the CSV line.
    private struct Decoded {
        var format: ImageFormat
        var width: Int
        var height: Int
        var frames: Int

        init(format: ImageFormat, width: Int, height: Int, frames: Int) {
            self.format = format
            self.width = width
            self.height = height
            self.frames = frames
        }

        init(_ image: Image) {
            self.init(format: image.format, width: image.width, height: image.height, frames: image.frames.count)
        }
    }

    private func decode(_ bytes: [UInt8], options: DecodingOptions) throws(ImageDecodingError) -> Image {
        guard let chunkSize else { return try DecoderRegistry.standard.decode(bytes, options: options) }
        var decoder = AutoDecoder(registry: .standard, options: options)
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + chunkSize, bytes.count)
            _ = try decoder.append(bytes[offset..<end])
            offset = end
        }
        return try decoder.finish()
    }

    /// Decodes and composes every frame of an animation (one for a still WebP), dropping
    /// each one as soon as it is produced; every frame is the whole canvas, as in the
    /// decoded Image.
    private func stream<Frames: ImageFrameIterator>(_: Frames.Type, _ bytes: [UInt8], format: ImageFormat,
                                                    options: DecodingOptions) throws(ImageDecodingError) -> Decoded {
        var frames = 0
        var iterator: Frames
        if let chunkSize {
            iterator = Frames(options: options)
            var offset = 0
            while offset < bytes.count {
                let end = min(offset + chunkSize, bytes.count)
                iterator.append(bytes[offset..<end])
                offset = end
                while try iterator.next() != nil { frames += 1 }
            }
            iterator.endOfInput()
        } else {
            iterator = Frames(bytes, options: options)
        }
        while try iterator.next() != nil { frames += 1 }
        return Decoded(format: format, width: iterator.canvasSize?.width ?? 0,
                       height: iterator.canvasSize?.height ?? 0, frames: frames)
    }
}
