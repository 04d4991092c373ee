import ArgumentParser
import Foundation
import GlimpseCodec

/// `glimpse bench-color [--profile ICC]`: times converting an image through an ICC profile to
/// sRGB, alternating with LittleCMS 2 (through Python's imagecodecs) on the same pixels.
struct BenchColorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-color",
        abstract: "Time an ICC profile's conversion to sRGB beside LittleCMS 2; prints color,… lines.",
        discussion: """
        The pixels are a 3840×2160 RGBA image (a smooth pattern with noise, like a photograph's) or the first \
        frame of --input. Each round times Glimpse building the transform (ColorTransform) and converting the \
        buffer in place, then LittleCMS 2 doing the same through imagecodecs.cms_transform (cmsCreateTransform \
        and cmsDoTransform on RGBA, perceptual intent), timed inside that Python process so that starting it \
        is not counted. Prints color,glimpse,PROFILE,W,H,MEDIAN_MS,MPIX_PER_S, the same for lcms2, and \
        color,ratio,PROFILE,RATIO (Glimpse over LittleCMS; below 1 is faster). Needs python3 with imagecodecs \
        for the LittleCMS lines (pip install imagecodecs); without it only Glimpse's line is printed.
        """
    )

    @Option(help: "The source ICC profile (default: Adobe RGB (1998) from Debian's icc-profiles-free).")
    var profile = "/usr/share/color/icc/compatibleWithAdobeRGB1998.icc"

    @Option(help: "An image whose first frame is converted instead of the generated pattern.")
    var input: String?

    @Option(help: "Rounds; each times Glimpse and LittleCMS once.")
    var rounds = 7

    @Option(help: "The Python that runs LittleCMS (through imagecodecs).")
    var python = "python3"

    func validate() throws {
        guard rounds >= 1 else { throw ValidationError("--rounds must be at least 1") }
    }

    func run() throws {
        let profileBytes = try ImageFiles.read(profile)
        let source: ICC.Profile
        do {
            source = try ICC.Profile(parsing: profileBytes)
        } catch {
            throw CommandFailure("\(profile): \(error)")
        }
        let pixels = try input.map { try ImageFiles.decode($0).pixels } ?? Self.pattern(width: 3840, height: 2160)
        guard pixels.format == .rgba8 else { throw CommandFailure("bench-color converts 8-bit RGBA; \(input ?? "") is not") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-bench-color-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let raw = directory.appendingPathComponent("in.rgba")
        try Data(pixels.bytes).write(to: raw)

        let clock = ContinuousClock()
        var times: [Double] = [], referenceTimes: [Double] = []
        var hasReference = true
        for _ in 0..<rounds {
            var copy = pixels
            let start = clock.now
            do {
                try ColorTransform(source: source).apply(to: &copy)
            } catch {
                throw CommandFailure("\(profile): \(error)")
            }
            times.append(Measurements.milliseconds(since: start))
            if hasReference {
                if let milliseconds = littleCMS(raw, width: pixels.width, height: pixels.height) {
                    referenceTimes.append(milliseconds)
                } else {
                    hasReference = false
                    Terminal.error("LittleCMS not timed: \(python) with imagecodecs did not run")
                }
            }
        }
        let name = URL(fileURLWithPath: profile).lastPathComponent
        let megapixels = Double(pixels.width * pixels.height) / 1e6
        let median = Measurements.upperMiddle(times)
        print(String(format: "color,glimpse,%@,%d,%d,%.3f,%.1f", name, pixels.width, pixels.height, median, megapixels * 1e3 / median))
        guard hasReference, !referenceTimes.isEmpty else { return }
        let reference = Measurements.upperMiddle(referenceTimes)
        print(String(format: "color,lcms2,%@,%d,%d,%.3f,%.1f", name, pixels.width, pixels.height, reference,
                     megapixels * 1e3 / reference))
        print(String(format: "color,ratio,%@,%.3f", name, median / reference))
    }

    /// LittleCMS's time for one conversion of the RGBA bytes in `raw`, in milliseconds.
    private func littleCMS(_ raw: URL, width: Int, height: Int) -> Double? {
        let script = """
        import sys, time, numpy, imagecodecs
        path, profile, width, height = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
        pixels = numpy.fromfile(path, dtype=numpy.uint8).reshape(height, width, 4)
        source, srgb = open(profile, "rb").read(), imagecodecs.cms_profile("srgb")
        start = time.perf_counter()
        imagecodecs.cms_transform(pixels, source, srgb, colorspace="rgba", outcolorspace="rgba", intent=0)
        print((time.perf_counter() - start) * 1e3)
        """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, "-c", script, raw.path, profile, String(width), String(height)]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return nil
        }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return Double(String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// A smooth gradient with deterministic noise, opaque: colours everywhere in the cube, and
    /// no runs a table could shortcut.
    static func pattern(width: Int, height: Int) -> PixelBuffer {
        var pixels = PixelBuffer(width: width, height: height)
        var state: UInt32 = 0x9E37_79B9
        pixels.bytes.withUnsafeMutableBufferPointer { bytes in
            for y in 0..<height {
                for x in 0..<width {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    let noise = Int(state >> 28) - 8
                    let offset = (y * width + x) * 4
                    bytes[offset] = UInt8(clamping: x * 255 / max(1, width - 1) + noise)
                    bytes[offset + 1] = UInt8(clamping: y * 255 / max(1, height - 1) - noise)
                    bytes[offset + 2] = UInt8(clamping: (x + y) * 255 / max(1, width + height - 2) + noise / 2)
                    bytes[offset + 3] = 255
                }
            }
        }
        return pixels
    }
}
