import GlimpseCodec

/// The fuzz targets and what each checks. Shared (through a symlink) by the
/// `Fuzz/` package's entry points and by the unit test that replays
/// `Fuzz/Regressions`, so a finding is replayed with exactly the logic that found it.
///
/// Decoders must never crash, hang or allocate without bound on any input; on
/// top of that, `incremental` and `roundtrip` check invariants and report a
/// violation, which the harnesses turn into a crash.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// One-shot decode with the PNG/APNG decoder.
    case png
    /// One-shot decode with the JPEG decoder.
    case jpeg
    /// One-shot decode with the GIF decoder.
    case gif
    /// One-shot decode with the WebP decoder, then every frame again through `WebP.FrameIterator`
    /// in pieces: the frames must be the decoder's.
    case webp
    /// `AVIF.Decoder` one-shot (container, AV1 decoding, RGBA), then in pieces: the info and the
    /// outcome must be the same.
    case avif
    /// Sniffing plus the registry's decoder for whatever it finds.
    case sniff
    /// Split at positions derived from the input's hash; the result must equal the one-shot decode.
    case incremental
    /// Decode, encode with our encoder, decode again: the pixels must be equal.
    case roundtrip
    /// Parse as an ICC profile, build its transform to sRGB, run it on a few pixels
    /// (``FuzzChecks/convertThroughProfile(_:)``).
    case icc

    /// The formats whose files seed this target.
    public var seedExtensions: [String] {
        switch self {
        case .png: [".png", ".apng"]
        case .jpeg: [".jpg", ".jpeg"]
        case .gif: [".gif"]
        case .webp: [".webp"]
        case .avif: [".avif"]
        case .sniff, .incremental: [".png", ".apng", ".jpg", ".jpeg", ".gif", ".webp", ".avif"]
        case .roundtrip: [".png", ".apng", ".jpg", ".jpeg", ".gif", ".webp"]
        case .icc: [".icc", ".icm"]
        }
    }

    /// Folders outside the repository that also seed this target, when present: Debian's
    /// profiles (icc-profiles-free, colord-data, libgs-common) for `icc`.
    public var seedDirectories: [String] {
        switch self {
        case .icc: ["/usr/share/color/icc", "/usr/share/ghostscript"]
        default: []
        }
    }
}

public enum FuzzChecks {
    /// Strict decoding (any damage is an error, so every input has one answer to
    /// compare), with limits that keep one input under 256 MiB of memory and
    /// about a second of work.
    public static let options = DecodingOptions(mode: .strict, limits: DecodingLimits(
        maxWidth: 16_384, maxHeight: 16_384, maxPixelsPerFrame: 8 << 20,
        maxFrames: 256, maxTotalBytes: 96 << 20, maxScans: 100))

    /// ``options`` with 512 Ki pixels for AVIF (1024 × 512), an eighth of the others' bound. AV1
    /// reconstruction costs far more per pixel than inflating or Huffman decoding: in the release
    /// build one 2048×858 4:4:4 corpus file took over 10 s for its two decodes (one-shot and in
    /// pieces), and the `avif`, `sniff` and `incremental` targets decode every AVIF seed five
    /// times between them, which kept CI's minute of fuzzing busy for half an hour.
    public static let avifOptions: DecodingOptions = {
        var avif = options
        avif.limits.maxPixelsPerFrame = 1 << 19
        return avif
    }()

    /// The options for `bytes`: ``avifOptions`` when they sniff as AVIF, else ``options``.
    static func options(for bytes: [UInt8]) -> DecodingOptions {
        FormatSniffer.sniff(bytes, atEnd: true).format == .avif ? avifOptions : options
    }

    /// Our lossless encoder for `format`, for the round trip; `nil` where none exists yet.
    /// WebP's effort (0–4: the faster settings, so that an input stays near a second of
    /// work) comes from the input's hash, as the JPEG settings do.
    static func encoder(for format: ImageFormat, bytes: [UInt8]) -> ((Image) -> [UInt8]?)? {
        switch format {
        case .png: { try? PNG.Encoder().encode($0) }
        case .apng: { try? PNG.Encoder().encodeAnimation($0) }
        case .webp:
            { [effort = Int(fnv1a(bytes) % 5)] in
                try? WebP.Encoder(options: WebP.Encoder.Options(lossless: true, effort: effort, exact: true)).encode($0)
            }
        default: nil
        }
    }

