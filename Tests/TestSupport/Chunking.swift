import GlimpseCodec

/// Feeds a decoder in different chunkings, for the "same output whatever the
/// chunking" guarantee of the decoder contract.
public enum Chunking: Sendable, CustomStringConvertible {
    case oneShot
    case fixed(Int)
    /// Pseudo-random sizes 1…`maximum` from a fixed seed (reproducible).
    case random(seed: UInt64, maximum: Int)

    public static let standard: [Chunking] = [.oneShot, .fixed(1), .fixed(7), .random(seed: 0x9E37_79B9, maximum: 4096)]

    public var description: String {
        switch self {
        case .oneShot: "one-shot"
        case .fixed(let n): "\(n)-byte"
        case .random(let seed, let maximum): "random(\(seed), ≤\(maximum))"
        }
    }

    /// Splits `bytes` into chunks.
    public func split(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        switch self {
        case .oneShot:
            return [bytes[...]]
        case .fixed(let size):
            return stride(from: 0, to: bytes.count, by: size).map { bytes[$0..<min($0 + size, bytes.count)] }
        case .random(var state, let maximum):
            var chunks: [ArraySlice<UInt8>] = []
            var position = 0
            while position < bytes.count {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let size = 1 + Int((state >> 33) % UInt64(maximum))
                let end = min(position + size, bytes.count)
                chunks.append(bytes[position..<end])
                position = end
            }
            return chunks
        }
    }

    /// Decodes `bytes` with a fresh `D`, fed in this chunking.
    public func decode<D: ImageDecoder>(_ type: D.Type, _ bytes: [UInt8], options: DecodingOptions = DecodingOptions()) -> Result<Image, ImageDecodingError> {
        var decoder = D(options: options)
        do throws(ImageDecodingError) {
            for chunk in split(bytes) {
                _ = try decoder.append(chunk)
            }
            return .success(try decoder.finish())
        } catch {
            return .failure(error)
        }
    }
}
