import Foundation
import TestSupport
@testable import GlimpseCodec

/// A test-only walk over a WebP file's RIFF chunks (the container decoder is a
/// separate stage), enough to hand a `VP8L` or `ALPH` payload to the lossless decoder.
enum WebPLosslessTestSupport {
    struct Chunk {
        var fourCC: String
        /// The payload.
        var payload: ArraySlice<UInt8>
        /// From the payload to the end of the file: what libwebp hands its VP8L decoder.
        var rest: ArraySlice<UInt8>
    }

    /// The top-level chunks of a RIFF/WEBP file (nil when it is not one).
    static func chunks(_ bytes: [UInt8]) -> [Chunk]? {
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8),
              bytes[8..<12].elementsEqual("WEBP".utf8) else { return nil }
        var chunks: [Chunk] = []
        var offset = 12
        while offset + 8 <= bytes.count {
            let fourCC = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8
                | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            let start = offset + 8
            let end = min(bytes.count, start + size)
            chunks.append(Chunk(fourCC: fourCC, payload: bytes[start..<end], rest: bytes[start...]))
            offset = start + size + (size & 1)
        }
        return chunks
    }

    /// The `VP8L` chunk of a simple lossless file.
    static func vp8lChunk(_ bytes: [UInt8]) -> Chunk? {
        chunks(bytes)?.first { $0.fourCC == "VP8L" }
    }

    static let corpus: URL? = Fixtures.corpus("webp")
    static let bench: URL? = Fixtures.shared?.appendingPathComponent("bench/webp")

    /// Corpus stills whose image is a `VP8L` chunk.
    static var losslessCorpusFiles: [URL] {
        guard let corpus else { return [] }
        return Fixtures.files(in: corpus, extensions: [".webp"]).filter { url in
            guard let bytes = try? Fixtures.bytes(at: url) else { return false }
            return vp8lChunk(bytes) != nil
        }
    }

    /// Corpus stills whose alpha is a lossless-compressed `ALPH` chunk.
    static var compressedAlphaFiles: [URL] {
        guard let corpus else { return [] }
        return Fixtures.files(in: corpus, extensions: [".webp"]).filter { url in
            guard let bytes = try? Fixtures.bytes(at: url),
                  let alpha = chunks(bytes)?.first(where: { $0.fourCC == "ALPH" }) else { return false }
            return alpha.payload.first.map { $0 & 3 == 1 } ?? false
        }
    }
}