    /// Runs one input through `target`. Returns a description of a violated
    /// invariant, or `nil` when all is well (a typed decoding error is fine).
    public static func run(_ target: FuzzTarget, _ bytes: [UInt8]) -> String? {
        switch target {
        case .png: decodeDirectly(bytes, format: .png)
        case .jpeg: decodeDirectly(bytes, format: .jpeg)
        case .gif: decodeDirectly(bytes, format: .gif)
        case .webp: decodeWebP(bytes)
        case .avif: decodeAVIF(bytes)
        case .sniff: sniffAndDecode(bytes)
        case .incremental: compareIncremental(bytes)
        case .roundtrip: roundTrip(bytes)
        case .icc: convertThroughProfile(bytes)
        }
    }

    /// Bypasses sniffing so that mutated signatures still reach the decoder.
    private static func decodeDirectly(_ bytes: [UInt8], format: ImageFormat) -> String? {
        guard let decoder = DecoderRegistry.standard.decoder(for: format) else { return nil }
        _ = try? decoder.decode(bytes, options: options)
        return nil
    }

    /// The decoder and the frame iterator (fed in pieces) must agree frame for frame.
    private static func decodeWebP(_ bytes: [UInt8]) -> String? {
        let whole = Result { () throws(ImageDecodingError) in try WebP.Decoder.decode(bytes, options: options) }
        var iterator = WebP.FrameIterator(options: options)
        var frames: [ImageFrame] = []
        let streamed = Result { () throws(ImageDecodingError) -> [ImageFrame] in
            for range in splitPoints(bytes) {
                iterator.append(bytes[range])
                while let frame = try iterator.next() { frames.append(frame) }
            }
            iterator.endOfInput()
            while let frame = try iterator.next() { frames.append(frame) }
            return frames
        }
        switch (whole, streamed) {
        case (.success(let image), .success(let list)) where image.frames == list: return nil
        case (.failure(let a), .failure(let b)) where a == b: return nil
        case (.failure(.limitExceeded(.totalBytes)), _):
            // The decoder keeps every frame and counts them all against the byte budget;
            // the iterator hands each frame over and keeps only its canvas, so on the same
            // budget it may decode further and end otherwise (a long animation, cut short).
            return nil
        default: return "WebP.FrameIterator differs from WebP.Decoder: \(summary(whole)) against \(frames.count) frames, \(streamed)"
        }
    }

    /// One-shot and in pieces, `AVIF.Decoder` must reach the same info and the same end.
    private static func decodeAVIF(_ bytes: [UInt8]) -> String? {
        var whole = AVIF.Decoder(options: avifOptions)
        let wholeEnd = Result { () throws(ImageDecodingError) -> Image in
            _ = try whole.append(bytes)
            return try whole.finish()
        }
        var pieces = AVIF.Decoder(options: avifOptions)
        let piecesEnd = Result { () throws(ImageDecodingError) -> Image in
            for range in splitPoints(bytes) where try pieces.append(bytes[range]) == .complete { break }
            return try pieces.finish()
        }
        guard whole.info == pieces.info else { return "AVIF info differs in pieces: \(String(describing: whole.info)) against \(String(describing: pieces.info))" }
        switch (wholeEnd, piecesEnd) {
        case (.success(let a), .success(let b)) where a == b: return nil
        case (.failure(let a), .failure(let b)) where a == b: return nil
        default: return "AVIF outcome differs in pieces: \(summary(wholeEnd)) against \(summary(piecesEnd))"
        }
    }

