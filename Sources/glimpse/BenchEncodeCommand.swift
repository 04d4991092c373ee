import ArgumentParser
import Foundation
import GlimpseCodec

/// `glimpse bench-encode IN.png …`: times JPEG encoding the way `refencode` does, or WebP
/// encoding beside `cwebp`.
struct BenchEncodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-encode",
        abstract: "Time JPEG or WebP encoding; prints glimpse-encode,FILE,WIDTH,HEIGHT,BYTES,MEDIAN_MS,MPIX_PER_S.",
        discussion: """
        JPEG: the same line and scope as refencode (../shared/tools/refencode.c): the pixels are decoded before \
        the clock starts; encoding into memory is timed; alpha is ignored and a grey image gives a greyscale \
        JPEG, as refencode does. The median is the upper middle of the sorted times, as refencode takes it.

        WebP (--format webp): the pixels, alpha included, are encoded into memory with --quality, --method, \
        --lossless, --effort and --alpha-quality. With --cwebp PATH each iteration also runs that cwebp on the \
        same file with the same settings (-q/-m, or -lossless -z; -exact unless --drop-transparent-color; \
        -alpha_q), alternating with Glimpse, and takes cwebp's own 'Time to encode picture' (reading the PNG is \
        not counted, as it is not for Glimpse). It then prints a cwebp-encode line of the same fields and \
        ratio,FILE,TIME_RATIO,BYTES_RATIO (Glimpse over cwebp).
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case jpeg, webp
    }

    @Argument(help: "Images to encode (any format Glimpse decodes).")
    var files: [String]

    @Option(help: "jpeg or webp.")
    var format: Format = .jpeg

    @OptionGroup var jpeg: JPEGEncodingArguments

    @OptionGroup var webp: WebPEncodingArguments

    @Option(help: "WebP: the cwebp to time alternately with Glimpse (e.g. /usr/bin/cwebp).")
    var cwebp: String?

    @Option(help: "Encodes per file.")
    var iterations: Int = 5

    @Option(name: .shortAndLong, help: "Write the last encoded file here (one input file only).")
    var output: String?

    func validate() throws {
        guard iterations >= 1 else { throw ValidationError("--iterations must be at least 1") }
        guard output == nil || files.count == 1 else { throw ValidationError("-o takes one input file") }
        guard cwebp == nil || format == .webp else { throw ValidationError("--cwebp needs --format webp") }
    }

    func run() throws {
        for file in files {
            var decoding = DecodingOptions()
            decoding.firstFrameOnly = true
            let image = try ImageFiles.decode(file, options: decoding)
            let encode: () throws -> [UInt8]
            switch format {
            case .jpeg:
                var options = jpeg.options(for: image.pixels, metadata: [])
                options.alpha = .ignore
                let encoder = JPEG.Encoder(options: options)
                encode = { try encoder.encode(image.pixels) }
            case .webp:
                let encoder = WebP.Encoder(options: webp.options(quality: jpeg.quality, metadata: []))
                encode = { try encoder.encode(image.pixels) }
            }
            let clock = ContinuousClock()
            var times: [Double] = [], referenceTimes: [Double] = []
            var bytes: [UInt8] = [], referenceBytes = 0
            for _ in 0..<iterations {
                bytes = []
                let start = clock.now
                do {
                    bytes = try encode()
                } catch {
                    throw CommandFailure("\(file): cannot encode: \(error)")
                }
                let elapsed = clock.now - start
                times.append(Measurements.milliseconds(elapsed))
                if let cwebp {
                    let (milliseconds, count) = try runCWebP(cwebp, file)
                    referenceTimes.append(milliseconds)
                    referenceBytes = count
                }
            }
            let median = Measurements.upperMiddle(times)
            let pixels = Double(image.width * image.height)
            print(String(format: "glimpse-encode,%@,%d,%d,%d,%.3f,%.1f", file, image.width, image.height, bytes.count,
                         median, pixels / 1e3 / median))
            if !referenceTimes.isEmpty {
                let reference = Measurements.upperMiddle(referenceTimes)
                print(String(format: "cwebp-encode,%@,%d,%d,%d,%.3f,%.1f", file, image.width, image.height, referenceBytes,
                             reference, pixels / 1e3 / reference))
                print(String(format: "ratio,%@,%.3f,%.4f", file, median / reference,
                             Double(bytes.count) / Double(max(referenceBytes, 1))))
            }
            if let output { try ImageFiles.write(bytes, to: output) }
        }
    }


    /// cwebp's settings for the WebP arguments.
    func cwebpArguments() -> [String] {
        var arguments = webp.lossless ? ["-lossless", "-z", String(webp.effort)] : ["-q", String(jpeg.quality), "-m", String(webp.method)]
        if !webp.dropTransparentColor { arguments.append("-exact") }
        arguments += ["-alpha_q", String(webp.alphaQuality)]
        return arguments
    }

    /// Runs cwebp once on `file`: its own encoding time in milliseconds and the file's size.
    func runCWebP(_ cwebp: String, _ file: String) throws -> (Double, Int) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-bench-\(UUID().uuidString).webp")
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: cwebp)
        process.arguments = ["-v"] + cwebpArguments() + [file, "-o", output.path]
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        do { try process.run() } catch { throw CommandFailure("\(cwebp): cannot run: \(error)") }
        let log = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CommandFailure("\(cwebp) failed on \(file): \(log)") }
        // "Time to encode picture: 0.123s"
        guard let line = log.split(separator: "\n").first(where: { $0.hasPrefix("Time to encode picture:") }),
              let seconds = Double(line.dropFirst("Time to encode picture:".count).trimmingCharacters(in: .whitespaces)
                                    .trimmingCharacters(in: CharacterSet(charactersIn: "s"))) else {
            throw CommandFailure("\(cwebp) printed no encoding time: \(log)")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int) ?? 0
        return (seconds * 1e3, size)
    }
}
