import CZlib
import Foundation
import GlimpseCodec
import TestSupport

/// Helpers shared by the WebP tests: a byte-level RIFF writer, the fixture tables and checksums.
enum WebPTestSupport {
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(CZlib.crc32(0, $0.baseAddress, UInt32($0.count))) }
    }

    static func le(_ value: Int, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// A chunk: tag, size (the payload's unless `declared`), payload, padding byte when odd.
    static func chunk(_ tag: String, _ payload: [UInt8], declared: Int? = nil, pad: Bool = true) -> [UInt8] {
        Array(tag.utf8) + le(declared ?? payload.count, 4) + payload + (pad && payload.count % 2 == 1 ? [0] : [])
    }

    /// `RIFF`, the size (of what follows, unless `declared`), `WEBP`, the chunks.
    static func riff(_ chunks: [[UInt8]], declared: Int? = nil) -> [UInt8] {
        let body = Array("WEBP".utf8) + chunks.flatMap { $0 }
        return Array("RIFF".utf8) + le(declared ?? body.count, 4) + body
    }

    static func vp8x(flags: UInt8, width: Int, height: Int) -> [UInt8] {
        chunk("VP8X", [flags, 0, 0, 0] + le(width - 1, 3) + le(height - 1, 3))
    }

    static func anim(background: UInt32 = 0, loops: Int = 0) -> [UInt8] {
        chunk("ANIM", le(Int(background), 4) + le(loops, 2))
    }

    static func anmf(x: Int = 0, y: Int = 0, width: Int, height: Int, duration: Int = 100,
                     dispose: Bool = false, blend: Bool = true, _ inner: [[UInt8]]) -> [UInt8] {
        let bits: UInt8 = (dispose ? 1 : 0) | (blend ? 0 : 2)
        return chunk("ANMF", le(x / 2, 3) + le(y / 2, 3) + le(width - 1, 3) + le(height - 1, 3) + le(duration, 3) + [bits]
                     + inner.flatMap { $0 })
    }

    /// The payloads of a simple or extended file's chunks after `VP8X`, in order.
    static func chunks(of file: [UInt8]) -> [(tag: String, payload: [UInt8])] {
        var result: [(String, [UInt8])] = []
        var p = 12
        while p + 8 <= file.count {
            let tag = String(decoding: file[p..<p + 4], as: UTF8.self)
            let size = Int(file[p + 4]) | Int(file[p + 5]) << 8 | Int(file[p + 6]) << 16 | Int(file[p + 7]) << 24
            guard p + 8 + size <= file.count else { break }
            result.append((tag, Array(file[p + 8..<p + 8 + size])))
            p += 8 + size + (size & 1)
        }
        return result
    }

    /// `../shared` beside the repository or beside one of its parent folders (a worktree
    /// sits one level deeper), when present.
    static let sharedRoot: URL? = {
        if let url = Fixtures.shared { return url }
        var folder = Fixtures.repositoryRoot.deletingLastPathComponent()
        for _ in 0..<2 {
            let candidate = folder.deletingLastPathComponent().appendingPathComponent("shared")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }()

    /// A folder under `../shared`, when present.
    static func shared(_ subpath: String) -> URL? {
        guard let url = sharedRoot?.appendingPathComponent(subpath), FileManager.default.fileExists(atPath: url.path) else {
            return nil
        }
        return url
    }

    /// A fixture of `Fixtures/webp`.
    static func fixture(_ name: String) throws -> [UInt8] { try Fixtures.bytes("webp/\(name)") }

    /// The VP8L payload of `lossless-alpha.webp` (9×7, alpha) and the VP8 payload of `lossy.webp` (33×17).
    static func losslessPayload() throws -> [UInt8] { try chunks(of: fixture("lossless-alpha.webp"))[0].payload }
    static func lossyPayload() throws -> [UInt8] { try chunks(of: fixture("lossy.webp"))[0].payload }

    /// `FILE <TAB> INDEX <TAB> DURATION <TAB> CRC` lines (`expected.tsv`, `pillow-anim-frames.tsv`).
    struct FrameTable {
        var frames: [String: [(duration: Int, crc: UInt32)]] = [:]
        var rejected: Set<String> = []
        var loops: [String: Int] = [:]
        /// Files Pillow reads as RGB (VP8X alpha flag clear): it drops the canvas alpha.
        var opaqueInPillow: Set<String> = []

        init(_ url: URL) {
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { return }
            for line in text.split(separator: "\n") {
                let f = line.split(separator: "\t").map(String.init)
                guard f.count == 4 else { continue }
                if f[3] == "ERROR" { rejected.insert(f[0]); continue }
                if f[1] == "loop" {
                    loops[f[0]] = Int(f[2])
                    if f[3] == "RGB" { opaqueInPillow.insert(f[0]) }
                    continue
                }
                frames[f[0], default: []].append((Int(f[2]) ?? 0, UInt32(f[3], radix: 16) ?? 0))
            }
        }
    }

    static let expected = FrameTable(Fixtures.url("webp/expected.tsv"))
    static let pillow = FrameTable(Fixtures.url("webp/pillow-anim-frames.tsv"))

    /// CRC-32 of a frame's RGBA bytes, with alpha forced to 255 when `opaque`.
    static func crc(_ frame: ImageFrame, opaque: Bool = false) -> UInt32 {
        guard opaque else { return crc32(frame.pixels.bytes) }
        var bytes = frame.pixels.bytes
        for i in stride(from: 3, to: bytes.count, by: 4) { bytes[i] = 255 }
        return crc32(bytes)
    }
}
