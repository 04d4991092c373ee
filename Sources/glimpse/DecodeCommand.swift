import ArgumentParser
import Foundation
import GlimpseCodec

/// `glimpse decode FILE -o OUT.pam`: decodes to a file.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode an image and write it as PAM (RGBA).",
        discussion: """
        Animations are written as fully composed canvases. 16-bit samples become 8-bit by \
        their high byte unless --depth 16 is given (then MAXVAL is 65535, big-endian samples).

        Damaged files (truncated, bad ancillary checksums, extraneous bytes…) are recovered \
        as browsers show them, with one `warning: FILE: …` line on standard error per \
        recovery, and exit 0. --strict makes any damage an error (exit 1).
        """
    )

    @Argument(help: "The image to decode.")
    var file: String

    @Option(name: .shortAndLong, help: "Output file (.pam, .png, or .gif; .gif writes every frame).")
    var output: String?

    @Option(help: "Frame to write (0-based).")
    var frame: Int = 0

    @Option(help: ArgumentHelp("Write every frame as DIR/frame-0000.pam, frame-0001.pam, …", valueName: "DIR"))
    var allFrames: String?

    @Option(help: "Sample depth of the output: 8 or 16.")
    var depth: Int = 8

    @Option(help: "Decode at a reduced scale (1/2, 1/4, 1/8) where the format allows it (JPEG).")
    var scale: ScaleArgument?

    @Option(help: "An embedded ICC profile: kept with the pixels as stored (preserve), converted to sRGB and dropped (srgb), or converted to the RGB or grey ICC profile at this path, which the output then carries.")
    var color: ColorArgument = .preserve

    @Flag(help: "Fail (exit 1) on any damage instead of recovering from it with a warning.")
    var strict = false

    @Option(help: ArgumentHelp("AVIF only: write the decoded planes as YUV4MPEG2 (as `avifdec IN.avif OUT.y4m` does), before any colour conversion.", valueName: "OUT.y4m"))
    var yuv: String?

    @Flag(help: "With --yuv: leave out the film grain (AV1 §7.18.3).")
    var noFilmGrain = false

    func validate() throws {
        guard depth == 8 || depth == 16 else { throw ValidationError("--depth must be 8 or 16") }
        guard frame >= 0 else { throw ValidationError("--frame must not be negative") }
        guard output != nil || allFrames != nil || yuv != nil else { throw ValidationError("give -o OUT, --all-frames DIR or --yuv OUT.y4m") }
    }

    func run() throws {
        if let yuv {
            try writePlanes(to: yuv)
            if output == nil && allFrames == nil { return }
        }
        var options = DecodingOptions(mode: strict ? .strict : .lenient, sampleDepth: depth == 16 ? .preserve : .eightBit)
        if let scale { options.scaleDenominator = scale.denominator }
        options.colorPolicy = try color.policy()
        // A .gif output holds every frame (the animation), so it needs them all.
        let writesAnimation = output.map { ($0 as NSString).pathExtension.lowercased() == "gif" } ?? false
        if allFrames == nil, frame == 0, !writesAnimation { options.firstFrameOnly = true }
        let image = try ImageFiles.decode(file, options: options)
        for warning in image.warnings { Terminal.warning("\(file): \(warning)") }
        if let output {
            guard frame < image.frames.count else {
                throw CommandFailure("\(file): frame \(frame) out of range (the image has \(image.frames.count))")
            }
            try ImageFiles.write(try ImageFiles.encode(image, frame: frame, depth: depth, for: output), to: output)
        }
        if let allFrames {
            do {
                try FileManager.default.createDirectory(atPath: allFrames, withIntermediateDirectories: true)
            } catch {
                throw CommandFailure("\(allFrames): cannot create directory")
            }
            for index in image.frames.indices {
                let path = (allFrames as NSString).appendingPathComponent(String(format: "frame-%04d.pam", index))
                try ImageFiles.write(try ImageFiles.encode(image, frame: index, depth: depth, for: path), to: path)
            }
        }
    }

    /// `--yuv`: the AVIF's colour planes, as avifdec writes them.
    private func writePlanes(to path: String) throws {
        var options = DecodingOptions(mode: strict ? .strict : .lenient)
        options.firstFrameOnly = true
        var decoder = AVIF.Decoder(options: options)
        let bytes = try ImageFiles.read(file)
        do {
            guard try decoder.append(bytes) == .complete else { throw CommandFailure("\(file): truncated") }
            let planes = try decoder.decodePlanes(applyingFilmGrain: !noFilmGrain)
            try ImageFiles.write(YUV4MPEG2.encode(planes.color), to: path)
        } catch let error as ImageDecodingError {
            throw CommandFailure("\(file): \(error)")
        }
    }
}
