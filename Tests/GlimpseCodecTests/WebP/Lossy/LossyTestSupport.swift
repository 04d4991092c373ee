import Foundation
import TestSupport
@testable import GlimpseCodec

/// Test-side helpers for the lossy decoder until the container decoder is wired
/// in: a minimal RIFF walk that finds the `VP8 ` chunk, and libwebp's pixels
/// through `refdecode` built with `-DWITH_WEBP`.
enum LossyTestSupport {
    /// `../shared`, or the folder named by `GLIMPSE_SHARED` for a worktree not beside it.
    static let shared: URL? = Fixtures.shared ?? ProcessInfo.processInfo.environment["GLIMPSE_SHARED"].map {
        URL(fileURLWithPath: $0)
    }.flatMap { FileManager.default.fileExists(atPath: $0.path) ? $0 : nil }

    /// A folder of the shared corpus or bench set, when present.
    static func shared(_ subpath: String) -> URL? {
        guard let url = shared?.appendingPathComponent(subpath), FileManager.default.fileExists(atPath: url.path) else {
            return nil
        }
        return url
    }

    /// The payload of the first `VP8 ` chunk (top level or inside the first
    /// `ANMF`), or `nil` for lossless and unparseable files.
    static func vp8Payload(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) else {
            return nil
        }
        return findVP8(bytes, from: 12, to: bytes.count)
    }

    private static func findVP8(_ bytes: [UInt8], from start: Int, to end: Int) -> ArraySlice<UInt8>? {
        var position = start
        while position + 8 <= end {
            let tag = String(decoding: bytes[position..<position + 4], as: UTF8.self)
            let size = Int(bytes[position + 4]) | Int(bytes[position + 5]) << 8
                | Int(bytes[position + 6]) << 16 | Int(bytes[position + 7]) << 24
            let body = position + 8
            let bodyEnd = min(end, body + size)
            if tag == "VP8 " { return bytes[body..<bodyEnd] }
            if tag == "ANMF", bodyEnd - body > 16 { return findVP8(bytes, from: body + 16, to: bodyEnd) }
            if tag == "VP8L" { return nil }
            position = body + size + (size & 1)
        }
        return nil
    }

    /// `refdecode` with libwebp, built once into the build folder; `nil` when
    /// libwebp-dev or the shared tools are missing.
    static let reference: URL? = {
        guard let source = shared?.appendingPathComponent("tools/refdecode.c"),
              FileManager.default.fileExists(atPath: source.path) else { return nil }
        let output = Fixtures.repositoryRoot.appendingPathComponent(".build/refdecode-webp-lossy")
        if FileManager.default.fileExists(atPath: output.path) { return output }
        let status = ReferenceDecoder.run("/usr/bin/env", ["cc", "-O2", "-DWITH_WEBP", "-o", output.path, source.path,
                                                           "-ljpeg", "-lpng", "-lgif", "-lwebp", "-lwebpdemux"])
        return status?.status == 0 ? output : nil
    }()

    /// libwebp's RGBA for `file` (first frame), or `nil` when libwebp rejects it.
    static func referencePixels(_ file: URL) -> PixelBuffer? {
        guard let reference else { return nil }
        let dump = FileManager.default.temporaryDirectory.appendingPathComponent("refwebp-\(UUID().uuidString).pam")
        defer { try? FileManager.default.removeItem(at: dump) }
        guard let result = ReferenceDecoder.run(reference.path, ["--iterations", "1", "--dump", dump.path, file.path]),
              result.status == 0, let bytes = try? [UInt8](Data(contentsOf: dump)) else { return nil }
        return try? PAM.decode(bytes)
    }

    /// Decodes a `VP8 ` payload into its own RGBA buffer.
    static func decode(_ payload: ArraySlice<UInt8>) throws(ImageDecodingError) -> PixelBuffer {
        let header = try WebP.LossyDecoder.header(of: payload)
        var pixels = [UInt8](repeating: 0, count: header.width * header.height * 4)
        try WebP.LossyDecoder.decode(payload, into: &pixels)
        return PixelBuffer(width: header.width, height: header.height, bytes: pixels)!
    }

    /// The first pixel where RGB differs (alpha is the container's), or `nil`.
    static func firstRGBDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> (x: Int, y: Int)? {
        guard a.width == b.width, a.height == b.height else { return (-1, -1) }
        for i in stride(from: 0, to: a.bytes.count, by: 4) where
            a.bytes[i] != b.bytes[i] || a.bytes[i + 1] != b.bytes[i + 1] || a.bytes[i + 2] != b.bytes[i + 2] {
            return ((i / 4) % a.width, (i / 4) / a.width)
        }
        return nil
    }
}