    private static func sniffAndDecode(_ bytes: [UInt8]) -> String? {
        for length in [0, 1, 2, 3, 4, 8, 12, 16, 32, 64] where length <= bytes.count {
            // Once the sniffer decides from a prefix, more bytes must not change its mind.
            let partial = FormatSniffer.sniff(bytes.prefix(length))
            let whole = FormatSniffer.sniff(bytes, atEnd: true)
            if case .detected(let early) = partial, case .detected(let late) = whole, early.format != late.format {
                return "sniffing \(length) bytes gave \(early), the whole file \(late)"
            }
        }
        _ = try? DecoderRegistry.standard.decode(bytes, options: options(for: bytes))
        return nil
    }

    private static func compareIncremental(_ bytes: [UInt8]) -> String? {
        let options = options(for: bytes)
        let oneShot = Result { () throws(ImageDecodingError) in try DecoderRegistry.standard.decode(bytes, options: options) }
        var decoder = AutoDecoder(registry: .standard, options: options)
        let chunked = Result { () throws(ImageDecodingError) -> Image in
            for range in splitPoints(bytes) { _ = try decoder.append(bytes[range]) }
            return try decoder.finish()
        }
        switch (oneShot, chunked) {
        case (.success(let a), .success(let b)) where a == b: return nil
        case (.failure(let a), .failure(let b)) where a == b: return nil
        default: return "incremental result differs: one-shot \(summary(oneShot)), chunked \(summary(chunked))"
        }
    }

    private static func roundTrip(_ bytes: [UInt8]) -> String? {
        guard let image = try? DecoderRegistry.standard.decode(bytes, options: options),
              // Equality is what the round trip checks, and small images check it as well as
              // large ones: beyond 1 Mi pixels, encoding alone takes most of a second.
              image.width &* image.height &* image.frames.count <= 1 << 20 else { return nil }
        if let failure = jpegRoundTrip(image, bytes) { return failure }
        // WebP's encoders search (modes, matches) where PNG's only filters and deflates: a
        // quarter of PNG's pixel bound keeps an input near a second of work (a 1000×307 still
        // took 1.7 s of CPU through both WebP round trips, release build).
        if image.format == .webp, image.width &* image.height &* image.frames.count > 1 << 18 { return nil }
        if image.format == .webp, let failure = lossyWebPRoundTrip(image, bytes) { return failure }
        guard let encode = encoder(for: image.format, bytes: bytes), let encoded = encode(image) else {
            return image.format == .webp ? "lossless WebP encoding failed" : nil
        }
        do throws(ImageDecodingError) {
            let again = try DecoderRegistry.standard.decode(encoded, options: options)
            guard again.frames.map(\.pixels) == image.frames.map(\.pixels) else { return "round trip changed the pixels" }
            return nil
        } catch {
            return "our own encoding does not decode: \(error)"
        }
    }

    /// The image encoded as lossy WebP (quality, method, alpha quality and key-frame interval
    /// from the input's hash; an animation as an animation, a still as a still) must encode and
    /// decode with our decoder to as many frames of the same size, their alpha exactly as it was
    /// at alpha quality 100 (the `ALPH` chunk is lossless), 0 and 255 exactly where they were below.
    private static func lossyWebPRoundTrip(_ image: Image, _ bytes: [UInt8]) -> String? {
        guard let first = image.frames.first else { return nil }
        let hash = fnv1a(bytes)
        let alphaQuality = (hash >> 16) & 1 == 1 ? 100 : Int((hash >> 17) % 101)
        let keyframes = Int((hash >> 24) % 4)
        let options = WebP.Encoder.Options(method: Int(hash % 7), quality: Int((hash >> 8) % 101),
                                           keyframeInterval: keyframes...keyframes * 2, alphaQuality: alphaQuality)
        // An animation's frames each try two to four encodings: up to a quarter of the still
        // bound of pixels in all its frames, the whole animation, else its first frame.
        let animates = image.frames.count > 1 && image.width &* image.height &* image.frames.count <= 1 << 16
        let source = animates ? image : Image(pixels: first.pixels, format: .webp)
        let encoded: [UInt8]
        do throws(WebP.Encoder.EncodingError) {
            encoded = try WebP.Encoder(options: options).encode(source)
        } catch {
            // Past VP8's 16 383 pixels or a 512 KiB first partition: a stated limit, not a finding.
            if case .unsupportedSize = error { return nil }
            return "lossy WebP encoding failed: \(error)"
        }
        do throws(ImageDecodingError) {
            let decoded = try WebP.Decoder.decode(encoded, options: DecodingOptions(mode: .strict))
            guard decoded.width == image.width, decoded.height == image.height,
                  decoded.frames.count == source.frames.count else {
                return "lossy WebP round trip changed the size or the frame count"
            }
            let alpha = { (pixels: PixelBuffer) in pixels.converted(to: .rgba8).bytes.enumerated().filter { $0.offset % 4 == 3 }.map(\.element) }
            for (frame, original) in zip(decoded.frames, source.frames) {
                let (got, want) = (alpha(frame.pixels), alpha(original.pixels))
                if alphaQuality == 100 {
                    guard got == want else { return "lossy WebP round trip changed the alpha" }
                } else {
                    guard zip(got, want).allSatisfy({ ($0 == 0) == ($1 == 0) && ($0 == 255) == ($1 == 255) }) else {
                        return "lossy WebP round trip at alpha quality \(alphaQuality) moved alpha 0 or 255"
                    }
                }
            }
            return nil
        } catch {
            return "our own lossy WebP does not decode: \(error)"
        }
    }

