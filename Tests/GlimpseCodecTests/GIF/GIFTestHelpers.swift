import CZlib
import Foundation
import GlimpseCodec
import TestSupport

/// Helpers shared by the GIF tests.
enum GIFTestHelpers {
    /// zlib's CRC-32 (the checksum the reference lists use).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt32(CZlib.crc32(0, buffer.baseAddress, UInt32(buffer.count)))
        }
    }

    /// RGBA bytes with every fully transparent pixel set to (0, 0, 0, 0).
    static func normalised(_ pixels: PixelBuffer) -> [UInt8] {
        var bytes = pixels.bytes
        bytes.withUnsafeMutableBufferPointer { buffer in
            var i = 3
            while i < buffer.count {
                if buffer[i] == 0 { buffer[i - 3] = 0; buffer[i - 2] = 0; buffer[i - 1] = 0 }
                i += 4
            }
        }
        return bytes
    }

    /// Reads `FILE <TAB> INDEX <TAB> CRC…` lines into file → CRC per frame (`nil` for `ERROR`).
    static func frameTable(_ url: URL) -> [String: [UInt32]?] {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [:] }
        var result: [String: [UInt32]?] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count >= 3 else { continue }
            if fields[2] == "ERROR" { result[fields[0]] = .some(nil); continue }
            var list = (result[fields[0]] ?? []) ?? []
            list.append(UInt32(fields[2], radix: 16) ?? 0)
            result[fields[0]] = list
        }
        return result
    }

    /// CRC-32 of each normalised frame.
    static func checksums(_ image: Image) -> [UInt32] {
        image.frames.map { crc32(normalised($0.pixels)) }
    }

    /// Pillow's composed frames of the corpus files (`Fixtures/gif/pillow-corpus-frames.tsv`):
    /// file name → CRC-32 per frame, or `nil` when Pillow rejects the file.
    static let pillowFrames: [String: [UInt32]?] = frameTable(Fixtures.url("gif/pillow-corpus-frames.tsv"))

    /// The corpus's own per-frame references (peterdn PNGs, wuffs NIE frames), as CRC-32s.
    static let corpusExpectedFrames: [String: [UInt32]?] = frameTable(Fixtures.url("gif/corpus-expected-frames.tsv"))

    /// The corpus GIF folder: `../shared/corpus/gif` beside the repository or
    /// beside one of its parent folders (a worktree sits one level deeper), when present.
    static let corpus: URL? = {
        if let url = Fixtures.corpus("gif") { return url }
        var folder = Fixtures.repositoryRoot.deletingLastPathComponent()
        for _ in 0..<2 {
            folder = folder.deletingLastPathComponent()
            let url = folder.appendingPathComponent("shared/corpus/gif")
            if FileManager.default.fileExists(atPath: url.path) { return url }
        }
        return nil
    }()
}
