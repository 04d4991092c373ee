import ArgumentParser
import GlimpseCodec

/// `--subsampling 444|422|420|gray`.
struct SubsamplingArgument: ExpressibleByArgument, Sendable {
    var value: JPEG.EncodingOptions.Subsampling

    init?(argument: String) {
        switch argument {
        case "444": value = .yCbCr444
        case "422": value = .yCbCr422
        case "420": value = .yCbCr420
        case "gray", "grey": value = .grayscale
        default: return nil
        }
    }

    static var allValueStrings: [String] { ["444", "422", "420", "gray"] }
}

/// `--metadata none|icc|all`.
enum MetadataArgument: String, ExpressibleByArgument, CaseIterable, Sendable {
    case none, icc, all

    var policy: EncodingOptions.MetadataPolicy {
        switch self {
        case .none: .none
        case .icc: .iccProfile
        case .all: .all
        }
    }
}

/// The JPEG settings shared by `encode` and `bench-encode`.
struct JPEGEncodingArguments: ParsableArguments {
    @Option(help: "JPEG quality, 1-100 (libjpeg's scaling of the Annex K tables); also lossy WebP's, as cwebp -q.")
    var quality: Int = 75

    @Option(help: "Chroma subsampling: 444, 422, 420 or gray (default 420; gray for grey images).")
    var subsampling: SubsamplingArgument?

    @Flag(help: "Progressive JPEG (libjpeg's simple progression script; optimised tables).")
    var progressive = false

    @Flag(help: "Optimised Huffman tables (two passes).")
    var optimize = false

    @Option(help: "A restart marker every N MCU rows (0: none).")
    var restartRows: Int = 0

    @Flag(help: "Encode the stored colour of transparent pixels (as cjpeg does) instead of flattening over white.")
    var ignoreAlpha = false

    func validate() throws {
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be in 1...100") }
        guard restartRows >= 0 else { throw ValidationError("--restart-rows must not be negative") }
    }

    /// The options for `pixels`: grey pixels give a greyscale JPEG unless a
    /// subsampling is given, as cjpeg does with a grey input.
    func options(for pixels: PixelBuffer, metadata: JPEG.EncodingOptions.Metadata) -> JPEG.EncodingOptions {
        JPEG.EncodingOptions(quality: quality,
                             subsampling: subsampling?.value ?? (Self.isGrey(pixels) ? .grayscale : .yCbCr420),
                             optimizesHuffmanTables: optimize, isProgressive: progressive, restartRows: restartRows,
                             alpha: ignoreAlpha ? .ignore : .flattenOverWhite, metadata: metadata)
    }

    /// Whether every pixel has R = G = B (8-bit view).
    static func isGrey(_ pixels: PixelBuffer) -> Bool {
        let eight = pixels.converted(to: .rgba8)
        return eight.bytes.withUnsafeBufferPointer { bytes in
            var index = 0
            while index + 3 < bytes.count {
                if bytes[index] != bytes[index + 1] || bytes[index] != bytes[index + 2] { return false }
                index += 4
            }
            return true
        }
    }
}

/// The WebP settings of `encode`.
struct WebPEncodingArguments: ParsableArguments {
    @Flag(help: "Lossless WebP (VP8L) instead of lossy (VP8 at --quality, as cwebp -lossless).")
    var lossless = false

    @Option(help: "WebP lossless effort, 0 (fastest) - 9 (smallest), as cwebp -z (lossy: the alpha's).")
    var effort: Int = 6

    @Option(help: "WebP lossy method, 0 (fastest) - 6 (smallest), as cwebp -m.")
    var method: Int = 4

    @Flag(help: "WebP: zero the colour of fully transparent pixels (smaller; cwebp without -exact).")
    var dropTransparentColor = false

    @Option(help: "WebP lossy: alpha quality, 0-100 (100: exact), as cwebp -alpha_q.")
    var alphaQuality: Int = 100

    @Option(help: "WebP animation: minimum frames between key frames, as gif2webp -kmin (default 9 lossless, 3 lossy).")
    var kmin: Int?

    @Option(help: "WebP animation: maximum frames between key frames, as gif2webp -kmax (0: none; default 17 lossless, 5 lossy).")
    var kmax: Int?

    func validate() throws {
        guard (0...9).contains(effort) else { throw ValidationError("--effort must be in 0...9") }
        guard (0...6).contains(method) else { throw ValidationError("--method must be in 0...6") }
        guard (0...100).contains(alphaQuality) else { throw ValidationError("--alpha-quality must be in 0...100") }
        guard (kmin ?? 0) >= 0, (kmax ?? 0) >= 0 else { throw ValidationError("--kmin and --kmax must not be negative") }
    }

    func options(quality: Int, metadata: WebP.Encoder.Metadata) -> WebP.Encoder.Options {
        var interval: ClosedRange<Int>? = nil
        if kmin != nil || kmax != nil {
            let upper = kmax ?? (lossless ? 17 : 5)
            interval = min(kmin ?? (lossless ? 9 : 3), upper)...upper
        }
        return WebP.Encoder.Options(lossless: lossless, effort: effort, method: method, exact: !dropTransparentColor,
                                    quality: quality, metadata: metadata, keyframeInterval: interval,
                                    alphaQuality: alphaQuality)
    }
}