    private static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    /// JPEG settings derived from the input's hash (quality, subsampling,
    /// optimised tables, progressive, restart rows, alpha handling).
    public static func jpegOptions(for bytes: [UInt8]) -> JPEG.EncodingOptions {
        let hash = fnv1a(bytes)
        let subsamplings = JPEG.EncodingOptions.Subsampling.allCases
        return JPEG.EncodingOptions(
            quality: 1 + Int(hash % 100), subsampling: subsamplings[Int((hash >> 8) % UInt64(subsamplings.count))],
            optimizesHuffmanTables: (hash >> 12) & 1 == 1, isProgressive: (hash >> 13) & 1 == 1,
            restartRows: Int((hash >> 14) % 3), alpha: (hash >> 16) & 1 == 1 ? .ignore : .flattenOverWhite,
            metadata: (hash >> 17) & 1 == 1 ? .all : [])
    }

    /// The first frame encoded as JPEG must encode without error and decode
    /// with our decoder to an image of the same size.
    private static func jpegRoundTrip(_ image: Image, _ bytes: [UInt8]) -> String? {
        guard image.width > 0, image.height > 0, image.width <= 0xFFFF, image.height <= 0xFFFF else { return nil }
        let encoded: [UInt8]
        do throws(ImageEncodingError) {
            encoded = try JPEG.Encoder(options: jpegOptions(for: bytes)).encode(image)
        } catch {
            return "JPEG encoding failed: \(error)"
        }
        do throws(ImageDecodingError) {
            let decoded = try JPEG.Decoder.decode(encoded, options: DecodingOptions(mode: .strict))
            guard decoded.width == image.width, decoded.height == image.height else { return "JPEG round trip changed the size" }
            return nil
        } catch {
            return "our JPEG does not decode: \(error)"
        }
    }

    /// Chunk boundaries derived from the input's own FNV-1a hash: reproducible
    /// for a given input, different across inputs.
    public static func splitPoints(_ bytes: [UInt8]) -> [Range<Int>] {
        var hash = fnv1a(bytes)
        var ranges: [Range<Int>] = []
        var position = 0
        while position < bytes.count {
            hash = hash &* 6364136223846793005 &+ 1442695040888963407
            let maximum = hash >> 60 < 4 ? 3 : 700
            let size = 1 + Int((hash >> 33) % UInt64(maximum))
            let end = min(position + size, bytes.count)
            ranges.append(position..<end)
            position = end
        }
        return ranges
    }

    private static func summary(_ result: Result<Image, ImageDecodingError>) -> String {
        switch result {
        case .success(let image): "\(image.format) \(image.width)x\(image.height) frames=\(image.frames.count)"
        case .failure(let error): "error \(error)"
        }
    }
}
