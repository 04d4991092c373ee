import CReferenceDecoders
import FuzzTargets
import GlimpseCodec

/// gif-diff: the first composed frame of `GIF.Decoder` in strict mode (with
/// `firstFrameOnly`, so only the bytes up to that frame count) against giflib's
/// first frame composed as `refdecode` composes it (see `ReferenceGIF.c`).
enum GIFDiff {
    static let options: DecodingOptions = {
        var options = FuzzChecks.options
        options.mode = .strict
        options.firstFrameOnly = true
        return options
    }()

    static func compare(_ bytes: [UInt8]) -> String? {
        let result = Result { () throws(ImageDecodingError) in try GIF.Decoder.decode(bytes, options: options) }
        // giflib 5 decodes a code above the next free one instead of failing, into
        // bytes no encoder meant (see the GIF README): no reference there.
        if case .failure(.malformed(.gif(.lzwCode(_, _)))) = result { return nil }
        // giflib also decodes a minimum code size of 0 (1-bit codes, clear code 1),
        // which GIF89a §22 does not allow; Glimpse rejects it.
        if case .failure(.malformed(.gif(.lzwMinimumCodeSize(0)))) = result { return nil }
        var rgba: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0, height: Int32 = 0
        let status = bytes.withUnsafeBufferPointer { buffer in
            reference_gif_first_frame(buffer.baseAddress, buffer.count, options.limits.maxPixelsPerFrame, &rgba, &width, &height)
        }
        let reference = DiffOutcome(status, rgba: rgba, width: width, height: height)
        let ourError = (try? result.get()).map { _ in "" } ?? "\(result)"
        return DiffOutcome.disagreement(ours: DiffOutcome(result), reference: reference, ourError: ourError)
    }
}
