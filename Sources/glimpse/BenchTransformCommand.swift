import ArgumentParser
import Foundation
import GlimpseCodec

/// `glimpse bench-transform`: timing of the transformers on a photo-sized
/// image, one CSV line per case: `transform,<name>,<median ms>,ms`.
struct BenchTransformCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-transform",
        abstract: "Time resize, blur and rotation on a 5120x2880 RGBA8 image.",
        discussion: """
        Without --input the image is synthetic (5120x2880 RGBA8: smooth gradients with fine \
        texture); with --input FILE it is that file, decoded. Each case runs N times; prints \
        transform,NAME,MEDIAN_MS,ms (wall time, or thread CPU time with --cpu-time).
        """
    )

    @Option(help: "Decode this file (or read this PAM) instead of using the synthetic image.")
    var input: String?

    @Option(help: "Runs per case.")
    var iterations: Int = 5

    @Option(help: "Target width of the resize cases.")
    var width: Int = 256

    @Option(help: ArgumentHelp("Also write each case's result to DIR/NAME.pam, to inspect or compare.", valueName: "DIR"))
    var dump: String?

    @Option(help: ArgumentHelp("Run only the cases whose names start with one of these (comma-separated).", valueName: "PREFIXES"))
    var only: String?

    @Flag(help: "Measure this thread's CPU time instead of wall time (steadier on a busy machine).")
    var cpuTime = false

    func validate() throws {
        guard iterations >= 1 else { throw ValidationError("--iterations must be at least 1") }
        guard width >= 1 else { throw ValidationError("--width must be at least 1") }
    }

    func run() throws {
        let pixels: PixelBuffer
        if let input, input.lowercased().hasSuffix(".pam") {
            // A PAM dump (e.g. from refdecode --dump) lets a real photo be used
            // before its format's decoder exists.
            let bytes = try ImageFiles.read(input)
            do throws(ImageDecodingError) {
                pixels = try PAM.decode(bytes).converted(to: .rgba8)
            } catch {
                throw CommandFailure("\(input): \(error)")
            }
        } else if let input {
            pixels = try ImageFiles.decode(input).pixels.converted(to: .rgba8)
        } else {
            pixels = Self.synthetic(width: 5120, height: 2880)
        }
        typealias X = ImageTransformers
        let cases: [(String, any ImageTransformer)] = [
            ("resize-lanczos3-\(width)", X.Resize(width: width, filter: .lanczos3)),
            ("resize-mitchell-\(width)", X.Resize(width: width, filter: .mitchell)),
            ("resize-bilinear-\(width)", X.Resize(width: width, filter: .bilinear)),
            ("resize-lanczos3-linear-\(width)", X.Resize(width: width, filter: .lanczos3, linearLight: true)),
            ("resize-lanczos3-exact-\(width)", X.Resize(width: width, filter: .lanczos3, reducingGap: nil)),
            ("resize-mitchell-exact-\(width)", X.Resize(width: width, filter: .mitchell, reducingGap: nil)),
            ("blur-sigma2", X.GaussianBlur(sigma: 2)),
            ("blur-sigma8-boxcascade", X.GaussianBlur(sigma: 8)),
            ("rotate-90", X.Rotate(degrees: 90)),
            ("rotate-30", X.Rotate(degrees: 30)),
            ("flip-horizontal", X.Flip(.horizontal)),
        ]
        let prefixes = only.map { $0.split(separator: ",").map(String.init) }
        for (name, transformer) in cases where prefixes.map({ $0.contains { name.hasPrefix($0) } }) ?? true {
            let result: PixelBuffer
            do throws(TransformError) {
                print(String(format: "transform,%@,%.3f,ms", name, try median(transformer, pixels)))
                result = try transformer.transform(pixels)
            } catch {
                throw CommandFailure("\(name): \(error)")
            }
            if let dump { try ImageFiles.write(PAM.encode(result), to: "\(dump)/\(name).pam") }
        }
    }

    private func median(_ transformer: any ImageTransformer, _ pixels: PixelBuffer) throws(TransformError) -> Double {
        var times: [Double] = []
        for _ in 0..<iterations {
            let start = now()
            let out = try transformer.transform(pixels)
            let elapsed = now() - start
            // Keep the result observable so the work cannot be optimised away.
            if out.width == 0 { print("empty result") }
            times.append(elapsed)
        }
        times.sort()
        return times.count % 2 == 1 ? times[times.count / 2] : (times[times.count / 2 - 1] + times[times.count / 2]) / 2
    }

    /// Milliseconds on the monotonic clock, or of this thread's CPU time.
    private func now() -> Double {
        var spec = timespec()
        clock_gettime(cpuTime ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) * 1e3 + Double(spec.tv_nsec) / 1e6
    }

    /// Opaque smooth colour ramps plus a fine texture, so filters see both
    /// low and high frequencies, as in a photograph.
    static func synthetic(width: Int, height: Int) -> PixelBuffer {
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        bytes.withUnsafeMutableBufferPointer { bytes in
            for y in 0..<height {
                for x in 0..<width {
                    let o = (y * width + x) * 4
                    let texture = (x &* 7 ^ y &* 13) & 31
                    bytes[o] = UInt8(truncatingIfNeeded: x * 224 / width + texture)
                    bytes[o + 1] = UInt8(truncatingIfNeeded: y * 224 / height + texture)
                    bytes[o + 2] = UInt8(truncatingIfNeeded: (x + y) * 112 / (width + height) + 128 - texture)
                }
            }
        }
        return PixelBuffer(width: width, height: height, bytes: bytes) ?? PixelBuffer(width: width, height: height)
    }
}
