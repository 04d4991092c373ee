import ArgumentParser
import Foundation
import GlimpseCodec

/// `glimpse bench-encode IN.png …`: times JPEG encoding the way `refencode` does.
struct BenchEncodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-encode",
        abstract: "Time JPEG encoding; prints glimpse-encode,FILE,WIDTH,HEIGHT,BYTES,MEDIAN_MS,MPIX_PER_S.",
        discussion: """
        The same line and scope as refencode (../shared/tools/refencode.c): the pixels are decoded before \
        the clock starts; encoding into memory is timed; alpha is ignored and a grey image gives a greyscale \
        JPEG, as refencode does. The median is the upper middle of the sorted times, as refencode takes it.
        """
    )

    @Argument(help: "Images to encode (any format Glimpse decodes).")
    var files: [String]

    @OptionGroup var jpeg: JPEGEncodingArguments

    @Option(help: "Encodes per file.")
    var iterations: Int = 5

    @Option(name: .shortAndLong, help: "Write the last JPEG here (one input file only).")
    var output: String?

    func validate() throws {
        guard iterations >= 1 else { throw ValidationError("--iterations must be at least 1") }
        guard output == nil || files.count == 1 else { throw ValidationError("-o takes one input file") }
    }

    func run() throws {
        for file in files {
            var decoding = DecodingOptions()
            decoding.firstFrameOnly = true
            let image = try ImageFiles.decode(file, options: decoding)
            var options = jpeg.options(for: image.pixels, metadata: [])
            options.alpha = .ignore
            let encoder = JPEG.Encoder(options: options)
            let clock = ContinuousClock()
            var times: [Double] = []
            var bytes: [UInt8] = []
            for _ in 0..<iterations {
                bytes = []
                let start = clock.now
                do {
                    bytes = try encoder.encode(image.pixels)
                } catch {
                    throw CommandFailure("\(file): cannot encode: \(error)")
                }
                let elapsed = clock.now - start
                times.append(Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15)
            }
            times.sort()
            let median = times[times.count / 2]
            print(String(format: "glimpse-encode,%@,%d,%d,%d,%.3f,%.1f", file, image.width, image.height, bytes.count,
                         median, Double(image.width * image.height) / 1e3 / median))
            if let output { try ImageFiles.write(bytes, to: output) }
        }
    }
}
