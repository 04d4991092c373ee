import CReferenceDecoders
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GlimpseCodec

/// One decoder's answer on an input, in the terms the comparison uses.
enum DiffOutcome: Equatable {
    case pixels(width: Int, height: Int, rgba: [UInt8])
    case rejected
    /// Outside what the comparison covers.
    case noVerdict

    /// Our decoder's answer: limits are ours to choose, so exceeding them is no verdict.
    init(_ result: Result<Image, ImageDecodingError>) {
        switch result {
        case .success(let image):
            self = .pixels(width: image.width, height: image.height, rgba: image.pixels.bytes)
        case .failure(.limitExceeded):
            self = .noVerdict
        case .failure:
            self = .rejected
        }
    }

    /// The reference's answer, taking ownership of the buffer it returned.
    init(_ result: ReferenceResult, rgba: UnsafeMutablePointer<UInt8>?, width: Int32, height: Int32) {
        defer { free(rgba) }
        switch result {
        case REFERENCE_DECODED:
            guard let rgba else { self = .noVerdict; return }
            let count = Int(width) * Int(height) * 4
            self = .pixels(width: Int(width), height: Int(height), rgba: Array(UnsafeBufferPointer(start: rgba, count: count)))
        case REFERENCE_REJECTED:
            self = .rejected
        default:
            self = .noVerdict
        }
    }

    /// A disagreement between `ours` and `reference`, described; `nil` when they agree.
    static func disagreement(ours: DiffOutcome, reference: DiffOutcome, ourError: String) -> String? {
        switch (ours, reference) {
        case (.noVerdict, _), (_, .noVerdict), (.rejected, .rejected):
            return nil
        case (.rejected, .pixels):
            return "Glimpse rejects (\(ourError)), the reference decodes"
        case (.pixels, .rejected):
            return "Glimpse decodes, the reference rejects"
        case let (.pixels(w1, h1, a), .pixels(w2, h2, b)):
            if w1 != w2 || h1 != h2 { return "size \(w1)x\(h1), reference \(w2)x\(h2)" }
            guard let first = a.indices.first(where: { a[$0] != b[$0] }) else { return nil }
            let pixel = first / 4
            return "pixels differ first at (\(pixel % max(w1, 1)), \(pixel / max(w1, 1))) channel \(first % 4): \(a[first]) vs reference \(b[first])"
        }
    }
}
