import Foundation
import GlimpseCodec

/// `../shared/tools/refdecode` (libjpeg-turbo, libpng, giflib, libwebp), built on first
/// use into the build folder. Tests that compare against it skip when it cannot
/// be built (no `../shared`, no C compiler or no -dev packages; `.ci/run`
/// installs them).
public enum ReferenceDecoder {
    /// The built executable, or `nil` when it cannot be built here.
    public static let executable: URL? = build()

    private static func build() -> URL? {
        guard let source = Fixtures.shared?.appendingPathComponent("tools/refdecode.c"),
              FileManager.default.fileExists(atPath: source.path) else { return nil }
        // A separate name from builds made before WebP support, which the date check would keep.
        let output = Fixtures.repositoryRoot.appendingPathComponent(".build/refdecode-webp")
        if let sourceDate = modificationDate(source), let builtDate = modificationDate(output), builtDate >= sourceDate {
            return output
        }
        let status = run("/usr/bin/env", ["cc", "-O2", "-DWITH_WEBP", "-o", output.path, source.path,
                                          "-ljpeg", "-lpng", "-lgif", "-lwebp", "-lwebpdemux"])
        return status?.status == 0 ? output : nil
    }

    /// Decodes `file` with the reference decoder and returns its first (composed)
    /// frame as RGBA8, or `nil` when the reference rejects the file.
    /// `scale` asks for JPEG DCT scaling 1/scale. `lenient` decodes a JPEG that
    /// libjpeg-turbo decodes only with warnings as `djpeg` does (refdecode's
    /// `--lenient`); without it such a file is rejected.
    public static func decode(_ file: URL, scale: Int = 1, lenient: Bool = false) -> PixelBuffer? {
        guard let executable else { return nil }
        let dump = FileManager.default.temporaryDirectory.appendingPathComponent("refdecode-\(UUID().uuidString).pam")
        defer { try? FileManager.default.removeItem(at: dump) }
        var arguments = ["--iterations", "1", "--dump", dump.path]
        if scale != 1 { arguments += ["--scale", String(scale)] }
        if lenient { arguments.append("--lenient") }
        arguments.append(file.path)
        guard let result = run(executable.path, arguments), result.status == 0,
              let bytes = try? [UInt8](Data(contentsOf: dump)) else { return nil }
        return try? PAM.decode(bytes)
    }

    private static func modificationDate(_ url: URL) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
    }

    /// ``run(_:_:)`` on a dispatch thread: for a program that runs long (a compiler), so that
    /// waiting for it holds none of the cooperative pool's few threads, which the other tests
    /// running at once (the AsyncHTTPClient loader's among them) need.
    public static func runOffThePool(_ path: String, _ arguments: [String]) async -> (status: Int32, output: String)? {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: run(path, arguments)) }
        }
    }

    /// Runs a program to completion, discarding its output.
    @discardableResult
    public static func run(_ path: String, _ arguments: [String]) -> (status: Int32, output: String)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
