import CReferenceDecoders
import FuzzTargets
import GlimpseCodec

/// png-diff: `PNG.Decoder` in strict mode against libpng in a strict setting
/// (every CRC and benign error fails; see `ReferencePNG.c`), both to 8-bit RGBA.
enum PNGDiff {
    static let options: DecodingOptions = {
        var options = FuzzChecks.options
        options.mode = .strict
        options.sampleDepth = .eightBit
        return options
    }()

    static func compare(_ bytes: [UInt8]) -> String? {
        // APNG: our decoder composes the animation, libpng shows the default image.
        if contains(bytes, "acTL") { return nil }
        let result = Result { () throws(ImageDecodingError) in try PNG.Decoder.decode(bytes, options: options) }
        var rgba: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0, height: Int32 = 0
        let status = bytes.withUnsafeBufferPointer { buffer in
            reference_png_strict(buffer.baseAddress, buffer.count, options.limits.maxPixelsPerFrame, &rgba, &width, &height)
        }
        let reference = DiffOutcome(status, rgba: rgba, width: width, height: height)
        let ourError = (try? result.get()).map { _ in "" } ?? "\(result)"
        return DiffOutcome.disagreement(ours: DiffOutcome(result), reference: reference, ourError: ourError)
    }

    /// Whether the four ASCII letters occur anywhere in `bytes`.
    static func contains(_ bytes: [UInt8], _ name: StaticString) -> Bool {
        let needle = name.withUTF8Buffer { Array($0) }
        guard bytes.count >= needle.count else { return false }
        for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
            if bytes[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}
